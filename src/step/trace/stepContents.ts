/**
 * What one measured step's window holds, in parts that add up to it: computation (merged compute
 * kernels), communication not under computation (exposed), other kernels alone (memory copies and
 * sets not under either), and idle (no kernel running). The step model holds only the first two
 * (compute and the all-reduces it cannot hide): to compare like with like, its step is put beside
 * their sum, and the rest is named.
 */
import { type Interval, intersectLength, mergeIntervals, totalLength } from "../intervals.ts";
import type { Activity } from "./measure.ts";

export interface StepContents {
  windowMs: number;
  computeMs: number;
  exposedCommMs: number;
  /** Memory kernels running under no compute and no communication. */
  otherMs: number;
  /** The window's time with no kernel running (kernels running past the window's end shorten it). */
  idleMs: number;
  /** Compute + exposed communication: what the model's step stands for. */
  modelledMs: number;
}

export function stepContents(window: Interval, acts: readonly Activity[]): StepContents {
  const of = (keep: (a: Activity) => boolean) => mergeIntervals(acts.filter(keep));
  const compute = of((a) => a.cls === "compute");
  const comm = of((a) => a.cls === "comm");
  const all = mergeIntervals(acts);
  const computeUs = totalLength(compute);
  const exposedUs = totalLength(comm) - intersectLength(comm, compute);
  const busyUs = totalLength(all);
  const windowUs = window.end - window.start;
  return {
    windowMs: windowUs / 1e3,
    computeMs: computeUs / 1e3,
    exposedCommMs: exposedUs / 1e3,
    otherMs: Math.max(0, busyUs - computeUs - exposedUs) / 1e3,
    idleMs: Math.max(0, windowUs - busyUs) / 1e3,
    modelledMs: (computeUs + exposedUs) / 1e3,
  };
}
