/**
 * One step's DiLoCo panel (docs/model.md §7): for the model on screen and a link between replicas,
 * the outer sync time T, the compute utilisation of data parallelism, DiLoCo and Streaming DiLoCo
 * against bandwidth, the bandwidth each needs for 50 / 90 / 99 %, and "Use in the Cluster view".
 * Every figure comes from src/step/outerSync.ts; nothing here is simulated.
 */
import { useMemo, useState } from "react";
import { applyOuterSyncToCluster, DILOCO_POLICY, dilocoRuns } from "../../state/outerSyncToCluster.ts";
import { useStepStore } from "../../state/stepStore.ts";
import { useAppStore } from "../../state/store.ts";
import { participatingReplicas } from "../../step/collectiveCost.ts";
import { outerSyncFigures, type SyncProblem, UTILISATION_TARGETS } from "../../step/outerSync.ts";
import { STEP_RANGES } from "../../step/stepRanges.ts";
import type { ModelSummary } from "../../worker/stepApi.ts";
import { Panel } from "../boundary/Panel.tsx";
import { NumberField } from "../form/NumberField.tsx";
import { pct } from "../format.ts";
import { OuterSyncChart } from "./OuterSyncChart.tsx";
import { bitRateText, neededText, rateText, syncTimeText } from "./outerSyncText.ts";
import { memoryText, ms } from "./units.ts";

function OuterSyncKnobs() {
  const outer = useStepStore((s) => s.outer);
  const setReplicaLink = useStepStore((s) => s.setReplicaLink);
  const setCadence = useStepStore((s) => s.setCadence);
  const bw = STEP_RANGES.bandwidthBytesPerSecond;
  const alpha = STEP_RANGES.alphaSeconds;
  return (
    <div className="outer-sync-knobs">
      <NumberField
        className="step-field"
        label="Bandwidth"
        unit="GB/s"
        min={bw.min / 1e9}
        max={bw.max / 1e9}
        value={Number((outer.link.bandwidth / 1e9).toPrecision(6))}
        onChange={(v) => setReplicaLink({ bandwidth: v * 1e9 })}
        help={`Between replicas, all of it: ${bitRateText(outer.link.bandwidth)}`}
        testId="outer-bandwidth"
      />
      <NumberField
        className="step-field"
        label="α"
        unit="ms"
        min={alpha.min * 1e3}
        max={alpha.max * 1e3}
        value={Number((outer.link.alpha * 1e3).toPrecision(6))}
        onChange={(v) => setReplicaLink({ alpha: v / 1e3 })}
        help="Latency of one sync"
        testId="outer-alpha"
      />
      <NumberField
        className="step-field"
        label="Sync every H"
        unit="steps"
        min={STEP_RANGES.syncEvery.min}
        max={STEP_RANGES.syncEvery.max}
        integer
        value={outer.syncEvery}
        onChange={(syncEvery) => setCadence({ syncEvery })}
        help="DiLoCo's inner steps per round"
        testId="outer-sync-every"
      />
      <NumberField
        className="step-field"
        label="Overlap τ"
        unit="steps"
        min={STEP_RANGES.overlapSteps.min}
        max={STEP_RANGES.overlapSteps.max}
        integer
        value={outer.overlapSteps}
        onChange={(overlapSteps) => setCadence({ overlapSteps })}
        help="Streaming DiLoCo: steps the sync runs under (below H)"
        testId="outer-overlap"
      />
    </div>
  );
}

export function OuterSyncPanel({ model }: { model: ModelSummary }) {
  const outer = useStepStore((s) => s.outer);
  const config = useStepStore((s) => s.config);
  const scenario = useAppStore((s) => s.scenario);
  const [refusal, setRefusal] = useState<string | null>(null);
  const replicas = participatingReplicas(config.parallel);
  const computeMs = config.compute.forwardMs + config.compute.backwardMs + config.compute.optimizerMs;
  const problem: SyncProblem = {
    bytes: model.bytes,
    replicas,
    alpha: outer.link.alpha,
    stepSeconds: computeMs / 1e3,
  };
  const figures = useMemo(
    () => outerSyncFigures({ bytes: model.bytes, replicas, stepSeconds: computeMs / 1e3 }, outer),
    [model.bytes, replicas, computeMs, outer],
  );
  const T = figures.syncSeconds;
  const unreachable = figures.strategies.some((s) => s.needed.includes(null));
  const hsdp = config.parallel.mode === "hsdp";
  const dilocoShown = (scenario.policies as readonly string[]).includes(DILOCO_POLICY);
  const strategies = dilocoShown
    ? ""
    : dilocoRuns()
      ? " and adds DiLoCo to its strategies"
      : " (its DiLoCo knobs, which act once DiLoCo runs there)";
  return (
    <Panel what="The DiLoCo outer-sync panel" aria-label="DiLoCo outer sync" className="panel outer-sync">
      <div className="step-section-head">
        <h3>DiLoCo: one outer sync every H steps instead of an all-reduce every step</h3>
      </div>
      <div className="outer-sync-body">
        <OuterSyncKnobs />
        <div className="outer-sync-main">
          <p className="step-small" data-testid="outer-sync-time">
            {model.name}&apos;s pseudo-gradients ({memoryText(model.bytes)}, the gradients&apos; size) among p
            = {replicas} {hsdp ? "replicas" : "nodes"} (Data parallelism
            {hsdp && config.parallel.missingReplica ? ", one missing" : ""}):{" "}
            {replicas > 1 ? (
              <>
                one outer sync takes T = 2 · {memoryText(model.bytes)} · {replicas - 1}/{replicas} ÷{" "}
                {rateText(outer.link.bandwidth)} + α {syncTimeText(outer.link.alpha)} ={" "}
                <strong data-testid="outer-sync-seconds">{syncTimeText(T)}</strong>.
              </>
            ) : (
              <>
                with one replica there is nothing to sync: T ={" "}
                <strong data-testid="outer-sync-seconds">{syncTimeText(T)}</strong>.
              </>
            )}{" "}
            A step computes for s = {ms(computeMs)} (Compute per step); a round of H steps blocks for max(0, T
            − τ·s) after its compute, and the utilisation is H·s ÷ (H·s + that).
          </p>
          <OuterSyncChart figures={figures} problem={problem} bandwidth={outer.link.bandwidth} />
          <div className="outer-sync-table-wrap">
            <table className="step-table outer-sync-table" data-testid="outer-sync-table">
              <caption className="visually-hidden">
                Compute utilisation and the bandwidth each target needs
              </caption>
              <thead>
                <tr>
                  <th>Strategy</th>
                  <th className="num">
                    at <span className="outer-sync-nowrap">{rateText(outer.link.bandwidth)}</span>
                  </th>
                  {UTILISATION_TARGETS.map((u) => (
                    <th key={u} className="num">
                      for {pct(u, 0)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {figures.strategies.map((s) => (
                  <tr key={s.strategy.id} data-strategy={s.strategy.id}>
                    <td>
                      <span className={`outer-sync-swatch outer-sync-${s.strategy.id}`} />
                      {s.strategy.label}{" "}
                      <span className="muted outer-sync-cadence">
                        H {s.strategy.syncEvery.toLocaleString("en-US")}, τ {s.strategy.overlapSteps}
                      </span>
                    </td>
                    <td className="num" data-testid={`outer-util-${s.strategy.id}`}>
                      {pct(s.utilisation)}
                    </td>
                    {s.needed.map((b, i) => (
                      <td
                        key={UTILISATION_TARGETS[i]}
                        className="num"
                        data-testid={`outer-need-${s.strategy.id}-${i}`}
                      >
                        {neededText(b)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="muted step-small">
            Columns "for 50 / 90 / 99 %": the least bandwidth between replicas that reaches that utilisation.
            {unreachable
              ? ` "—": no bandwidth is enough, as α (${syncTimeText(outer.link.alpha)}) alone exceeds what a round may block for, τ·s + H·s·(1 − u)/u.`
              : ""}
          </p>
          <div className="outer-sync-use">
            <button
              type="button"
              data-testid="outer-sync-use"
              onClick={() =>
                setRefusal(
                  applyOuterSyncToCluster({
                    syncSeconds: T,
                    syncEvery: outer.syncEvery,
                    overlapSteps: outer.overlapSteps,
                  }),
                )
              }
            >
              Use in the Cluster view
            </button>
            <p className="muted step-small" data-testid="outer-sync-use-words">
              Sets DiLoCo&apos;s sync time {syncTimeText(T)}, H = {outer.syncEvery.toLocaleString("en-US")}{" "}
              and τ = {outer.overlapSteps} on the Cluster view&apos;s scenario
              {strategies}; Back undoes it. There a round blocks by that view&apos;s own step time (
              {scenario.training.stepSeconds} s)
              {scenario.cluster.replicas === replicas
                ? "."
                : `, and it runs ${scenario.cluster.replicas.toLocaleString("en-US")} replicas where T here is for p = ${replicas}.`}
            </p>
            {refusal && (
              <p role="alert" className="error-text step-small">
                The Cluster view refused it: {refusal}
              </p>
            )}
          </div>
        </div>
      </div>
    </Panel>
  );
}
