/**
 * What-if sweeps, the public entry: the scenarios along one axis, each valid by construction, so
 * a sweep never half-fails in the worker. Pure: the worker pool runs what this builds. Its parts
 * live in ./sweep/: types.ts (an axis, a point), axes.ts (the catalogue, from the field table),
 * causeAxes.ts (a scenario's causes as axes), spacing.ts (ranges and spacing), points.ts (the
 * points of a sweep, and one point of the tornado).
 */
export {
  axisApplies,
  axisInfo,
  axisSweepRange,
  SWEEP_AXES,
  sweepAxesFor,
  sweepAxisProblem,
} from "./axes.ts";
export { CAUSE_SHARE_HELP, CAUSE_SHARE_MIN, causeAxisId, causeAxisOf } from "./causeAxes.ts";
export {
  buildSweep,
  MAX_POINTS,
  MAX_SWEEP_SEEDS,
  MIN_POINTS,
  MIN_SWEEP_SEEDS,
  SWEEP_GPU_RANGE,
  sweepAxisBounds,
  sweepPointAt,
  sweepValue,
} from "./points.ts";
export { type SweepRange, sweepRangeProblem } from "./spacing.ts";
export type {
  AxisField,
  CauseAxisId,
  CauseAxisKey,
  FieldAxisId,
  KnobAxisId,
  SweepAxisId,
  SweepAxisInfo,
  SweepPoint,
} from "./types.ts";
