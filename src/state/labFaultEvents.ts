/**
 * The fault demo as its events arrive from the worker (src/gpu/ftar.ts): the ring drawn on screen
 * and the progress bar's words, each a pure function of the event and what was shown before.
 */
import type { FtarEvent } from "../gpu/ftar.ts";
import type { JobProgress, RingView } from "./labState.ts";

/** The fault demo's bar: steps of the current attempt's ring; null: the event leaves it. */
export function faultProgress(e: FtarEvent, ring: RingView | null): JobProgress | null {
  const attempt = (n: number) => `Fault demo, attempt ${n + 1}`;
  switch (e.type) {
    case "ring":
      return { text: `${attempt(e.attempt)}: step 0 / ${e.steps}`, done: 0, total: e.steps };
    case "step-done":
      return {
        text: `${attempt(e.attempt)}: step ${e.step + 1} / ${ring?.steps}`,
        done: e.step + 1,
        total: ring?.steps ?? null,
      };
    case "timeout":
      return {
        text: `${attempt(e.attempt)}: step ${e.step + 1} timed out; heartbeating every device`,
        done: e.step,
        total: ring?.steps ?? null,
      };
    case "dropped":
      return { text: `Re-forming the ring without device ${e.ranks.join(", ")}`, done: 0, total: null };
    case "verified":
      return {
        text: "Fault demo: verifying the result",
        done: ring?.steps ?? 1,
        total: ring?.steps ?? 1,
      };
    default:
      return null;
  }
}

/** The ring on screen after an event: a new attempt's ring starts afresh, keeping its dead. */
export function ringAfter(e: FtarEvent, ring: RingView | null): RingView | null {
  switch (e.type) {
    case "ring":
      return {
        attempt: e.attempt,
        ring: e.ring,
        steps: e.steps,
        step: null,
        phase: null,
        hops: [],
        dead: ring?.dead ?? [],
        status: "running",
      };
    case "step":
      return ring && { ...ring, step: e.step, phase: e.phase, hops: e.hops, status: "running" };
    case "killed":
      return ring && { ...ring, dead: [...ring.dead, e.rank] };
    case "timeout":
      return ring && { ...ring, status: "stalled" };
    case "dropped":
      return ring && { ...ring, hops: [], status: "re-forming" };
    case "verified":
      return ring && { ...ring, hops: [], status: "done" };
    case "step-done":
      return ring;
  }
}
