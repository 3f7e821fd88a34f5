/** What a sweep axis is, and a point of a sweep: shared by the catalogue, the cause axes and the points. */
import type { Scenario, ScenarioGroup } from "../scenario/index.ts";

/**
 * The old axes' recovery knobs, which keep their own ids (an old `sw=` link names them): axes.ts
 * maps each to its field.
 */
export type KnobAxisId =
  | "failStopSeconds"
  | "hangSeconds"
  | "syncRestartSeconds"
  | "checkpointMinutes"
  | "reconfigureSeconds"
  | "replicaRestartSeconds"
  | "catchUpSeconds"
  | "rejoinSeconds";
/** An axis from the field table: `group.key`, or `group.key.member` for a member of a record field. */
export type FieldAxisId = `${ScenarioGroup}.${string}`;
/** A field of the i-th cause of the scenario's list (0-based, as `failures.causes[i]`). */
export type CauseAxisId = `cause.${number}.${CauseAxisKey}`;
export type CauseAxisKey = "share" | "scope";
export type SweepAxisId = "gpus" | "mtbf" | "replicas" | KnobAxisId | FieldAxisId | CauseAxisId;

/** The field an axis moves: `group.key`, or one member of a record field (`failures.badHosts.share`). */
export interface AxisField {
  group: ScenarioGroup;
  key: string;
  member?: string;
}

export interface SweepAxisInfo {
  id: SweepAxisId;
  label: string;
  unit: string;
  /** Log-spaced axes are drawn on a log scale. */
  log: boolean;
  /** An enumerated field's values, in the spec's order, and how each reads: x is the index. */
  categories?: readonly { value: string; label: string }[];
  /** The field it moves (absent: MTBF, which is derived, and a cause's). */
  field?: AxisField;
  /** The field of one cause it moves: `failures.causes[index][key]`. */
  cause?: { index: number; key: CauseAxisKey };
  /** What moving it means, when the label alone cannot say (a cause's share). */
  help?: string;
  /** A label for a narrow column that keeps what tells the axis apart (a cause's name). */
  shortLabel?: string;
}

export interface SweepPoint {
  /** The swept value, in the axis's unit. */
  x: number;
  scenario: Scenario;
}
