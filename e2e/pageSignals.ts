/**
 * Waits on what the page says it is doing, instead of on time: the address's own count of writes
 * and its queued write (src/state/address.ts), and the link works asked for and still waiting
 * (src/state/linkRun.ts), all on the root element. A slow runner waits longer; it never passes a
 * check early because a sleep ended before the page got to the work.
 */
import { expect, type Page } from "@playwright/test";

const root = (page: Page) => page.locator("html");

/** The address bar's writes so far (once the address has started). */
export async function addressWrites(page: Page): Promise<number> {
  await expect(root(page)).toHaveAttribute("data-address-writes", /^\d+$/);
  return Number(await root(page).getAttribute("data-address-writes"));
}

/** Waits until no write of the address is queued (a push to compose, a debounced replace). */
export async function addressSettled(page: Page): Promise<void> {
  await expect(root(page)).toHaveAttribute("data-address-pending", "0");
}

/** Nothing is queued and the address was written no more than `before` times. */
export async function expectNoAddressWrite(page: Page, before: number): Promise<void> {
  await addressSettled(page);
  expect(await addressWrites(page)).toBe(before);
}

/** Link works (a sweep's, a tornado's) asked for so far, and how many of them still wait. */
export async function linkRuns(page: Page): Promise<{ asked: number; waiting: number }> {
  const [asked, waiting] = await Promise.all([
    root(page).getAttribute("data-link-runs-asked"),
    root(page).getAttribute("data-link-runs-waiting"),
  ]);
  return { asked: Number(asked ?? 0), waiting: Number(waiting ?? 0) };
}
