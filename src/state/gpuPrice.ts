/**
 * The price per GPU-hour that turns the results' lost GPU-hours into money (docs/model.md §4
 * "Where the time goes"): a display setting, not part of the scenario, so it changes no number the
 * engine computes and no old link's meaning. In the link as `gph=` (absent: the default), so a
 * shared link shows the same cost.
 */
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";
import { DISPLAY_SETTINGS, parseSetting, settingAllowed, settingParam } from "../link/displaySettings.ts";
import { LinkError } from "../link/linkError.ts";
import { registerAddressPart, requestAddressWrite } from "./address.ts";

/** US dollars per GPU-hour: its range, default and link key are displaySettings.ts's gpuPrice. */
export const DEFAULT_GPU_PRICE = DISPLAY_SETTINGS.gpuPrice.default;
export const MAX_GPU_PRICE = DISPLAY_SETTINGS.gpuPrice.max;
/** The allowed values, in words: every refusal says it. */
export const GPU_PRICE_ALLOWED = settingAllowed("gpuPrice");

/** The price a person typed or a link carries, or why it is refused (naming the setting and the range). */
export function parseGpuPrice(raw: string): number | string {
  try {
    return parseSetting("gpuPrice", raw.trim());
  } catch (e) {
    return (e as Error).message;
  }
}

/** The price as the link writes it (shortest decimal; "" for the default, so old links stay as they were). */
export function gpuPriceParam(price: number): string {
  return settingParam("gpuPrice", price);
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
