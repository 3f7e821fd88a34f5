/** The three checks of a run, live, and the badge that says "verified" once all of them hold. */
import type { TrainProgress } from "../../train/session.ts";

const sci = (x: number) => (x === 0 ? "0" : x.toExponential(1));

export function TrainBadge({ progress }: { progress: TrainProgress | null }) {
  if (!progress)
    return (
      <span className="lab-badge pending" data-testid="train-badge">
        not run yet
      </span>
    );
  const v = progress.verdict;
  // A check that has already failed cannot recover; the others are only settled at the end.
  const broken =
    v.identical.mismatches > 0 ||
    v.identical.catchUpsIdentical < v.identical.catchUps ||
    v.identical.rollbacksIdentical < v.identical.rollbacks ||
    v.reference.maxLossError > v.reference.lossTolerance;
  const text = v.verified
    ? "✓ verified"
    : broken || (progress.finished && !progress.stopped)
      ? "✗ a check failed"
      : progress.stopped
        ? "stopped"
        : "checking…";
  const cls = v.verified ? "hardware" : broken || progress.finished ? "cpu" : "software";
  return (
    <span className={`lab-badge ${cls}`} data-testid="train-badge">
      <strong>{text}</strong>
    </span>
  );
}

export function TrainChecks({ progress }: { progress: TrainProgress }) {
  const { identical: id, reference: ref, converges: cv } = progress.verdict;
  const mark = (ok: boolean) => (ok ? "✓" : "…");
  return (
    <ul className="train-checks" aria-label="Checks">
      <li data-testid="check-identical">
        {mark(id.ok && id.mismatches === 0)} Replicas bit-identical after every step: {id.compared} steps
        compared, {id.mismatches} mismatches; catch-ups identical to their peer {id.catchUpsIdentical}/
        {id.catchUps}; rollbacks identical to the checkpoint {id.rollbacksIdentical}/{id.rollbacks}.
      </li>
      <li data-testid="check-reference">
        {mark(ref.ok)} Matches the float64 CPU reference: loss over the first steps within{" "}
        {sci(ref.lossTolerance)} relative (worst {sci(ref.maxLossError)}, {ref.lossCompared} points); final
        weights within {sci(ref.weightTolerance)} of the largest weight (
        {ref.weightError === null ? "at the end" : `got ${sci(ref.weightError)}`}).
      </li>
      <li data-testid="check-converges">
        {mark(cv.ok)} Without failures, held-out loss ≤ {cv.target} within {cv.withinSteps} steps (
        {cv.reachedAt === null ? "not yet" : `reached at step ${cv.reachedAt}`}).
      </li>
    </ul>
  );
}
