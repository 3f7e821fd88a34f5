/** A failure's recovery (sim/recoveryWaterfall.ts) in words: the log's bar labels and the timeline's hover. */
import type { Recovery, RecoveryPhase } from "../../sim/recovery/recoveryWaterfall.ts";
import { duration } from "../format.ts";

export const PHASE_TEXT: Record<RecoveryPhase, string> = {
  detect: "detect",
  waitSpare: "wait for spare",
  restart: "restart",
  catchUp: "catch-up",
  rejoin: "rejoin",
  lostWork: "lost work",
};

/** "detect 60 s · wait for spare 59 min · restart 7.0 min", then how it ended when not healthy. */
export function recoveryText(r: Recovery, restartWord = "restart"): string {
  const parts = r.segments.map(
    (s) => `${s.phase === "restart" ? restartWord : PHASE_TEXT[s.phase]} ${duration(s.seconds)}`,
  );
  const body = parts.length > 0 ? parts.join(" · ") : "no recovery phase";
  if (r.end.kind === "struck") return `${body}; struck again by failure #${r.end.by + 1}`;
  if (r.end.kind === "horizon") return `${body}; still recovering at the end of the run`;
  return body;
}
