import { beforeAll, describe, expect, it } from "vitest";
import { outerSyncSeconds } from "../step/outerSync.ts";
import { V3_POLICIES } from "../testing/scenario.arbitrary.ts";
import { runScenario } from "./engine.ts";
import { seedOf } from "./monteCarlo/mcSummary.ts";
import { ACROSS_SITES, acrossSitesSyncSeconds, PRESETS, presetById } from "./presets.ts";
import { derived, parseScenario, type Scenario } from "./scenario/index.ts";
import { buildSweep } from "./sweep/index.ts";

describe("presets", () => {
  it("all parse as valid scenarios and cite a source", () => {
    for (const p of PRESETS) {
      expect(() => parseScenario(p.scenario), p.id).not.toThrow();
      expect(p.source.length, p.id).toBeGreaterThan(40);
      expect(p.title.length, p.id).toBeGreaterThan(0);
    }
  });

  it("have distinct ids and scenario names (a loaded preset is recognisable by its name)", () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
    expect(new Set(PRESETS.map((p) => p.scenario.name)).size).toBe(PRESETS.length);
  });

  it("the headline presets fail every 18 minutes, with fixed and with Poisson arrivals", () => {
    const fixed = parseScenario(presetById("headline-fixed")?.scenario);
    const poisson = parseScenario(presetById("headline-poisson")?.scenario);
    expect(fixed.failures.arrivals).toBe("fixed");
    expect(poisson.failures.arrivals).toBe("poisson");
    for (const s of [fixed, poisson]) {
      expect(derived(s).mtbfSeconds / 60).toBeCloseTo(18, 1);
      expect(s.cluster.gpus).toBe(98_304);
    }
  });

  it("Llama 3 405B reproduces 419 unexpected interruptions over 54 days on 2,048 hosts", () => {
    const s = parseScenario(presetById("llama3-405b")?.scenario);
    expect(derived(s).hosts).toBe(2048);
    expect(derived(s).expectedFailures).toBeGreaterThan(410);
    expect(derived(s).expectedFailures).toBeLessThan(430);
  });

  it("the teaching cluster is 64 GPUs in 4 replicas with a dozen or so failures", () => {
    const s = parseScenario(presetById("teaching")?.scenario);
    expect(s.cluster.gpus).toBe(64);
    expect(s.cluster.replicas).toBe(4);
    expect(derived(s).expectedFailures).toBeGreaterThan(5);
    expect(derived(s).expectedFailures).toBeLessThan(30);
  });

  it("the hang pair differs only in hang detection time", () => {
    const fast = parseScenario(presetById("hang-c4")?.scenario);
    const slow = parseScenario(presetById("hang-watchdog")?.scenario);
    expect(fast.failures.hangFraction).toBeGreaterThan(0);
    expect({ ...fast, name: "", detection: null }).toEqual({ ...slow, name: "", detection: null });
    expect(fast.detection.hangSeconds).toBe(30);
    expect(slow.detection.hangSeconds).toBe(600);
  });
});

describe("the strategy presets", () => {
  const withCheckpoints = (id: string) => parseScenario(presetById(id)?.scenario);

  it("headline with job failures gives both policies the same checkpoint cadence", () => {
    const s = withCheckpoints("headline-job-failures");
    expect(s.sync.checkpointMinutes).toBeGreaterThan(0);
    expect(s.ft.checkpointMinutes).toBe(s.sync.checkpointMinutes);
    expect(s.ft.checkpointWriteSeconds).toBe(s.sync.checkpointWriteSeconds);
  });

  it("run all four strategies, every storage checkpoint on one cadence, and say so in their notes", () => {
    for (const id of ["four-strategies", "llama3-strategies"]) {
      const s = withCheckpoints(id);
      expect(s.policies, id).toEqual([...V3_POLICIES]);
      expect(s.ft.checkpointMinutes, id).toBe(s.sync.checkpointMinutes);
      expect(s.ft.checkpointWriteSeconds, id).toBe(s.sync.checkpointWriteSeconds);
      // In-memory's persistent copy: every persistEvery-th in-memory checkpoint.
      expect(s.inMemory.checkpointMinutes * s.inMemory.persistEvery, id).toBe(s.sync.checkpointMinutes);
      const note = presetById(id)?.description ?? "";
      expect(note, id).toMatch(/Assumptions: .*same failures/);
      expect(note, id).toContain(
        `every ${s.sync.checkpointMinutes} min with a ${s.sync.checkpointWriteSeconds} s`,
      );
      expect(note, id).toContain(`${s.hotSpare.standbys} standby hosts`);
      expect(note, id).toContain(`migration ${s.hotSpare.migrateSeconds} s`);
      expect(note, id).toContain(`refilled ${s.hotSpare.refillMinutes} min`);
      expect(note, id).toContain(`restart takes ${s.inMemory.restartSeconds / 60} min`);
      expect(s.ft.stepOverheadPercent, id).toBe(0);
    }
  });

  it("Llama 3's strategies preset is the Llama 3 cause mix, strategies aside", () => {
    const a = withCheckpoints("llama3-strategies");
    const b = withCheckpoints("llama3-405b-causes");
    expect(a.failures).toEqual(b.failures);
    expect(a.cluster).toEqual(b.cluster);
    expect(a.training).toEqual(b.training);
  });

  it("four strategies: what its note says happens, happens on its first seed", () => {
    const s = withCheckpoints("four-strategies");
    const run = runScenario(s);
    const hot = run.hotSpare;
    expect(hot).toBeDefined();
    // "2 standbys often both refilling, so hot spares fall back to a full restart".
    expect(hot!.jobRestarts).toBeGreaterThan(run.synchronous!.failures / 10);
    // "the 30-minute checkpoints cost the synchronous job much of its time in rollbacks".
    expect(run.synchronous!.badput.rolledBack).toBeGreaterThan(0.2);
  });

  it("Greyhound's slow hosts alone make the job about 1.34× slower (§6's closed form, no failures)", () => {
    const s = parseScenario({ ...presetById("slow-greyhound")?.scenario, failures: { perHostDay: 0 } });
    const f = runScenario(s).closedForm.policies?.synchronous;
    expect(f?.note).toMatch(/exact in the long run/);
    expect(1 / (f?.value ?? 0)).toBeGreaterThan(1.3);
    expect(1 / (f?.value ?? 0)).toBeLessThan(1.38);
  });
});

describe("slow hosts, few replicas: when to evict", () => {
  const preset = presetById("slow-evict-when");
  const base = parseScenario(preset?.scenario);
  const AXIS = "slow.evictAfterMinutes";
  const SEEDS = 60;
  const points = buildSweep(base, AXIS, 6);
  /** ETTR of each policy, per point, per seed: the same seeds at every point, as the page runs them. */
  const ettrs = (s: Scenario) => {
    const out = { synchronous: [] as number[], ftHsdp: [] as number[] };
    for (let i = 0; i < SEEDS; i++) {
      const run = runScenario(s, { seed: seedOf(s, i) });
      out.synchronous.push(run.synchronous!.ettr);
      out.ftHsdp.push(run.ftHsdp?.ettr ?? Number.NaN);
    }
    return out;
  };
  let runs: ReturnType<typeof ettrs>[] = [];
  let never: ReturnType<typeof ettrs>;
  beforeAll(() => {
    runs = points.map((p) => ettrs(p.scenario));
    never = ettrs(base);
  });
  const mean = (a: readonly number[]) => a.reduce((x, y) => x + y, 0) / a.length;
  /** The mean of a − b and its standard error (paired by seed). */
  const diff = (a: readonly number[], b: readonly number[]) => {
    const d = a.map((x, i) => x - (b[i] as number));
    const m = mean(d);
    const sd = Math.sqrt(d.reduce((x, y) => x + (y - m) ** 2, 0) / (d.length - 1));
    return { mean: m, se: sd / Math.sqrt(d.length) };
  };
  const se = (a: readonly number[]) => {
    const m = mean(a);
    return Math.sqrt(a.reduce((x, y) => x + (y - m) ** 2, 0) / (a.length - 1) / a.length);
  };
  const best = (p: "synchronous" | "ftHsdp") => {
    const means = runs.map((r) => mean(r[p]));
    return means.indexOf(Math.max(...means));
  };

  it("sweeps evict-after from 1 min to 2 h, never evicting as loaded", () => {
    expect(base.slow.evictAfterMinutes).toBe(0);
    expect(points.map((p) => p.x)).toEqual([1, 2.605, 6.787, 17.68, 46.06, 120]);
  });

  it("FT-HSDP's ETTR peaks at an interior delay, above both ends beyond the Monte Carlo errors", () => {
    const b = best("ftHsdp");
    expect(b).toBeGreaterThan(0);
    expect(b).toBeLessThan(points.length - 1);
    const top = runs[b]?.ftHsdp ?? [];
    for (const end of [runs[0]?.ftHsdp ?? [], runs.at(-1)?.ftHsdp ?? []]) {
      // Paired by seed (what the curve's shape rests on), and unpaired (the page's separate means).
      const d = diff(top, end);
      expect(d.mean).toBeGreaterThan(5 * d.se);
      expect(d.mean).toBeGreaterThan(5 * Math.hypot(se(top), se(end)));
      // Points of ETTR, not a hair: a margin a person sees on the chart.
      expect(d.mean).toBeGreaterThan(0.01);
    }
    // "near 20 min".
    expect(points[b]?.x).toBeGreaterThan(10);
    expect(points[b]?.x).toBeLessThan(40);
  });

  it("what the description says: never evicting is below every delay for FT-HSDP; sync peaks later", () => {
    for (const r of runs) {
      const d = diff(r.ftHsdp, never.ftHsdp);
      expect(d.mean).toBeGreaterThan(3 * d.se);
    }
    const b = best("synchronous");
    expect(b).toBeGreaterThan(best("ftHsdp"));
    expect(b).toBeLessThan(points.length - 1);
  });

  it("the episodes its description states: about 48 a day, mean 74 min, 1 in 10 past 2.2 h, 1.27× slower", () => {
    const { hosts } = derived(base);
    expect(hosts).toBe(2048);
    expect(hosts * base.slow.perHostDay).toBeCloseTo(48, 0);
    const { medianMinutes: m, sigma } = base.slow;
    expect(m * Math.exp(sigma ** 2 / 2)).toBeCloseTo(74, 0);
    expect((m * Math.exp(sigma * 1.2816)) / 60).toBeCloseTo(2.2, 1);
    const alone = parseScenario({ ...preset?.scenario, failures: { perHostDay: 0 } });
    const f = runScenario(alone).closedForm.policies?.synchronous;
    expect(f?.note).toMatch(/exact in the long run/);
    expect(1 / (f?.value ?? 0)).toBeCloseTo(1.27, 2);
    // Evicting costs FT-HSDP a quarter of the job for 20 min and a 2-minute rejoin stall.
    expect(base.cluster.replicas).toBe(4);
    expect(base.ft.replicaRestartSeconds).toBe(1200);
    expect(base.ft.rejoinSeconds).toBe(120);
    expect(base.sync.restartSeconds).toBe(540);
  });
});

describe("the DiLoCo presets", () => {
  /** Mean ETTR per policy over seeds 1..n (independent runs, as the Monte Carlo's). */
  function meanEttr(s: Scenario, n: number): Record<string, number> {
    const out: Record<string, number> = {};
    for (let k = 0; k < n; k++) {
      const r = runScenario(s, { seed: seedOf(s, k) });
      for (const key of s.policies) out[key] = (out[key] ?? 0) + (r[key]?.ettr ?? 0) / n;
    }
    return out;
  }

  it("four sites: the sync the description states is One step's outer-sync formula on the stated link", () => {
    const s = parseScenario(presetById("diloco-four-sites")?.scenario);
    const T = outerSyncSeconds(ACROSS_SITES.bytes, ACROSS_SITES.sites, {
      bandwidth: ACROSS_SITES.bandwidthBytesPerSecond,
      alpha: ACROSS_SITES.alphaSeconds,
    });
    expect(s.diloco.syncSeconds).toBeCloseTo(T, 2);
    expect(acrossSitesSyncSeconds()).toBeCloseTo(T, 9);
    expect(s.cluster.replicas).toBe(4);
    // FT-HSDP's step pays what of T the backward pass does not hide.
    expect(s.ft.stepOverheadPercent).toBeCloseTo((100 * (T - (2 / 3) * 6)) / 6, 1);
    const p = presetById("diloco-four-sites");
    expect(p?.description).toContain(`${T.toFixed(2)} s`);
    expect(p?.description).toContain(`${s.ft.stepOverheadPercent} % slower`);
  });

  it("four sites: DiLoCo keeps far more of the time than FT-HSDP paying the link every step", () => {
    const m = meanEttr(parseScenario(presetById("diloco-four-sites")?.scenario), 4);
    expect(m.diloco).toBeGreaterThan((m.ftHsdp ?? 0) + 0.3);
  });

  it("failures every few minutes: about every 3 min; synchronous < FT-HSDP < DiLoCo", () => {
    const s = parseScenario(presetById("diloco-failures-minutes")?.scenario);
    expect(s.cluster.gpus).toBe(98_304);
    expect(derived(s).mtbfSeconds / 60).toBeGreaterThan(2.5);
    expect(derived(s).mtbfSeconds / 60).toBeLessThan(3.5);
    const m = meanEttr(s, 4);
    expect(m.synchronous).toBeLessThan(0.1);
    expect(m.ftHsdp).toBeGreaterThan((m.synchronous ?? 0) + 0.1);
    expect(m.diloco).toBeGreaterThan((m.ftHsdp ?? 0) + 0.1);
  });
});
