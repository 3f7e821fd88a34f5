/**
 * A lab job's progress where its card is: a bar (steps or runs done of how many; no end while
 * the total is unknown), what it is doing, and Cancel. The note left by the last job (cancelled,
 * rerun on a fresh worker) shows in the same place.
 */
import type { LabJob } from "../../state/labState.ts";
import { useLabStore } from "../../state/labStore.ts";

export function JobProgressBar({ jobs, label }: { jobs: readonly LabJob[]; label: string }) {
  const job = useLabStore((s) => s.job);
  const progress = useLabStore((s) => s.progress);
  const note = useLabStore((s) => s.note);
  const lastJob = useLabStore((s) => s.lastJob);
  const cancel = useLabStore((s) => s.cancel);
  const mine = job !== null && jobs.includes(job);
  if (!mine) {
    return note && lastJob !== null && jobs.includes(lastJob) ? (
      <output className="lab-job-note" aria-live="polite">
        {note}
      </output>
    ) : null;
  }
  const total = progress?.total ?? null;
  return (
    <div className="lab-job">
      {total !== null ? (
        <progress aria-label={label} max={total} value={Math.min(progress?.done ?? 0, total)} />
      ) : (
        <progress aria-label={label} />
      )}
      <output aria-live="polite" className="lab-progress">
        {progress?.text ?? "Starting…"}
      </output>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      {note && <output className="lab-job-note">{note}</output>}
    </div>
  );
}
