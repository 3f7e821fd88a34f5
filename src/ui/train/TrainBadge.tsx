/**
 * The checks of a run, live, and the badge that says "verified" once all of them hold. A check
 * that failed says where: the run, the step and the tensor.
 */
import type { TrainProgress, TrainVerdict } from "../../train/session.ts";

const sci = (x: number) => (x === 0 ? "0" : x.toExponential(1));
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** A check that has failed cannot recover; the others are only settled at the end. */
export function verdictBroken(v: TrainVerdict): boolean {
  return (
    v.identical.failure !== null ||
    v.identical.mismatches > 0 ||
    v.identical.catchUpsIdentical < v.identical.catchUps ||
    v.identical.rollbacksIdentical < v.identical.rollbacks ||
    v.reference.failure !== null ||
    v.endState.ok === false
  );
}

export function TrainBadge({ progress }: { progress: TrainProgress | null }) {
  if (!progress)
    return (
      <span className="lab-badge pending" data-testid="train-badge">
        not run yet
      </span>
    );
  const v = progress.verdict;
  const broken = verdictBroken(v);
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

export function TrainChecks({ progress, diloco = false }: { progress: TrainProgress; diloco?: boolean }) {
  const { identical: id, reference: ref, endState: end, converges: cv } = progress.verdict;
  const done = progress.finished && !progress.stopped;
  // ✓ holds, ✗ failed (for good), … not settled yet.
  const mark = (ok: boolean, failed: boolean) => (ok ? "✓" : failed || done ? "✗" : "…");
  const idFailed =
    id.failure !== null ||
    id.mismatches > 0 ||
    id.catchUpsIdentical < id.catchUps ||
    id.rollbacksIdentical < id.rollbacks;
  return (
    <ul className="train-checks" aria-label="Checks">
      <li data-testid="check-identical" data-ok={id.ok}>
        {mark(id.ok && !idFailed && done, idFailed)}{" "}
        {diloco
          ? `Replicas bit-identical after every DDP step and every outer sync: ${id.compared} compared`
          : `Replicas bit-identical after every step: ${id.compared} steps compared`}
        , {id.mismatches} mismatches; catch-ups identical to their peer {id.catchUpsIdentical}/{id.catchUps};{" "}
        {diloco
          ? `replicas of a discarded round back on the outer weights ${id.rollbacksIdentical}/${id.rollbacks}`
          : `rollbacks identical to the checkpoint ${id.rollbacksIdentical}/${id.rollbacks}`}
        .{id.failure && <span className="train-check-failure"> First failure: {id.failure}.</span>}
      </li>
      <li data-testid="check-reference" data-ok={ref.ok}>
        {mark(ref.ok && done, ref.failure !== null)} Every step matches float64: each step recomputed in
        float64 from the run&apos;s own{" "}
        {diloco
          ? "state (AdamW steps, the pseudo-gradients' average and the outer Nesterov step)"
          : "weights and momentum"}
        , every element within its float32 rounding bound ({ref.steps} steps, worst {pct(ref.worst)} of its
        bound).
        {ref.failure && <span className="train-check-failure"> Out of bounds: {ref.failure}.</span>}
      </li>
      <li data-testid="check-end" data-ok={end.ok === true}>
        {mark(end.ok === true, end.ok === false)} Ends where float64 ends: each run&apos;s held-out loss
        within {end.lossTolerance} and accuracy within {pct(end.accuracyTolerance)} of the same run in float64
        (
        {end.lossDiff === null || end.accuracyDiff === null
          ? "at the end"
          : `worst ${sci(end.lossDiff)} and ${pct(end.accuracyDiff)}`}
        ).
        {end.failure && <span className="train-check-failure"> {end.failure}.</span>}
      </li>
      <li data-testid="check-converges" data-ok={cv.ok}>
        {mark(cv.ok, done && !cv.ok)} Without failures, held-out loss ≤ {cv.target} within {cv.withinSteps}{" "}
        steps ({cv.reachedAt === null ? "not yet" : `reached at step ${cv.reachedAt}`}).
      </li>
    </ul>
  );
}
