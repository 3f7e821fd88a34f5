/**
 * The headline: ETTR of every policy of the registry (policies.ts) on the same failures, the
 * Monte Carlo band around them, and the closed forms beside them as cross-checks.
 */
import { Fragment } from "react";
import { POLICIES, type Policy } from "../../sim/policies.ts";
import { presetById } from "../../sim/presets.ts";
import { derived, parseScenario } from "../../sim/scenario.ts";
import type { ClosedFormValue, PolicyMetrics, SummarizedMetric } from "../../sim/types.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { count, duration, pct } from "../format.ts";
import { Term } from "../glossary/Term.tsx";
import { ArrivalsNote, isHeadlineCluster } from "../headline/ArrivalsNote.tsx";
import { metricRow } from "../metricRows.ts";
import { McBand } from "./McBand.tsx";
import { McControls } from "./McControls.tsx";

/** The metrics every policy's card shows under its ETTR; the card adds the policy's own cardMetric. */
const CARD_METRICS: readonly SummarizedMetric[] = ["failures", "stallSecondsPerFailure", "lostWorkSeconds"];

function PolicyCard({
  policy,
  first,
  run,
}: {
  policy: Policy;
  /** The first card carries the glossary link for p5 – p95. */
  first: boolean;
  run: PolicyMetrics | null;
}) {
  const seed = useAppStore((s) => s.scenario.seed);
  const key = policy.key;
  return (
    <article className={`policy-card policy-${key}`} aria-label={`${policy.label} results`}>
      <h3>{policy.label}</h3>
      <p className="muted policy-blurb">{policy.blurb}</p>
      <div className="ettr">
        <span className="ettr-value" data-testid={`ettr-${key}`}>
          {run ? pct(run.ettr) : "…"}
        </span>
        <span className="ettr-label">
          ETTR <span className="muted">(effective training time, seed {seed})</span>
        </span>
      </div>
      <dl className="metrics">
        {/* The streaming Monte Carlo band, its 95 % interval and the baseline's difference. */}
        <McBand policy={key} first={first} />
        {[...CARD_METRICS, policy.cardMetric].map((metric) => {
          const r = metricRow(metric);
          return (
            <Fragment key={metric}>
              <dt>{r.label}</dt>
              <dd>{run ? r.fmt(run[metric]) : "…"}</dd>
            </Fragment>
          );
        })}
      </dl>
    </article>
  );
}

/** A closed form: its value and what it is, or "—" and why it does not apply here. */
function ClosedFormCell({ v, testId }: { v: ClosedFormValue; testId: string }) {
  return (
    <td data-testid={testId} data-applies={v.value !== null}>
      {v.value === null ? <span className="muted">—</span> : pct(v.value)}
      <span className="muted small cf-note"> {v.note}</span>
    </td>
  );
}

/** A row of the card: a formula, what it assumes, and its value (or "—" and why) per policy. */
function ClosedFormRow({
  name,
  formula,
  assumes,
  id,
  synchronous,
  ftHsdp,
}: {
  name: string;
  formula: string;
  assumes: string;
  id: string;
  synchronous: ClosedFormValue;
  ftHsdp: ClosedFormValue | null;
}) {
  const applies = synchronous.value !== null || (ftHsdp !== null && ftHsdp.value !== null);
  return (
    <tr className={applies ? "applies" : undefined}>
      <th scope="row">
        {name} <span className="muted">{formula}</span>
        <span className="muted small cf-assumes">Assumes {assumes}.</span>
      </th>
      <ClosedFormCell v={synchronous} testId={`cf-${id}-synchronous`} />
      {ftHsdp ? <ClosedFormCell v={ftHsdp} testId={`cf-${id}-ftHsdp`} /> : <td className="muted">—</td>}
    </tr>
  );
}

/**
 * Replicas struck per failure: what placement changes. Striped and packed racks can give the same
 * stall and degraded time per failure, but not the same blast radius, so the cards show it.
 */
function StruckLine() {
  const run = useAppStore((s) => s.run);
  const trace = run?.trace;
  if (!run || !trace || !run.scenario.failures.causes.some((c) => c.scope === "rack")) return null;
  const struck = trace.failures.replicaCount;
  let sum = 0;
  let max = 0;
  let n = 0;
  for (let i = 0; i < struck.length; i++) {
    // A job-scope failure strikes the whole job, no replica in particular: not in this average.
    if (trace.failures.replica[i]! < 0) continue;
    sum += struck[i]!;
    max = Math.max(max, struck[i]!);
    n++;
  }
  return (
    <p className="muted" data-testid="struck-per-failure">
      FT-HSDP replicas struck per failure ({run.scenario.cluster.placement} placement):{" "}
      <strong>{n > 0 ? count(sum / n, 2) : "—"}</strong> on average, at most <strong>{count(max)}</strong>.
    </p>
  );
}

function ClosedFormsCard() {
  const run = useAppStore((s) => s.run);
  if (!run) return null;
  const cf = run.closedForm;
  return (
    <article className="closed-forms" aria-label="Closed forms">
      <h3>Closed forms, as cross-checks</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Formula</th>
            <th scope="col">Synchronous</th>
            <th scope="col">FT-HSDP</th>
          </tr>
        </thead>
        <tbody>
          <ClosedFormRow
            id="fixed"
            name="Fixed arrivals"
            formula="(τ − D)/τ, k·C/τ with checkpoints · (τ − S − T/R)/τ"
            assumes="a failure exactly every τ = 1/λ, recoveries shorter than τ, unlimited spares; FT-HSDP: one replica per failure, no job-scope causes, no FT-HSDP checkpoints"
            synchronous={cf.fixedArrivals.synchronous}
            ftHsdp={cf.fixedArrivals.ftHsdp}
          />
          <ClosedFormRow
            id="poisson"
            name="Poisson, no rollback"
            formula="E[e^(−λD)]"
            assumes="Poisson arrivals, unlimited spares, no checkpoint interval (nothing rolls back)"
            synchronous={cf.poissonNoRollback}
            ftHsdp={null}
          />
          <ClosedFormRow
            id="v2"
            name="Poisson, renewal · first order"
            formula="E[e^(−λD)]·λC/(e^(λ(C+W))−1) · e^(−λ·E[S])·(1 − λT/R)·C/(C+W)"
            assumes="Poisson arrivals, unlimited spares; FT-HSDP: one replica per failure, no job-scope causes, λ(S+T) ≪ 1"
            synchronous={cf.syncRenewal}
            ftHsdp={cf.ftFirstOrder}
          />
          <ClosedFormRow
            id="meta"
            name="Meta first-order"
            formula="(1 − λ(u₀ + Δt/2)) / (1 + w/Δt)"
            assumes="Poisson arrivals, unlimited spares, a checkpoint interval, λ(C+W) ≪ 1"
            synchronous={cf.metaApproximation}
            ftHsdp={null}
          />
        </tbody>
      </table>
      <p className="muted">
        τ = 1/λ is the mean time between failures, D a synchronous recovery (detect + restart), S
        FT-HSDP&apos;s global stall and T a replica&apos;s down time per failure, C and W the checkpoint
        interval and write. A row shows a number only where its assumptions hold for this scenario.
      </p>
    </article>
  );
}

/** Beside the paper's cluster: why its numbers are not the paper's 44 → 80 %, and the other arrivals in one click. */
function HeadlineNote() {
  const scenario = useAppStore((s) => s.scenario);
  if (!isHeadlineCluster(scenario)) return null;
  return (
    <ArrivalsNote
      arrivals={scenario.failures.arrivals}
      onSwitch={(arrivals) => {
        const preset = presetById(arrivals === "fixed" ? "headline-fixed" : "headline-poisson");
        appStore.getState().setScenario(parseScenario({ ...preset?.scenario, seed: scenario.seed }));
      }}
    />
  );
}

function GainLine() {
  const run = useAppStore((s) => s.run);
  const scenario = useAppStore((s) => s.scenario);
  if (!run) return null;
  const gain = run.ftHsdp.ettr - run.synchronous.ettr;
  const gpuDays = gain * scenario.cluster.gpus * scenario.training.days;
  const { mtbfSeconds } = derived(scenario);
  return (
    <p className="gain" data-testid="gain">
      Over {count(scenario.training.days, 1)} days on {count(scenario.cluster.gpus)} GPUs with a failure every{" "}
      {duration(mtbfSeconds)} on average, FT-HSDP {gain >= 0 ? "gains" : "loses"}{" "}
      <strong>{(Math.abs(gain) * 100).toFixed(1)} points</strong> of ETTR: {count(Math.abs(gpuDays))} GPU-days
      of training.
    </p>
  );
}

export function ResultsPanel() {
  const run = useAppStore((s) => s.run);
  const runError = useAppStore((s) => s.runError);
  const running = useAppStore((s) => s.running);
  return (
    <section className="panel results" aria-label="Results" aria-busy={running}>
      <div className="results-head">
        <h2>
          Effective training time (<Term id="ettr" />)
        </h2>
        {running ? <span className="muted">updating…</span> : null}
      </div>
      {runError ? (
        <p className="error-text" role="alert">
          The simulation failed: {runError}.{" "}
          {run ? "The numbers below are stale: they belong to an earlier scenario." : null}
        </p>
      ) : null}
      <GainLine />
      <HeadlineNote />
      <McControls />
      {/* Numbers that no longer match the knobs are dimmed and marked, never shown as current. */}
      <div
        className={runError ? "policy-cards stale" : "policy-cards"}
        data-stale={runError ? true : undefined}
      >
        {POLICIES.map((p, i) => (
          <PolicyCard key={p.key} policy={p} first={i === 0} run={run?.[p.key] ?? null} />
        ))}
      </div>
      <StruckLine />
      <ClosedFormsCard />
    </section>
  );
}
