/**
 * q measured by DiLoCo mode (src/train/stepEquivalence.ts), said with what it was measured from,
 * and "Use this q": the Cluster scenario's `diloco.stepEquivalence` becomes q, as one edit.
 */
import { useState } from "react";
import { useAppStore } from "../../state/store.ts";
import { applyStepEquivalence, stepEquivalenceProblem } from "../../state/useQ.ts";
import type { MeasuredQ } from "../../train/stepEquivalence.ts";

export function DilocoQ({ q, every }: { q: MeasuredQ; every: number }) {
  const scenario = useAppStore((s) => s.scenario);
  const [said, setSaid] = useState<string | null>(null);
  const value = q.q;
  const problem = value === null ? null : stepEquivalenceProblem(scenario, value);
  const text =
    q.target === null
      ? "q is measured once DDP has finished: the steps DiLoCo (without failures) needs to reach DDP's final held-out loss."
      : q.reachedAt !== null && value !== null
        ? `DiLoCo without failures reached DDP's final held-out loss (${q.target.toFixed(3)} at step ${q.ddpSteps}) at step ${q.reachedAt}: q = ${q.ddpSteps} / ${q.reachedAt} = ${value.toFixed(2)}, one DiLoCo inner step (H = ${every}) worth ${value.toFixed(2)} DDP steps.`
        : q.final
          ? `DiLoCo without failures did not reach DDP's final held-out loss (${q.target.toFixed(3)} at step ${q.ddpSteps}) in its ${2 * q.ddpSteps} steps: q is below ${(1 / 2).toFixed(1)}, not measured.`
          : `DiLoCo without failures has not yet reached DDP's final held-out loss (${q.target.toFixed(3)} at step ${q.ddpSteps}).`;
  return (
    <div className="train-q" data-testid="train-q">
      <strong>
        q measured: <output data-testid="train-q-value">{value === null ? "—" : value.toFixed(2)}</output>
      </strong>
      <p>{text}</p>
      {value !== null && (
        <button
          type="button"
          data-testid="train-use-q"
          disabled={problem !== null}
          title={problem ?? undefined}
          onClick={() => {
            setSaid(applyStepEquivalence(value));
          }}
        >
          Use this q in the Cluster view
        </button>
      )}
      {problem && <p className="train-error">{problem}</p>}
      {said && <p aria-live="polite">{said}</p>}
    </div>
  );
}
