/**
 * The price per GPU-hour that turns the results' lost GPU-hours into money (SIMULATION.md §4
 * "Where the time goes"): a display setting, not part of the scenario, so it changes no number the
 * engine computes and no old link's meaning. In the link as `gph=` (absent: the default), so a
 * shared link shows the same cost.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { LinkError } from "../link/linkError.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";

/**
 * US dollars per GPU-hour. A placeholder for illustration: ../shared/reference/FACTS.md has no
 * sourced price, and rented H100s range widely; a person sets their own.
 */
export const DEFAULT_GPU_PRICE = 2;
/** The largest price accepted: far above any rental rate, and it keeps every cost finite. */
export const MAX_GPU_PRICE = 1000;
/** The allowed values, in words: every refusal says it. */
export const GPU_PRICE_ALLOWED = `a number of dollars from 0 to ${MAX_GPU_PRICE}, at most 2 decimals`;

/** The price a person typed or a link carries, or why it is refused (naming the setting and the range). */
export function parseGpuPrice(raw: string): number | string {
  const t = raw.trim();
  // Plain decimal only: no exponents, signs, hex or "Infinity", so what the link says is what it shows.
  if (!/^\d{1,4}(\.\d{1,2})?$/.test(t) && !/^\.\d{1,2}$/.test(t)) {
    return `Price per GPU-hour "${t.slice(0, 20)}": must be ${GPU_PRICE_ALLOWED}.`;
  }
  const v = Number(t);
  if (!(v >= 0 && v <= MAX_GPU_PRICE)) {
    return `Price per GPU-hour ${t}: must be ${GPU_PRICE_ALLOWED}.`;
  }
  return v;
}

/** The price as the link writes it (shortest decimal; "" for the default, so old links stay as they were). */
export function gpuPriceParam(price: number): string {
  return price === DEFAULT_GPU_PRICE ? "" : String(price);
}

export const gpuPriceStore = createStore<{ price: number }>()(() => ({ price: DEFAULT_GPU_PRICE }));

registerAddressPart({
  keys: ["gph"],
  read: (values) => {
    const raw = values.get("gph");
    if (raw === undefined) {
      gpuPriceStore.setState({ price: DEFAULT_GPU_PRICE });
      return;
    }
    const v = parseGpuPrice(raw);
    if (typeof v === "string") throw new LinkError(`The link's gph=: ${v} The price is unchanged.`);
    gpuPriceStore.setState({ price: v });
  },
  write: () => ({ gph: gpuPriceParam(gpuPriceStore.getState().price) }),
});
gpuPriceStore.subscribe((s, prev) => {
  if (s.price !== prev.price) requestAddressWrite("edit");
});

export function useGpuPrice(): number {
  return useStore(gpuPriceStore, (s) => s.price);
}
