/**
 * What `npm run trace` prints and the Trace panel shows, from the same figures: the verdict
 * sentence, the per-rank JSON, and the text table.
 */
import type { Link } from "../collectiveCost.ts";
import { DEFAULT_STEP_CONFIG } from "../presetCatalog.ts";
import { type FitResult, fitLink, fittedLink } from "./linkFit.ts";
import type { RankFigures } from "./measure.ts";
import { type BesideResult, modelBeside } from "./modelBeside.ts";
import type { TraceSet } from "./ranks.ts";

const pct = (x: number) => `${Math.round(x)} %`;
const msText = (x: number) =>
  x >= 10 ? `${x.toFixed(0)} ms` : x >= 1 ? `${x.toFixed(1)} ms` : `${x.toFixed(2)} ms`;

/** One sentence: how much communication is hidden on each rank, and where it is exposed most. */
export function verdict(set: TraceSet): string {
  const withComm = set.ranks.filter((r) => r.overlapPct !== null);
  if (withComm.length === 0) return "No communication in these traces: there is nothing to hide.";
  const what = withComm.every((r) => r.mode === "cpu") ? "communication (gloo, on the CPU)" : "communication";
  const parts = withComm.map(
    (r, i) => `${pct(r.overlapPct as number)}${i === 0 ? " hidden" : ""} on rank ${r.rank}`,
  );
  let worst: { rank: number; step: string; ms: number } | null = null;
  for (const r of withComm) {
    for (const s of r.steps)
      if (worst === null || s.exposedCommMs > worst.ms)
        worst = { rank: r.rank, step: s.name, ms: s.exposedCommMs };
  }
  const head = `${what[0]?.toUpperCase()}${what.slice(1)} is ${parts.join(", ")}`;
  if (worst === null || worst.ms <= 0) return `${head}; no step exposes any.`;
  return `${head}; ${worst.step} exposes ${msText(worst.ms)} of it on rank ${worst.rank}.`;
}

/** The world size the figures speak for: distributedInfo's, else the number of ranks opened. */
export function worldSizeOf(set: TraceSet): number {
  return set.ranks.find((r) => r.worldSize !== null)?.worldSize ?? set.ranks.length;
}

export interface ModelReport {
  fit: FitResult;
  link: Link;
  linkSource: "fit" | "preset";
  steps: BesideResult[];
}

/** The fit over every rank, and the model beside each kept step of the first rank. */
export function modelReport(set: TraceSet, base: Link = DEFAULT_STEP_CONFIG.parallel.interLink): ModelReport {
  const n = worldSizeOf(set);
  const fit = fitLink(set.ranks, n);
  const link = fit.ok ? fittedLink(fit.fit, base) : base;
  const first = set.ranks[0];
  const steps =
    first === undefined ? [] : first.steps.map((_, i) => modelBeside(first, i, DEFAULT_STEP_CONFIG, link, n));
  return { fit, link, linkSource: fit.ok ? "fit" : "preset", steps };
}

function rankJson(r: RankFigures) {
  return {
    rank: r.rank,
    worldSize: r.worldSize,
    device: r.device,
    file: r.file,
    mode: r.mode,
    steps: r.steps.map((s) => ({
      name: s.name,
      ms: s.ms,
      commMs: s.commMs,
      overlapPct: s.overlapPct,
      exposedCommMs: s.exposedCommMs,
    })),
    commMs: r.commMs,
    overlapPct: r.overlapPct,
    temporal: r.temporal,
    kernelTypes: r.kernelTypes,
    notes: r.notes,
  };
}

export function traceJson(set: TraceSet) {
  const m = modelReport(set);
  return {
    verdict: verdict(set),
    ranks: set.ranks.map(rankJson),
    crossRank: { lateStart: set.lateStart, warnings: set.warnings },
    model: {
      fit: m.fit.ok
        ? {
            ...m.fit.fit,
            residuals: m.fit.fit.residuals.map((r) => ({ ...r, residualMs: r.measuredMs - r.fittedMs })),
          }
        : { error: m.fit.why },
      link: { alpha: m.link.alpha, bandwidth: m.link.bandwidth, source: m.linkSource },
      steps: m.steps.map((s) =>
        s.ok
          ? {
              step: s.beside.step,
              measuredMs: s.beside.measured.stepMs,
              predictedMs: s.beside.predicted.stepMs,
              measuredOverlapPct: s.beside.measured.overlapPct,
              predictedOverlapPct: s.beside.predicted.overlapPct,
            }
          : { error: s.why },
      ),
    },
  };
}

const f2 = (x: number | null) => (x === null ? "—" : x.toFixed(2));

export function traceReport(set: TraceSet): string {
  const lines = [verdict(set)];
  for (const r of set.ranks) {
    lines.push(
      `rank ${r.rank} (${r.file}, ${r.device}, world size ${r.worldSize ?? "unknown"}): communication ${f2(r.commMs)} ms, overlap ${f2(r.overlapPct)} %`,
    );
    for (const s of r.steps) {
      lines.push(
        `  ${s.name.padEnd(18)} ${f2(s.ms).padStart(10)} ms  comm ${f2(s.commMs).padStart(9)} ms  overlap ${f2(s.overlapPct).padStart(6)} %  exposed ${f2(s.exposedCommMs)} ms`,
      );
    }
    if (r.temporal !== null) {
      const t = r.temporal;
      lines.push(
        `  temporal: idle ${t.idlePct} %, compute ${t.computePct} %, non-compute ${t.nonComputePct} % of ${f2(t.kernelMs)} ms`,
      );
    }
    lines.push(
      `  kernel types: ${Object.entries(r.kernelTypes)
        .map(([k, v]) => `${k} ${v.pct} %`)
        .join(", ")}`,
    );
    for (const n of r.notes) lines.push(`  note: ${n}`);
  }
  for (const l of set.lateStart)
    lines.push(
      `late start, rank ${l.rank}: mean ${f2(l.meanMs)} ms, max ${f2(l.maxMs)} ms over ${l.calls} collectives`,
    );
  for (const w of set.warnings) lines.push(`warning: ${w}`);
  const m = modelReport(set);
  if (m.fit.ok) {
    const f = m.fit.fit;
    lines.push(
      `all-reduce fit over ${f.calls} calls: t = ${f.interceptMs.toFixed(4)} ms + S / ${(1 / f.msPerByte / 1e6).toFixed(3)} GB/s (α ${(f.alpha * 1e6).toFixed(2)} µs, B ${(f.bandwidth / 1e9).toFixed(3)} GB/s; R² ${f.r2.toFixed(4)}, rms residual ${f.rmsMs.toFixed(4)} ms)`,
    );
  } else lines.push(`all-reduce fit: ${m.fit.why}`);
  for (const s of m.steps) {
    if (!s.ok) continue;
    const b = s.beside;
    lines.push(
      `model (${m.linkSource === "fit" ? "fitted link" : "preset link"}) on ${b.step}: step ${f2(b.predicted.stepMs)} ms vs ${f2(b.measured.stepMs)} ms measured; overlap ${f2(b.predicted.overlapPct)} % vs ${f2(b.measured.overlapPct)} %`,
    );
  }
  return lines.join("\n");
}
