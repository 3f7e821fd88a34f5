/** Failure kinds shared by the tracks and the hover text: larger kinds are drawn later and win. */
import { FtPhase, SyncState, type Trace } from "../../sim/types.ts";

export const SYNC_KIND: Record<number, number> = {
  [SyncState.rolledBack]: 1,
  [SyncState.checkpointing]: 2,
  [SyncState.recovering]: 3,
  [SyncState.waitSpare]: 4,
  [SyncState.migrating]: 5,
};
// Every phase named (satisfies): a new phase that is not drawn or named fails to compile.
export const FT_KIND: Record<number, number> = {
  [FtPhase.rejoin]: 2,
  [FtPhase.catchUp]: 3,
  [FtPhase.restart]: 4,
  [FtPhase.detect]: 5,
  [FtPhase.waitSpare]: 6,
  // Struck again while outside the quorum (restrike "quiet"): down, the others train, as a restart.
  [FtPhase.detectQuiet]: 4,
} satisfies Record<FtPhase, number>;

/** Marker kind of failure i: 2 for a hang, 1 for a fail-stop. */
export const failureKind = (trace: Pick<Trace, "failures">) => (i: number) =>
  trace.failures.hang[i] ? 2 : 1;
