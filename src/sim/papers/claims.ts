/**
 * The published figures the model is held against, one row each (the Papers view, `npm run
 * papers`). Each row's scenario states the source's assumptions; what we had to add is in
 * `assumptions`. Rows whose scenario was fitted to the very figure say so (`calibrated`): their
 * agreement is by construction, not a prediction. Figures quoted from a summary rather than the
 * source's text say "as quoted" or "reported".
 */
// The registry of policies: the words below read a preset's scenario completed by parseScenario.
import "../policies/index.ts";
import { LLAMA3_CAUSES, presetById } from "../presets.ts";
import { derived, parseScenario, type ScenarioInput } from "../scenario/index.ts";
import type { Claim, ClaimSource } from "./claimTypes.ts";

const FT_HSDP: ClaimSource = {
  title: 'Salpekar, Varma, Yu et al. (Meta), "Training LLMs with Fault Tolerant HSDP on 100,000 GPUs"',
  year: 2026,
  where: "arXiv 2602.00277, abstract",
};
const LLAMA3: ClaimSource = {
  title: 'Llama Team (Meta), "The Llama 3 Herd of Models"',
  year: 2024,
  where: "arXiv 2407.21783, §3.3.4 and Table 5",
};
const KOKOLIS: ClaimSource = {
  title: 'Kokolis et al. (Meta), "Revisiting Reliability in Large-Scale Machine Learning Research Clusters"',
  year: 2025,
  where: "HPCA 2025, arXiv 2410.21680 (the MTTF figures as quoted by Clockwork)",
};
const BYTEROBUST: ClaimSource = {
  title: 'ByteDance, "ByteRobust: Robust LLM Training Infrastructure at ByteDance"',
  year: 2025,
  where: "arXiv 2509.16293, abstract",
};
const AIRESIM: ClaimSource = {
  title: "AIReSim: a reliability simulator for AI training clusters",
  year: 2026,
  where: "arXiv 2603.07041, its config.yaml and findings",
};
const GREYHOUND: ClaimSource = {
  title: "Greyhound / FALCON (Alibaba): stragglers in large-scale training",
  year: 2025,
  where: "USENIX ATC '25, arXiv 2410.12588",
};

const DECOUPLED_DILOCO: ClaimSource = {
  title: 'Decoupled DiLoCo Team (Google DeepMind), "Decoupled DiLoCo for Resilient Distributed Pre-training"',
  year: 2026,
  where: "arXiv 2604.21428, as press summaries report it (not the paper's own table)",
};

/** The interval a figure printed to `step` allows (44 % to the nearest point: 43.5–44.5). */
function rounded(value: number, step: number, text: string): Claim["published"] {
  return { low: value - step / 2, high: value + step / 2, text };
}

const HEADLINE_FIXED: ScenarioInput = {
  name: "FT-HSDP headline, fixed arrivals",
  failures: { arrivals: "fixed" },
};
const HEADLINE_POISSON: ScenarioInput = { name: "FT-HSDP headline, Poisson arrivals" };
const HEADLINE_ASSUMES =
  "98,304 GPUs in 12 replicas and a failure every 18 min (reported in summaries of the paper); detection 60 s, job restart 540 s, replica restart 420 s, rejoin 120 s (so that the stalls are the abstract's 10 and 3 min); no checkpoint rollback; every failure breaks one host";

const LLAMA3_CLUSTER = { gpus: 16_384, gpusPerHost: 8, replicas: 16 } as const;
const faultyGpu = LLAMA3_CAUSES.find((c) => c.name === "Faulty GPU")!;
const llama3Count = LLAMA3_CAUSES.reduce((n, c) => n + c.share, 0);

/** Kokolis et al.'s rate on their larger cluster, per node-day: the one rate behind the three MTTF rows. */
const KOKOLIS_RATE = 0.0065;
const kokolis = (gpus: number): ScenarioInput => ({
  name: `Kokolis et al.'s failure rate at ${gpus.toLocaleString("en-US")} GPUs`,
  cluster: { gpus, gpusPerHost: 8, replicas: 16 },
  training: { days: gpus <= 1024 ? 365 : 30 },
  failures: { perHostDay: KOKOLIS_RATE },
});
const KOKOLIS_ASSUMES =
  "one failure rate per node, 6.50 per 1,000 node-days (the paper's larger cluster), for every job size; 8-GPU nodes; Poisson arrivals";
/** Node-hours between failures that each quoted MTTF implies: a per-node rate makes them equal. */
const nodeHours = (gpus: number, mttfHours: number) =>
  Math.round((gpus / 8) * mttfHours).toLocaleString("en-US");

/** A preset's scenario, by id: the claim runs the very scenario the preset opens, not a copy of its numbers. */
function presetScenario(id: string): ScenarioInput {
  const preset = presetById(id);
  if (!preset) throw new RangeError(`a claim names preset ${id}, which presets.ts does not hold`);
  return preset.scenario;
}

/** Decoupled DiLoCo's regime: the preset "Failures every few minutes", read back for the words below. */
const MINUTES = presetScenario("diloco-failures-minutes");
const minutes = parseScenario(MINUTES);
const minutesMtbf = derived(minutes).mtbfSeconds;
/** What one failure costs the synchronous job (detection + restart), and its ETTR under Poisson arrivals, e^(−λD). */
const minutesSyncStall = minutes.detection.failStopSeconds + minutes.sync.restartSeconds;
const minutesSyncEttr = Math.exp(-minutesSyncStall / minutesMtbf);
/** λD that a synchronous ETTR of 27 % needs. */
const lambdaD27 = -Math.log(0.27);
const MINUTES_ASSUMES = `the figures as press summaries report them, not the paper's own table; "goodput" read as ETTR (the share of wall time that trains) and "data parallelism" as our synchronous job; the preset "${presetById("diloco-failures-minutes")!.title}": ${minutes.cluster.gpus.toLocaleString("en-US")} GPUs in ${minutes.cluster.replicas} replicas failing every ${(minutesMtbf / 60).toFixed(1)} min (${minutes.failures.perHostDay} per host-day, Poisson), DiLoCo rounds of H = ${minutes.diloco.syncEvery} steps of ${minutes.training.stepSeconds} s with a ${minutes.diloco.syncSeconds} s outer sync not overlapped, step equivalence q = ${minutes.diloco.stepEquivalence} (no price in convergence charged); the failure rate, H, the sync time and q = ${minutes.diloco.stepEquivalence} are ours, not the paper's (its abstract speaks of millions of simulated chips); recoveries as FT-HSDP's headline (detection ${minutes.detection.failStopSeconds} s, job restart ${minutes.sync.restartSeconds} s, replica restart ${minutes.ft.replicaRestartSeconds} s); every failure breaks one host`;

export const CLAIMS: readonly Claim[] = [
  {
    id: "ft-hsdp-sync-fixed",
    claim: "Effective training time of fully synchronous training at O(100K) GPUs: 44 %.",
    source: FT_HSDP,
    published: rounded(44, 1, "44 %"),
    metric: { kind: "ettr", policy: "synchronous" },
    scenario: HEADLINE_FIXED,
    runs: 100,
    assumptions: `${HEADLINE_ASSUMES}; failures exactly 18 min apart (the paper's arithmetic: 8 of every 18 min train).`,
    whyOff:
      "The fixed-arrival arithmetic should give 8/18 exactly: a difference means a recovery time differs from the headline's.",
  },
  {
    id: "ft-hsdp-ft-fixed",
    claim: "Effective training time of FT-HSDP at O(100K) GPUs: 80 %.",
    source: FT_HSDP,
    published: rounded(80, 1, "80 %"),
    metric: { kind: "ettr", policy: "ftHsdp" },
    scenario: HEADLINE_FIXED,
    runs: 100,
    assumptions: `${HEADLINE_ASSUMES}; failures exactly 18 min apart; a replica down trains the others at 11/12 of the cluster.`,
    whyOff:
      "The fixed-arrival arithmetic (3 min stalled, then 7 min on 11 of 12 replicas, every 18 min) gives 80.1 %: a difference means a recovery time differs from the headline's.",
  },
  {
    id: "ft-hsdp-sync-poisson",
    claim:
      "Effective training time of fully synchronous training at O(100K) GPUs: 44 % (here with random failure times).",
    source: FT_HSDP,
    published: rounded(44, 1, "44 %"),
    metric: { kind: "ettr", policy: "synchronous" },
    scenario: HEADLINE_POISSON,
    runs: 400,
    assumptions: `${HEADLINE_ASSUMES}; failures at random (Poisson) times at the same mean rate.`,
    whyOff:
      "Random arrivals: a failure that lands during a recovery merges into it instead of costing another 10 min, so the synchronous job loses less than 10 min per failure on average. The 44 % is the fixed-arrival arithmetic.",
  },
  {
    id: "ft-hsdp-ft-poisson",
    claim: "Effective training time of FT-HSDP at O(100K) GPUs: 80 % (here with random failure times).",
    source: FT_HSDP,
    published: rounded(80, 1, "80 %"),
    metric: { kind: "ettr", policy: "ftHsdp" },
    scenario: HEADLINE_POISSON,
    runs: 400,
    assumptions: `${HEADLINE_ASSUMES}; failures at random (Poisson) times at the same mean rate.`,
    whyOff:
      "Random arrivals: stalls that overlap merge, and two replicas are sometimes down at once; the 80 % is the fixed-arrival arithmetic.",
  },
  {
    id: "ft-hsdp-stall-sync",
    claim: "Stall per failure recovery, fully synchronous, at O(100K) GPUs: 10 min.",
    source: FT_HSDP,
    published: rounded(10, 1, "10 min"),
    metric: { kind: "stallMinutes", policy: "synchronous" },
    scenario: HEADLINE_FIXED,
    runs: 100,
    assumptions: `${HEADLINE_ASSUMES}.`,
    calibrated: "detection (60 s) and job restart (540 s) were chosen to add up to the abstract's 10 min",
    whyOff:
      "The detection and restart times add up to 10 min by construction: a difference means one was changed.",
  },
  {
    id: "ft-hsdp-stall-ft",
    claim: "Stall per failure recovery with FT-HSDP at O(100K) GPUs: 3 min.",
    source: FT_HSDP,
    published: rounded(3, 1, "3 min"),
    metric: { kind: "stallMinutes", policy: "ftHsdp" },
    scenario: HEADLINE_FIXED,
    runs: 100,
    assumptions: `${HEADLINE_ASSUMES}.`,
    calibrated: "detection (60 s) and rejoin (120 s) were chosen to add up to the abstract's 3 min",
    whyOff:
      "The detection and rejoin times add up to 3 min by construction: a difference means one was changed.",
  },
  {
    id: "llama3-interval",
    claim: "466 interruptions in 54 days on 16,384 H100 GPUs, 419 of them unexpected: one every ~3.1 h.",
    source: LLAMA3,
    published: rounded(3.1, 0.1, "~3.1 h"),
    metric: { kind: "mtbf", unit: "hours" },
    scenario: {
      name: "Llama 3 405B on 16K GPUs",
      cluster: LLAMA3_CLUSTER,
      training: { days: 54 },
      failures: { perHostDay: 0.0038, arrivals: "poisson" },
    },
    runs: 400,
    assumptions: "2,048 hosts of 8 GPUs; unexpected interruptions only, at random (Poisson) times.",
    calibrated: "the rate, 3.8 per 1,000 host-days, is 419 / (2,048 hosts × 54 days) rounded",
    whyOff: "The rate was taken from this count: a difference means the rate was changed.",
  },
  {
    id: "llama3-faulty-gpu",
    claim: `Faulty GPUs: 30.1 % of the unexpected interruptions (Table 5; ${faultyGpu.share} of ${llama3Count} by its counts).`,
    source: LLAMA3,
    published: rounded(30.1, 0.1, "30.1 %"),
    metric: { kind: "causeShare", cause: faultyGpu.name },
    scenario: {
      name: "Llama 3 405B, cause mix",
      cluster: { ...LLAMA3_CLUSTER, hostsPerRack: 4 },
      training: { days: 54 },
      failures: { perHostDay: 0.0038, arrivals: "poisson", causes: [...LLAMA3_CAUSES] },
    },
    runs: 400,
    assumptions:
      "causes drawn in proportion to the table's counts; our classification of each into host, rack or job scope.",
    whyOff: `The table's printed percentages do not match its own counts: ${faultyGpu.share} of ${llama3Count} is ${((100 * faultyGpu.share) / llama3Count).toFixed(1)} %. The model draws by the counts.`,
  },
  {
    id: "llama3-ettr",
    claim: "Effective training time above 90 % over the 54 days, despite the interruptions.",
    source: LLAMA3,
    published: { low: 90, high: 100, text: "> 90 %" },
    metric: { kind: "ettr", policy: "synchronous" },
    scenario: {
      name: "Llama 3 405B, cause mix",
      cluster: { ...LLAMA3_CLUSTER, hostsPerRack: 4 },
      training: { days: 54 },
      failures: { perHostDay: 0.0038, arrivals: "poisson", causes: [...LLAMA3_CAUSES] },
    },
    runs: 400,
    assumptions:
      "synchronous training; the FT-HSDP headline's recovery times (detection 60 s, restart 540 s, 600 s watchdog for hangs), not Llama 3's; no rollback (a checkpoint every step at no cost); our scope classification.",
    whyOff:
      "Llama 3's own recovery times are not published; with the headline's 10-minute restarts the job loses more than the paper reports, or it checkpoints less often than every step.",
  },
  {
    id: "kokolis-1k",
    claim: "Mean time to failure of a 1,024-GPU job: 7.9 h.",
    source: KOKOLIS,
    published: rounded(7.9, 0.1, "7.9 h"),
    metric: { kind: "mtbf", unit: "hours" },
    scenario: kokolis(1024),
    runs: 200,
    assumptions: `${KOKOLIS_ASSUMES}.`,
    whyOff: `One rate per node cannot give both quoted MTTFs: 7.9 h at 128 nodes is ${nodeHours(1024, 7.9)} node-hours between failures, 1.8 h at 2,048 nodes is ${nodeHours(16_384, 1.8)}. Small jobs fail more often per node than large ones in the paper's data (failures that do not scale with the job's size, e.g. its own software), which a per-host rate leaves out.`,
  },
  {
    id: "kokolis-16k",
    claim: "Mean time to failure of a 16,384-GPU job: 1.8 h.",
    source: KOKOLIS,
    published: rounded(1.8, 0.1, "1.8 h"),
    metric: { kind: "mtbf", unit: "hours" },
    scenario: kokolis(16_384),
    runs: 200,
    assumptions: `${KOKOLIS_ASSUMES}.`,
    whyOff:
      "The quoted MTTF follows from the paper's per-node rate at this size: a difference means the rate was changed.",
  },
  {
    id: "kokolis-131k",
    claim: "Projected mean time to failure of a 131,072-GPU job: ~14 min.",
    source: KOKOLIS,
    published: rounded(14, 1, "~14 min"),
    metric: { kind: "mtbf", unit: "minutes" },
    scenario: kokolis(131_072),
    runs: 200,
    assumptions: `${KOKOLIS_ASSUMES}.`,
    whyOff:
      "The projection scales the per-node rate to 16,384 nodes: a difference means the rate was changed.",
  },
  {
    id: "byterobust",
    claim: "97 % ETTR over a three-month training job on 9,600 GPUs.",
    source: BYTEROBUST,
    published: rounded(97, 1, "97 %"),
    metric: { kind: "ettr", policy: "hotSpare" },
    scenario: {
      name: "ByteRobust-sized job, warm standbys",
      policies: ["synchronous", "hotSpare"],
      cluster: { gpus: 9600, gpusPerHost: 8, replicas: 12 },
      training: { days: 90 },
      failures: { perHostDay: 0.0038, arrivals: "poisson" },
      hotSpare: { standbys: 8, migrateSeconds: 90, refillMinutes: 30 },
    },
    runs: 200,
    assumptions:
      "Llama 3's failure rate (3.8 per 1,000 host-days: ByteRobust publishes none); 8 warm standby hosts taking over by a 90 s migration, each refilled 30 min after use; detection 60 s; every failure breaks one host.",
    whyOff:
      "The model charges each failure only its detection and migration. ByteRobust's lost 3 % also covers what a per-host failure rate does not draw: diagnosing silent and intermittent faults, over-evicting suspect machines, code updates, and stragglers.",
  },
  {
    id: "airesim",
    claim: "Mean job length ~9,873 h against 6,144 h of training: ~62 % of the wall time trains.",
    source: AIRESIM,
    published: { low: (100 * 6144) / 9873.5, high: (100 * 6144) / 9872.5, text: "6,144 / 9,873 h" },
    metric: { kind: "ettr", policy: "synchronous" },
    scenario: {
      name: "AIReSim's configuration",
      cluster: { gpus: 32_768, gpusPerHost: 8, replicas: 16 },
      training: { days: 365 },
      failures: { perHostDay: 0.016, arrivals: "poisson", badHosts: { share: 0.15, factor: 5 } },
      sync: { restartSeconds: 1380 },
      spares: { pool: "limited", hosts: 16, repairHours: 2 },
    },
    runs: 100,
    assumptions:
      "4,096 servers of 8 GPUs in one synchronous job; 0.01 failures per server-day for good servers and 5× for the 15 % bad ones (a fleet mean of 0.016); recovery 20 min plus host selection 3 min as one restart; its 16 warm standbys as a limited spare pool, each repaired in 2 h (its automatic repair; we leave out the manual escalation); no checkpoint rollback; the horizon is a year (the ETTR is a rate).",
    whyOff:
      "Our reading of its configuration loses more per failure than its findings report: its repair pipeline, standby handling or failure clock (per server MTBF of ~100 days) differ from a Poisson rate per host with 23-minute restarts.",
  },
  {
    id: "greyhound",
    claim: "Slow components make large jobs 1.34× slower on average (completion delayed 34.6 %).",
    source: GREYHOUND,
    published: rounded(1.346, 0.001, "1.346×"),
    metric: { kind: "slowdown", policy: "synchronous" },
    scenario: {
      name: "Slow hosts alone (Greyhound)",
      failures: { perHostDay: 0 },
      slow: { perHostDay: 0.0068, medianMinutes: 15, sigma: 1, factor: 1.5 },
    },
    runs: 200,
    assumptions:
      "the headline cluster with no failures; slow episodes of lognormal length (median 15 min, σ 1), 1.5× slower while slow, never evicted; a synchronous job runs at its slowest host's pace.",
    calibrated:
      "the episode rate, 0.0068 per host-day, was chosen so that slow hosts alone make this job 1.34× slower",
    whyOff:
      "The rate was chosen for 1.34× from a steady-state formula (some host slow 75 % of the time); the simulated runs differ from it by the episodes that straddle the horizon and by chance.",
  },
  {
    id: "decoupled-diloco-dp",
    claim: "Goodput of data-parallel training under high simulated failure rates: 27 %.",
    source: DECOUPLED_DILOCO,
    published: rounded(27, 1, "27 %"),
    metric: { kind: "ettr", policy: "synchronous" },
    scenario: MINUTES,
    runs: 100,
    assumptions: `${MINUTES_ASSUMES}.`,
    whyOff: `Our failure rate, not the paper's: a failure every ${(minutesMtbf / 60).toFixed(1)} min, each stopping the synchronous job for ${minutesSyncStall / 60} min (detection and restart), leaves it training e^(−λD) = ${(100 * minutesSyncEttr).toFixed(1)} % of the time; its lost time is the restarts (68 %) and the detections (28 %). 27 % needs λD ≈ ${lambdaD27.toFixed(2)}: the same ${minutesSyncStall / 60}-min recoveries with a failure every ${(minutesSyncStall / lambdaD27 / 60).toFixed(1)} min, or ${((lambdaD27 * minutesMtbf) / 60).toFixed(1)}-min recoveries at our rate. The summaries give neither the paper's failure rate nor its recovery times.`,
  },
  {
    id: "decoupled-diloco",
    claim: "Goodput of Decoupled DiLoCo under the same high simulated failure rates: 88 %.",
    source: DECOUPLED_DILOCO,
    published: rounded(88, 1, "88 %"),
    metric: { kind: "ettr", policy: "diloco" },
    scenario: MINUTES,
    runs: 100,
    assumptions: `${MINUTES_ASSUMES}; our DiLoCo is torchft's, synchronous once per round.`,
    whyOff: `Our DiLoCo is torchft's, not the decoupled one: the struck replica is down for its detection and the ${Math.round(minutes.ft.replicaRestartSeconds / 60)}-min replica restart (22 % of the replicas' time), its round is discarded (10 %), and every replica waits for each outer sync (9 %). The paper's abstract has learners send parameter fragments asynchronously to a synchronizer that goes around failed or slow ones, with no global downtime. The failure rate is ours too: at one that gives data parallelism its 27 % (a failure every ~${(minutesSyncStall / lambdaD27 / 60).toFixed(1)} min), this DiLoCo keeps ~72 %, ~81 % with the sync overlapped by 5 steps.`,
  },
];
