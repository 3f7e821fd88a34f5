/**
 * Ready-made scenarios, each tied to the public figure it reproduces (../shared/reference/FACTS.md).
 * Pure data: the UI shows `source` visibly when a preset is loaded, so every number a person sees
 * can be traced back. Figures that come from summaries rather than a paper's text say "reported".
 */
import type { ScenarioInput } from "./scenario.ts";

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
];

export function presetById(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
