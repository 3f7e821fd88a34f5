/**
 * The headline: ETTR of every policy the scenario selects (its `policies`, in its order) on the
 * same failures, the Monte Carlo band around them, where the lost time goes, and the closed forms
 * beside them as cross-checks.
 */

import { Fragment, useMemo } from "react";
import { LONG_RUN_MIN_FAILURES, META_MAX_LOAD } from "../../sim/closedForms/closedForms.ts";
import { replayFailureCounts } from "../../sim/failures/replayLog.ts";
import { type Policy, policyOf, selectedPolicies } from "../../sim/policies/index.ts";
import type { PolicyKey } from "../../sim/policies/policyKeys.ts";
import { presetById } from "../../sim/presets.ts";
import { replayIsOneRun } from "../../sim/scenario/derived.ts";
import { derived, parseScenario } from "../../sim/scenario/index.ts";
import type { ClosedFormValue, PolicyMetrics, SummarizedMetric } from "../../sim/types.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { Panel } from "../boundary/Panel.tsx";
import { count, duration, pct } from "../format.ts";
import { Term } from "../glossary/Term.tsx";
import { ArrivalsNote, isHeadlineCluster } from "../headline/ArrivalsNote.tsx";
import { metricRow } from "../metricRows.ts";
import { policyStyle } from "../policyColour.ts";
import { useShownRun } from "../useShownRun.ts";
import { BadputPanel } from "./BadputPanel.tsx";
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
  const oneRun = useAppStore((s) => replayIsOneRun(s.scenario));
  const replayCounts = useReplayCounts();
  const key = policy.key;
  return (
    <article className="policy-card" style={policyStyle(key)} aria-label={`${policy.label} results`}>
      <h3>{policy.label}</h3>
      <p className="muted policy-blurb">{policy.blurb}</p>
      <div className="ettr">
        <span className="ettr-value" data-testid={`ettr-${key}`}>
          {run ? pct(run.ettr) : "…"}
        </span>
        <span className="ettr-label">
          ETTR{" "}
          <span className="muted">
            (effective training time, {oneRun ? "replay of a log" : `seed ${seed}`})
          </span>
        </span>
      </div>
      <dl className="metrics">
        {/* The streaming Monte Carlo band, its 95 % interval and the baseline's difference. */}
        {oneRun ? (
          <>
            <dt>Replay of a log</dt>
            <dd data-testid={`ettr-replay-${key}`}>
              one value, no band: every seed meets the log's failures, so every run is this one
            </dd>
          </>
        ) : (
          <McBand policy={key} first={first} />
        )}
        {(CARD_METRICS.includes(policy.cardMetric) ? CARD_METRICS : [...CARD_METRICS, policy.cardMetric]).map(
          (metric) => {
            const r = metricRow(metric);
            return (
              <Fragment key={metric}>
                <dt>{r.label}</dt>
                <dd>
                  <span data-testid={`card-${metric}-${key}`}>{run ? r.fmt(run[metric]) : "…"}</span>
                  {metric === "failures" && run && replayCounts && replayCounts.split > 0 ? (
                    // Said where the number is: why a replay counts more failures than its log has events.
                    <span className="muted small card-note" data-testid={`failures-note-${key}`}>
                      from the log's {count(replayCounts.events)} events: {count(replayCounts.split)} struck
                      hosts not side by side, one failure per run of adjacent hosts
                    </span>
                  ) : null}
                </dd>
              </Fragment>
            );
          },
        )}
      </dl>
    </article>
  );
}

/** How the replay on screen counts its log's events as failures (null when it is no replay). */
function useReplayCounts() {
  const run = useShownRun();
  return useMemo(() => (run ? replayFailureCounts(run.scenario) : null), [run]);
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

/** A row of the card: a formula, what it assumes, and its value (or "—" and why) per selected policy. */
function ClosedFormRow({
  name,
  formula,
  assumes,
  id,
  policies,
  value,
  writtenFor,
}: {
  name: string;
  formula: string;
  assumes: string;
  id: string;
  policies: readonly Policy[];
  /** The row's form for one policy ("—" with the reason where the row's form is not that policy's). */
  value: (key: PolicyKey) => ClosedFormValue;
  /** The strategies the row's form is written for; a row none of the shown strategies has is left out. */
  writtenFor?: readonly PolicyKey[];
}) {
  if (writtenFor && !policies.some((p) => writtenFor.includes(p.key))) return null;
  const values = policies.map((p) => value(p.key));
  const applies = values.some((v) => v.value !== null);
  return (
    <tr className={applies ? "applies" : undefined}>
      <th scope="row">
        {name} <span className="muted">{formula}</span>
        <span className="muted small cf-assumes">Assumes {assumes}.</span>
      </th>
      {policies.map((p, i) => (
        <ClosedFormCell key={p.key} v={values[i]!} testId={`cf-${id}-${p.key}`} />
      ))}
    </tr>
  );
}

/** Each strategy's own Poisson form, written only for the strategies shown. */
/** "—" with why: the row's form is another strategy's (or none is written for this one). */
const noForm = (note: string): ClosedFormValue => ({ value: null, note });

/**
 * Replicas struck per failure: what placement changes. Striped and packed racks can give the same
 * stall and degraded time per failure, but not the same blast radius, so the cards show it.
 */
function StruckLine() {
  const run = useShownRun();
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

/**
 * A replay's "Failures" against its log's events: an event whose hosts are not side by side
 * counts as one failure per run of adjacent hosts (the time lost is the same; docs/model.md,
 * "Replaying a log"), so the cards may count more failures than the fit has events.
 */
function ReplayCountLine() {
  const run = useShownRun();
  const counts = run ? replayFailureCounts(run.scenario) : null;
  const first = run ? selectedPolicies(run.scenario)[0] : undefined;
  const shown = first && run?.[first.key]?.failures;
  if (!counts || counts.split === 0 || shown === undefined) return null;
  return (
    <p className="muted" data-testid="replay-failure-count">
      Failures {count(shown)} on the cards: the log's {count(counts.events)} events, of which{" "}
      {count(counts.split)} struck hosts that are not side by side, and each run of adjacent hosts counts as a
      failure of its own ({count(counts.failures)} in all). The time lost is the same as if each event were
      one failure; only the count differs.
    </p>
  );
}

function ClosedFormsCard() {
  const run = useShownRun();
  if (!run) return null;
  const cf = run.closedForm;
  // The columns are the run's own policies: its closed forms were computed for them.
  const policies = selectedPolicies(run.scenario);
  /** §3/§4: each policy's own Poisson form, as the engine set it (policyForms.ts). */
  const own = (key: PolicyKey): ClosedFormValue =>
    cf.policies?.[key] ??
    (key === "synchronous"
      ? cf.syncRenewal
      : key === "ftHsdp"
        ? cf.ftFirstOrder
        : noForm("no closed form computed"));
  const fixed = (key: PolicyKey): ClosedFormValue =>
    key === "synchronous" || key === "ftHsdp"
      ? cf.fixedArrivals[key]
      : noForm("no fixed-arrival form is written for this strategy");
  const syncOnly =
    (v: ClosedFormValue) =>
    (key: PolicyKey): ClosedFormValue =>
      key === "synchronous" ? v : noForm("the synchronous job's form");
  return (
    <article className="closed-forms scroll-x" aria-label="Closed forms">
      <h3>Closed forms, as cross-checks</h3>
      <table>
        <thead>
          <tr>
            <th scope="col">Formula</th>
            {policies.map((p) => (
              <th key={p.key} scope="col">
                {p.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <ClosedFormRow
            id="fixed"
            name="Fixed arrivals"
            formula="(τ − D)/τ, k·C/τ with checkpoints · (τ − S − T/R)/τ"
            assumes="a failure exactly every τ = 1/λ, recoveries shorter than τ, unlimited spares; FT-HSDP: one replica per failure, no job-scope causes, no FT-HSDP checkpoints"
            policies={policies}
            value={fixed}
            writtenFor={["synchronous", "ftHsdp"]}
          />
          <ClosedFormRow
            id="poisson"
            name="Poisson, no rollback"
            formula="E[e^(−λD)]"
            assumes="Poisson arrivals, unlimited spares, no checkpoint interval (nothing rolls back)"
            policies={policies}
            value={syncOnly(cf.poissonNoRollback)}
            writtenFor={["synchronous"]}
          />
          <ClosedFormRow
            id="v2"
            name="Poisson, each strategy's own form"
            formula={policies.map((p) => `${p.shortLabel}: ${p.formText.formula}`).join(" · ")}
            assumes={[
              "Poisson arrivals, unlimited spares",
              ...policies.map((p) => (p.formText.assumes ? `${p.shortLabel}: ${p.formText.assumes}` : "")),
            ]
              .filter((a) => a !== "")
              .join("; ")}
            policies={policies}
            value={own}
          />
          <ClosedFormRow
            id="meta"
            name="Meta first-order"
            formula="(1 − λ(u₀ + Δt/2)) / (1 + w/Δt)"
            assumes={`Poisson arrivals, unlimited spares, a checkpoint interval, λ(u₀ + C + W) ≤ ${META_MAX_LOAD}`}
            policies={policies}
            value={syncOnly(cf.metaApproximation)}
            writtenFor={["synchronous"]}
          />
        </tbody>
      </table>
      <p className="muted">
        τ = 1/λ is the mean time between failures, D a recovery (detect + restart, or + migrate), S
        FT-HSDP&apos;s global stall and T a replica&apos;s down time per failure, C and W the checkpoint
        interval and write, o FT-HSDP&apos;s step overhead. Every form is a long-run rate: a run starts
        healthy, so a short one reads higher, and the forms show &ldquo;—&rdquo; below {LONG_RUN_MIN_FAILURES}{" "}
        expected failures in the horizon. A cell shows a number only where its row&apos;s assumptions hold for
        this scenario and that strategy.
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

/**
 * The headline sentence: each strategy shown against a reference (synchronous training when it is
 * shown, else the first), in points of ETTR and GPU-days. Nothing to compare with one strategy.
 */
function GainLine() {
  const run = useShownRun();
  const scenario = useAppStore((s) => s.scenario);
  if (!run) return null;
  const keys = selectedPolicies(run.scenario).map((p) => p.key);
  const ref = keys.includes("synchronous") ? "synchronous" : keys[0];
  const refRun = ref ? run[ref] : undefined;
  const others = keys.filter((k) => k !== ref && run[k]);
  if (!ref || !refRun || others.length === 0) return null;
  const { mtbfSeconds } = derived(scenario);
  return (
    <p className="gain" data-testid="gain">
      Over {count(scenario.training.days, 1)} days on {count(scenario.cluster.gpus)} GPUs with a failure every{" "}
      {duration(mtbfSeconds)} on average, against {policyOf(ref).label}:{" "}
      {others.map((k, i) => {
        const gain = (run[k]?.ettr ?? 0) - refRun.ettr;
        const gpuDays = gain * scenario.cluster.gpus * scenario.training.days;
        return (
          <Fragment key={k}>
            {i > 0 ? (i === others.length - 1 ? " and " : ", ") : ""}
            {policyOf(k).label} {gain >= 0 ? "gains" : "loses"}{" "}
            <strong>{(Math.abs(gain) * 100).toFixed(1)} points</strong> of ETTR ({count(Math.abs(gpuDays))}{" "}
            GPU-days of training)
          </Fragment>
        );
      })}
      .
    </p>
  );
}

export function ResultsPanel() {
  const scenario = useAppStore((s) => s.scenario);
  const run = useShownRun();
  const runError = useAppStore((s) => s.runError);
  const running = useAppStore((s) => s.running);
  return (
    <Panel what="The results" className="panel results" aria-label="Results" aria-busy={running}>
      <div className="results-head">
        <h2>
          Effective training time{" "}
          <span className="term-tail">
            (<Term id="ettr" />)
          </span>
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
        data-count={scenario.policies.length}
        data-stale={runError ? true : undefined}
      >
        {selectedPolicies(scenario).map((p, i) => (
          <PolicyCard key={p.key} policy={p} first={i === 0} run={run?.[p.key] ?? null} />
        ))}
      </div>
      <BadputPanel />
      <StruckLine />
      <ReplayCountLine />
      <ClosedFormsCard />
    </Panel>
  );
}
