/**
 * One failure's recovery as a small horizontal stacked bar: a segment per phase, as long as its
 * seconds on the row's scale, and the wall time beside it (lost work, hatched, is training lost,
 * not wall time). The phases in words are its accessible name and its tooltip.
 */
import { type Recovery, wallSeconds } from "../../sim/recovery/recoveryWaterfall.ts";
import { duration } from "../format.ts";
import { PHASE_TEXT, recoveryText } from "../timeline/recoveryText.ts";

export function RecoveryBar({
  recovery,
  scale,
  who,
  restartWord,
  testId,
}: {
  recovery: Recovery | null;
  /** Seconds the bar's full width stands for (shared by a row's bars, so they compare). */
  scale: number;
  /** "FT-HSDP", "FT-HSDP, replica 3 (longest of 2)", "Synchronous job". */
  who: string;
  restartWord?: string;
  testId?: string;
}) {
  if (!recovery || recovery.segments.length === 0) return <span className="muted">—</span>;
  const text = `${who}: ${recoveryText(recovery, restartWord)}`;
  const lost = recovery.segments.find((s) => s.phase === "lostWork")?.seconds ?? 0;
  return (
    <span className="recovery" title={text} data-testid={testId}>
      <span className="recovery-bar" role="img" aria-label={text}>
        {recovery.segments.map((s, k) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a recovery's phases are fixed once recorded
            key={k}
            className={`recovery-seg seg-${s.phase}`}
            data-phase={s.phase}
            data-seconds={s.seconds}
            style={{ width: `${scale > 0 ? (100 * s.seconds) / scale : 0}%` }}
            title={`${s.phase === "restart" && restartWord ? restartWord : PHASE_TEXT[s.phase]} ${duration(s.seconds)}`}
          />
        ))}
      </span>
      <span className="recovery-total" aria-hidden="true">
        {duration(wallSeconds(recovery))}
        {lost > 0 ? ` +${duration(lost)} lost` : ""}
        {recovery.end.kind === "struck" ? ` ✂#${recovery.end.by + 1}` : ""}
      </span>
    </span>
  );
}
