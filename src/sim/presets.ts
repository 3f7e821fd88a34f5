/**
 * Ready-made scenarios, each tied to the public figure it reproduces (its `source`).
 * Pure data: the UI shows `source` visibly when a preset is loaded, so every number a person sees
 * can be traced back. Figures that come from summaries rather than a paper's text say "reported".
 */
import type { FailureCause, ScenarioInput } from "./scenario/index.ts";

/** The four strategies these presets compare, by key: a preset's content, fixed like its numbers. */
const FOUR_STRATEGIES = ["synchronous", "ftHsdp", "inMemory", "hotSpare"];

export interface Preset {
  id: string;
  title: string;
  /** One or two sentences: what this scenario shows and which choices are ours, not the source's. */
  description: string;
  /** The citation, as shown under the loaded scenario. */
  source: string;
  scenario: ScenarioInput;
}

const HEADLINE_SOURCE =
  'Salpekar, Varma, Yu et al. (Meta), "Training LLMs with Fault Tolerant HSDP on 100,000 GPUs", arXiv 2602.00277: stall per failure 10 min → 3 min, effective training time 44 % → 80 %. A failure every 18 min and ~98K GPUs in 10–20 replicas are reported in summaries of the paper.';

const HANG_KNOBS = {
  cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12 },
  failures: { perHostDay: 0.00651, arrivals: "poisson", hangFraction: 0.3 },
} as const;

const C4_SOURCE =
  "C4 (Alibaba), arXiv 2406.04594: communication-driven detection isolates a faulty component within tens of seconds; PyTorch's NCCL watchdog declares a hung collective dead after 600 s by default. The 30 % hang share is our choice, for illustration.";

/**
 * Llama 3 405B's 419 unexpected interruptions by cause (LLAMA3_SOURCE), each classified by us into a
 * scope, hang and newHost: a judgement, stated in the preset's description.
 */
export const LLAMA3_CAUSES: readonly FailureCause[] = [
  { name: "Faulty GPU", share: 148, scope: "host", hang: false, newHost: true },
  { name: "GPU HBM3 memory", share: 72, scope: "host", hang: false, newHost: true },
  { name: "Software bug", share: 54, scope: "job", hang: false, newHost: false },
  { name: "Network switch/cable", share: 35, scope: "rack", hang: false, newHost: false },
  { name: "Host maintenance", share: 32, scope: "host", hang: false, newHost: true },
  { name: "GPU SRAM memory", share: 19, scope: "host", hang: false, newHost: true },
  { name: "GPU system processor", share: 17, scope: "host", hang: false, newHost: true },
  { name: "NIC", share: 7, scope: "host", hang: false, newHost: true },
  { name: "NCCL watchdog timeout", share: 7, scope: "host", hang: true, newHost: false },
  { name: "Silent data corruption", share: 6, scope: "host", hang: false, newHost: true },
  { name: "GPU thermal/sensor", share: 6, scope: "host", hang: false, newHost: true },
  { name: "SSD", share: 3, scope: "host", hang: false, newHost: true },
  { name: "Power supply", share: 3, scope: "host", hang: false, newHost: true },
  { name: "Server chassis", share: 2, scope: "host", hang: false, newHost: true },
  { name: "IO expansion board", share: 2, scope: "host", hang: false, newHost: true },
  { name: "Dependency", share: 2, scope: "job", hang: false, newHost: false },
  { name: "CPU", share: 2, scope: "host", hang: false, newHost: true },
  { name: "System memory", share: 2, scope: "host", hang: false, newHost: true },
];

const LLAMA3_SOURCE =
  "Llama 3 herd of models, arXiv 2407.21783, §3.3.4: 16,384 H100 GPUs, 54 days, 419 unexpected interruptions by cause (the counts, not the printed percentages), effective training time above 90 %. Scopes, hangs, new hosts, racks of 4 hosts and recovery times are our choices.";

const HEADLINE_RACKS = {
  cluster: { gpus: 98_304, gpusPerHost: 8, replicas: 12, hostsPerRack: 8 },
  failures: {
    causes: [
      { name: "Host", share: 8, scope: "host", hang: false, newHost: true },
      { name: "Rack (ToR switch, power)", share: 2, scope: "rack", hang: false, newHost: true },
    ],
  },
} satisfies ScenarioInput;

const V2_SOURCE = `${HEADLINE_SOURCE} Version-2 settings (docs/model.md §3) are ours, for illustration.`;

/**
 * The strategies side by side (docs/model.md §4). Every strategy that restarts from storage
 * (synchronous, FT-HSDP after a job-wide failure, hot spares' fallback, in-memory's persistent
 * copy) checkpoints on one cadence, so no side is charged a rollback the others are spared.
 */
const SAME_CADENCE = {
  sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
  ft: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
  // Every 10th 3-minute in-memory checkpoint is persisted: the same 30-minute storage cadence.
  inMemory: { checkpointMinutes: 3, writeSeconds: 2, restartSeconds: 300, persistEvery: 10 },
} as const satisfies ScenarioInput;

const STRATEGY_ASSUMPTIONS =
  "Assumptions: every strategy meets the same failures, each with its own unlimited spare pool; storage checkpoints every 30 min with a 10 s blocking write for all of them (in-memory persists every 10th of its 3-minute, 2 s copies: also every 30 min); an in-memory restart takes 5 min (no storage load), a hot-spare migration 90 s, with 2 standby hosts each refilled 30 min after use; FTAR runs as fast as NCCL (no step overhead).";

const STRATEGY_SOURCE = `${HEADLINE_SOURCE} In-memory checkpoints: Gemini (Wang et al., SOSP '23), which reports 13× faster recovery than from storage. Hot spares: warm standbys with live migration, as GB200 NVL72 racks keep 8 of 72 GPUs warm. The settings above are ours, for illustration (docs/model.md §4).`;

export const STRATEGY_PRESETS: readonly Preset[] = [
  {
    id: "four-strategies",
    title: "Four strategies on the headline cluster",
    description: `The FT-HSDP paper's cluster (98,304 GPUs, 12 replicas, a failure every 18 min, Poisson) under synchronous training, FT-HSDP, in-memory checkpoints and hot spares. Every failure breaks one host. With a failure every 18 min, the 30-minute checkpoints cost the synchronous job much of its time in rollbacks, and the 2 standbys are often both still refilling, so hot spares fall back to a full restart. ${STRATEGY_ASSUMPTIONS}`,
    source: STRATEGY_SOURCE,
    scenario: {
      name: "Four strategies, headline cluster",
      policies: [...FOUR_STRATEGIES],
      ...SAME_CADENCE,
    },
  },
  {
    id: "llama3-strategies",
    title: "Llama 3's cause mix: which strategy",
    description: `Llama 3 405B's 419 interruptions by cause (our classification into host, rack and job scope, as in the cause-mix preset) under all four strategies. Job-wide software bugs and dependencies (about 13 %) send in-memory checkpoints back to storage and hot spares to a full restart, and make FT-HSDP restart the whole job; a switch or cable failure breaks no host, so hot spares ride it out with a 90 s migration. ${STRATEGY_ASSUMPTIONS}`,
    source: `${LLAMA3_SOURCE} ${STRATEGY_SOURCE.slice(HEADLINE_SOURCE.length + 1)}`,
    scenario: {
      name: "Llama 3 cause mix, four strategies",
      policies: [...FOUR_STRATEGIES],
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 16, hostsPerRack: 4 },
      training: { days: 54 },
      failures: { perHostDay: 0.0038, arrivals: "poisson", causes: [...LLAMA3_CAUSES] },
      ...SAME_CADENCE,
    },
  },
];

/**
 * "Across four datacenters": the link between sites, and what it costs each
 * strategy, computed from stated assumptions (presets.test.ts checks them against One step's
 * outer-sync formula, src/step/outerSync.ts).
 */
export const ACROSS_SITES = {
  sites: 4,
  /** A 70B-parameter model's pseudo-gradients (or gradients) in bf16: 2 bytes each. */
  bytes: 70e9 * 2,
  /** Between sites: 100 Gb/s, our assumption (see the preset's source). */
  bandwidthBytesPerSecond: 100e9 / 8,
  alphaSeconds: 0.05,
  stepSeconds: 6,
  /** The share of a step the all-reduce can hide behind (the backward pass, ~2/3 of the step). */
  hiddenShare: 2 / 3,
  syncEvery: 100,
} as const;

/** One all-reduce of the model's bytes among the sites: 2·bytes·(p − 1)/p / bandwidth + α. */
export function acrossSitesSyncSeconds(a = ACROSS_SITES): number {
  return (2 * a.bytes * (a.sites - 1)) / a.sites / a.bandwidthBytesPerSecond + a.alphaSeconds;
}

/** FT-HSDP all-reduces across the same link every step: what is not hidden behind backward, as a step overhead (%). */
export function acrossSitesStepOverheadPercent(a = ACROSS_SITES): number {
  const exposed = Math.max(0, acrossSitesSyncSeconds(a) - a.hiddenShare * a.stepSeconds);
  return Math.round((1000 * exposed) / a.stepSeconds) / 10;
}

const DILOCO_SOURCE =
  "DiLoCo (Douillard et al., arXiv 2311.08105): 8 workers match synchronous training with 500× less communication. Decoupled DiLoCo (arXiv 2604.21428, as press summaries report it): 88 % goodput against 27 % for data parallelism under high simulated failure rates; the bandwidth needed between 8 sites falls from 198 Gb/s to 0.84 Gb/s. torchft's DiLoCo: a round's local steps are discarded on any error (FACTS: pytorch/torchft local_sgd.py).";

/** §7's presets: DiLoCo beside FT-HSDP. */
export const DILOCO_PRESETS: readonly Preset[] = [
  {
    id: "diloco-four-sites",
    title: "Across four datacenters: DiLoCo against FT-HSDP",
    description: `A 70B-parameter model trained on 16,384 GPUs in four sites, one replica each, at Llama 3's failure rate. Between sites a 100 Gb/s link (our assumption: between the 0.84 Gb/s DiLoCo needs and the 198 Gb/s data parallelism needs over 8 sites, as reported). One all-reduce of the bf16 gradients among the sites takes 2·140 GB·3/4 ÷ 12.5 GB/s + 50 ms = ${acrossSitesSyncSeconds().toFixed(2)} s. FT-HSDP pays it on every 6 s step, less the two-thirds of the step it hides behind the backward pass: a step ${acrossSitesStepOverheadPercent()} % slower. DiLoCo pays it once per ${ACROSS_SITES.syncEvery} steps, and a failure costs the struck replica its round. Step equivalence q = 1: the price in convergence is not charged here (measure q in Live training).`,
    source: `${DILOCO_SOURCE} The model size, the 100 Gb/s link, the 6 s step, the hidden share and H = ${ACROSS_SITES.syncEvery} are our assumptions.`,
    scenario: {
      name: "Across four datacenters (DiLoCo vs FT-HSDP)",
      policies: ["ftHsdp", "diloco"],
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: ACROSS_SITES.sites },
      training: { days: 30, stepSeconds: ACROSS_SITES.stepSeconds },
      failures: { perHostDay: 0.0038, arrivals: "poisson" },
      ft: { stepOverheadPercent: acrossSitesStepOverheadPercent() },
      diloco: {
        syncEvery: ACROSS_SITES.syncEvery,
        syncSeconds: Math.round(acrossSitesSyncSeconds() * 100) / 100,
        overlapSteps: 0,
        stepEquivalence: 1,
      },
    },
  },
  {
    id: "diloco-failures-minutes",
    title: "Failures every few minutes: DiLoCo's regime",
    description:
      "The headline cluster (98,304 GPUs, 12 replicas) failing about every 3 minutes (0.039 per host-day, Poisson), the regime of the Decoupled DiLoCo claim. The synchronous job barely trains; FT-HSDP's survivors stall while each failure is detected and each replica rejoins; DiLoCo (rounds of 20 steps of 10 s, a 30 s outer sync) loses only the struck replica's round and heals the replica at the next round. Our numbers, not the paper's: step equivalence q = 1 (no price in convergence charged), recoveries as FT-HSDP's headline ones.",
    source: `${DILOCO_SOURCE} The failure rate, H = 20, the 30 s sync and q = 1 are our assumptions.`,
    scenario: {
      name: "Failures every few minutes (DiLoCo)",
      policies: ["synchronous", "ftHsdp", "diloco"],
      training: { days: 7 },
      failures: { perHostDay: 0.039, arrivals: "poisson" },
      diloco: { syncEvery: 20, syncSeconds: 30, overlapSteps: 0, stepEquivalence: 1 },
    },
  },
];

export const PRESETS: readonly Preset[] = [
  {
    id: "teaching",
    title: "Teaching cluster: 64 GPUs, 4 replicas, 1 day",
    description:
      "8 hosts that fail about every 2 hours, so each failure is easy to follow on the timeline. Hourly checkpoints show the work the synchronous job rolls back; a quarter of failures are hangs found by the 600 s watchdog.",
    source:
      "Illustrative, not measured: the failure rate (1.5 per host-day) is far above any real cluster so that a one-day horizon holds about a dozen failures. Recovery times are the FT-HSDP paper's headline ones (arXiv 2602.00277).",
    scenario: {
      name: "Teaching cluster (64 GPUs, 4 replicas)",
      cluster: { gpus: 64, gpusPerHost: 8, replicas: 4 },
      training: { days: 1 },
      failures: { perHostDay: 1.5, arrivals: "poisson", hangFraction: 0.25 },
      sync: { checkpointMinutes: 60, checkpointWriteSeconds: 30 },
    },
  },
  {
    id: "headline-fixed",
    title: "FT-HSDP paper headline, fixed arrivals (44 % vs 80 %)",
    description:
      "98,304 GPUs in 12 replicas, exactly one failure every 18 min. Sync stalls 10 min per failure; FT-HSDP stalls 3 min and runs 7 min on 11 of 12 replicas: 8/18 = 44.4 % vs 80.1 %.",
    source: HEADLINE_SOURCE,
    scenario: {
      name: "FT-HSDP headline, fixed arrivals",
      failures: { arrivals: "fixed" },
    },
  },
  {
    id: "headline-poisson",
    title: "FT-HSDP paper headline, Poisson arrivals",
    description:
      "The same knobs with random (Poisson) arrivals: failures that land during a recovery merge into it, so sync does better (about 57 %) than the fixed arithmetic suggests.",
    source: HEADLINE_SOURCE,
    scenario: { name: "FT-HSDP headline, Poisson arrivals" },
  },
  {
    id: "llama3-405b",
    title: "Llama 3 405B: 16,384 GPUs, 54 days",
    description:
      "419 unexpected interruptions in 54 days on 2,048 hosts: 3.8 per 1,000 host-days; 7 of them NCCL watchdog timeouts (hangs, 600 s). R = 16 is our choice: replicas of 1,024 GPUs, each a full sharded model copy (the run's model-parallel groups were 128 GPUs: TP 8 × PP 16), in the 10–20 replica range the FT-HSDP paper reports.",
    source:
      "Llama 3 herd of models, arXiv 2407.21783, §3.3.4: 16,384 H100 GPUs, 54 days, 466 interruptions (419 unexpected), effective training time above 90 %. Recovery times are the FT-HSDP headline's, not Llama 3's.",
    scenario: {
      name: "Llama 3 405B on 16K GPUs",
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 16 },
      training: { days: 54 },
      failures: { perHostDay: 0.0038, arrivals: "poisson", hangFraction: 0.017 },
    },
  },
  {
    id: "meta-research",
    title: "Meta research cluster failure rate (Kokolis et al.)",
    description:
      "6.50 failures per 1,000 node-days on a 16,384-GPU job (2,048 nodes): a failure every 1.8 h. Health checks every 5 min give a 150 s mean detection; restart 10 min (the reported 5–20 min). R = 16 is our choice.",
    source:
      'Kokolis et al., "Revisiting Reliability in Large-Scale Machine Learning Research Clusters", arXiv 2410.21680: 6.50 and 2.34 failures per 1,000 node-days on two clusters of 8-GPU nodes; restart overhead 5–20 min; health checks every 5 min.',
    scenario: {
      name: "Meta research-cluster failure rate",
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 16 },
      failures: { perHostDay: 0.0065, arrivals: "poisson", hangFraction: 0 },
      detection: { failStopSeconds: 150 },
      sync: { restartSeconds: 600 },
    },
  },
  {
    id: "hang-c4",
    title: "Hangs found in 30 s (C4-style detection)",
    description:
      "The headline cluster with 30 % of failures hanging instead of dying, detected by comparing collective timings across ranks in 30 s. Compare with the 600 s watchdog preset.",
    source: C4_SOURCE,
    scenario: {
      name: "Hangs, C4-style 30 s detection",
      ...HANG_KNOBS,
      detection: { hangSeconds: 30 },
    },
  },
  {
    id: "hang-watchdog",
    title: "Hangs found by the 600 s NCCL watchdog",
    description:
      "The same cluster and hang share, but each hang is noticed only when PyTorch's NCCL watchdog fires after 600 s: every hang stalls the whole job for 10 min before recovery even starts.",
    source: C4_SOURCE,
    scenario: {
      name: "Hangs, 600 s NCCL watchdog",
      ...HANG_KNOBS,
      detection: { hangSeconds: 600 },
    },
  },
  {
    id: "llama3-405b-causes",
    title: "Llama 3 405B with its cause mix (software bugs stop every replica)",
    description:
      "The 419 interruptions by cause. Our classification (a judgement): GPU, memory, NIC, power, SSD, CPU, chassis, maintenance and SDC break one host (newHost); software bugs and dependencies are job-wide; network switch/cable takes a rack of 4 hosts (no host replaced); NCCL watchdog timeouts hang one host. Checkpoints: the reported > 90 % needs a synchronous job that never rolls back (0 here); with 30-minute checkpoints the same run gives about 87 %.",
    source: LLAMA3_SOURCE,
    scenario: {
      name: "Llama 3 405B, cause mix",
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 16, hostsPerRack: 4 },
      training: { days: 54 },
      failures: { perHostDay: 0.0038, arrivals: "poisson", causes: [...LLAMA3_CAUSES] },
    },
  },
  {
    id: "headline-job-failures",
    title: "Headline with 10 % job-wide software failures",
    description:
      "The headline cluster where 1 failure in 10 is a software bug that kills every rank: FT-HSDP then restarts the whole job like the synchronous one and rolls back to its last checkpoint. Both jobs checkpoint on the same cadence (every 30 min, 10 s write), so the comparison charges neither a rollback the other is spared.",
    source: V2_SOURCE,
    scenario: {
      name: "Headline, 10 % job-wide failures",
      failures: {
        causes: [
          { name: "Host", share: 9, scope: "host", hang: false, newHost: true },
          { name: "Software bug", share: 1, scope: "job", hang: false, newHost: false },
        ],
      },
      sync: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
      ft: { checkpointMinutes: 30, checkpointWriteSeconds: 10 },
    },
  },
  {
    id: "racks-packed",
    title: "Rack failures, packed placement (a rack strikes one replica)",
    description:
      "Racks of 8 hosts; 20 % of failures take a whole rack. Packed: a replica is a block of adjacent hosts, so a rack failure takes one replica down. Compare with striped.",
    source: V2_SOURCE,
    scenario: { name: "Rack failures, packed", ...HEADLINE_RACKS },
  },
  {
    id: "racks-striped",
    title: "Rack failures, striped placement (a rack strikes 8 replicas)",
    description:
      "The same cluster and failures with replicas striped across racks (host h serves replica h mod 12): one rack failure takes 8 replicas down at once. Placement sets the blast radius.",
    source: V2_SOURCE,
    scenario: {
      name: "Rack failures, striped",
      ...HEADLINE_RACKS,
      cluster: { ...HEADLINE_RACKS.cluster, placement: "striped" },
    },
  },
  {
    id: "spares-dry",
    title: "A spare pool that runs dry (12 spares, 4-hour repairs)",
    description:
      "Every failure breaks its host, repaired 4 h later. About 13 hosts are in repair at any time on average, and 12 spares cannot cover that, so replicas (and the synchronous job) wait for replacements and FT-HSDP's gain melts.",
    source: V2_SOURCE,
    scenario: {
      name: "Spare pool runs dry",
      spares: { pool: "limited", hosts: 12, repairHours: 4 },
    },
  },
  {
    id: "torchft-timeout",
    title: "torchft-style timeouts: hangs dropped by FTAR in 60 s",
    description:
      "30 % of failures hang. The synchronous job waits for the 600 s NCCL watchdog; FT-HSDP's fault-tolerant all-reduce times the hung member out after 60 s (torchft's default collective timeout). Compare with the 600 s watchdog preset.",
    source: `torchft's Manager defaults (github.com/pytorch/torchft): 60 s for collectives, quorum and connect. ${C4_SOURCE}`,
    scenario: {
      name: "Hangs, FTAR 60 s timeout",
      ...HANG_KNOBS,
      detection: { hangSeconds: 600 },
      ft: { hangTimeoutSeconds: 60 },
    },
  },
  {
    id: "slow-greyhound",
    title: "Slow hosts as Greyhound reports them",
    description:
      'The headline cluster with slow episodes (docs/model.md §6): lognormal lengths with a median of 15 min and σ = 1 (mean 25 min, 1 in 10 past 54 min, 1 in 100 past 2.5 h), 1.5× slower while slow (our choice), and 0.0068 episodes per host-day, chosen so that slow hosts alone leave 1/1.34 of the time (M/G/∞: some host is slow 75 % of the time). No eviction: sweep "Evict after" to see what dropping a slow replica buys.',
    source:
      "Greyhound (Alibaba), USENIX ATC '25: most large jobs meet slowdowns; episodes of ~10–25 min typically, up to hours; jobs 1.34× slower on average. The factor, σ and the rate that yields 1.34× on this cluster are our assumptions.",
    scenario: {
      name: "Slow hosts (Greyhound)",
      slow: { perHostDay: 0.0068, medianMinutes: 15, sigma: 1, factor: 1.5 },
    },
  },
  {
    // Where the model gives a U. Per slow episode of length L, evicting after T costs
    // FT-HSDP about a·E[min(L, T)] + P(L > T)·E, with a = 1 − 1/factor (the whole ring runs at the
    // slow pace) and E the eviction (here 20 min of a quarter of the job + the 2-min rejoin:
    // 7 min). Waiting pays while episodes end at a rate above a/E (1 in 30 min), so with a short
    // median and a heavy tail the best delay lies in between. Measured in presets.test.ts and
    // e2e/evictU.spec.ts.
    id: "slow-evict-when",
    title: "Slow hosts, few replicas: when to evict",
    description:
      "Llama 3's cluster and failure rate in 4 replicas, with slow episodes (docs/model.md §6): about 48 a day over the 2,048 hosts, lognormal lengths with a median of 10 min and σ = 2 (mean 74 min, 1 in 10 past 2.2 h), 1.3× slower while slow; never evicted, slow hosts alone make the job about 1.27× slower. An evicted replica is down 20 min, a quarter of the job, then the ring stalls 2 min to rejoin. Sweep \"Evict after\": evicting at once drops hosts whose slowness would soon have passed, waiting hours keeps the ring slow for the long tail, and FT-HSDP's ETTR peaks in between (near 20 min), above both ends; never evicting, as loaded, is below every delay swept. The synchronous job, for which each eviction is a 9-minute restart of everything, peaks later.",
    source:
      "Greyhound (Alibaba), USENIX ATC '25: slowdowns of ~10–25 min typically, up to hours; jobs 1.34× slower on average. Llama 3 herd of models, arXiv 2407.21783, §3.3.4: 16,384 H100 GPUs, 419 unexpected interruptions in 54 days (3.8 per 1,000 host-days). The 4 replicas, the 20-minute replica restart, the episode rate, σ = 2 and the 1.3× slowdown are our assumptions, chosen to show when evicting pays.",
    scenario: {
      name: "Slow hosts, few replicas: when to evict",
      cluster: { gpus: 16_384, gpusPerHost: 8, replicas: 4 },
      failures: { perHostDay: 0.0038, arrivals: "poisson" },
      ft: { replicaRestartSeconds: 1200 },
      slow: { perHostDay: 0.0234, medianMinutes: 10, sigma: 2, factor: 1.3 },
    },
  },
  ...STRATEGY_PRESETS,
  ...DILOCO_PRESETS,
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
