/**
 * `npm run bench:gpu` drives the built app headless: with `?bench` in the URL the lab exposes its
 * bench on `window`, so the runner can call it and collect the rows.
 */

import type { BenchPlan, BenchReport } from "../../lab/labRequests.ts";
import { labStore } from "../../state/labStore.ts";

declare global {
  interface Window {
    ftHsdpLabBench?: (plan: BenchPlan) => Promise<BenchReport>;
  }
}

export function exposeBenchHook(): void {
  if (!new URLSearchParams(location.search).has("bench")) return;
  window.ftHsdpLabBench = async (plan) => {
    while (labStore.getState().status === "starting") await new Promise((r) => setTimeout(r, 50));
    return labStore.getState().bench(plan);
  };
}
