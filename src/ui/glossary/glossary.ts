/**
 * Every term the app leans on, defined once. Views link a term's first use to its entry with
 * <Term id="…">, so a newcomer is one keypress from the definition wherever the term appears.
 * Figures in definitions come from public sources, each named in the definition.
 */
export interface GlossaryEntry {
  term: string;
  definition: string;
  source?: string;
}

export const GLOSSARY = {
  ettr: {
    term: "ETTR",
    definition:
      "Effective training time ratio: the share of wall-clock time that turns into useful training of the whole model. Time spent detecting failures, restarting, re-doing rolled-back work, or training with a replica missing counts against it.",
    source: "FT-HSDP paper (arXiv 2602.00277): 44 % synchronous vs 80 % with FT-HSDP at O(100K) GPUs.",
  },
  ftar: {
    term: "FTAR",
    definition:
      "Fault tolerant all-reduce: the all-reduce across data-parallel replicas that survives a member dying. The CPU runs the control (who is in the ring, timeouts, errors); the GPU moves and reduces the data. When a member dies the ring re-forms over the survivors.",
    source: "FT-HSDP paper (arXiv 2602.00277).",
  },
  hsdp: {
    term: "HSDP",
    definition:
      "Hybrid sharded data parallelism: the GPUs are split into replicas; inside a replica the model is sharded (FSDP), across replicas each shard's gradients are all-reduced, as in DDP. FT-HSDP makes the replica the unit of fault tolerance.",
  },
  fsdp: {
    term: "FSDP",
    definition:
      "Fully sharded data parallelism: each GPU keeps only a slice of the weights, gradients and optimizer state, gathering full layers when it needs them and reduce-scattering gradients afterwards.",
  },
  ddp: {
    term: "DDP",
    definition:
      "Distributed data parallel (PyTorch): every GPU holds the whole model, trains on its own data, and gradients are averaged by all-reduce in buckets (25 MiB by default, the first 1 MiB) that overlap with backward.",
    source: "Li et al., VLDB 2020.",
  },
  replica: {
    term: "replica",
    definition:
      "One data-parallel copy of the model, itself spread over many hosts. FT-HSDP takes only the replica with a failed host offline; the others keep training.",
    source: "About 98K GPUs in 10–20 replicas is reported in summaries of the FT-HSDP paper.",
  },
  quorum: {
    term: "quorum",
    definition:
      "The set of replicas that take part in a step. It shrinks when a replica fails and grows when one rejoins; training stops if fewer than the minimum remain.",
    source: "torchft Lighthouse: heartbeats every 100 ms, healthy if the last is under 5 s old.",
  },
  catchUp: {
    term: "catch-up",
    definition:
      "A restarted replica fetches the current weights and optimizer state from a healthy peer, then joins the next step with a zero gradient. Non-blocking: the others keep training meanwhile.",
    source: "FT-HSDP paper (arXiv 2602.00277); torchft recv_checkpoint.",
  },
  mtbf: {
    term: "MTBF",
    definition:
      "Mean time between failures of the whole job: 1 / (hosts · failures per host per day). 12,288 hosts that each fail 6.51 times per 1,000 days fail, together, every 18 minutes.",
    source: "Kokolis et al., arXiv 2410.21680: job MTTF = 1/(nodes · r_f).",
  },
  hang: {
    term: "hang vs fail-stop",
    definition:
      "A fail-stop kills the process and is noticed in seconds. A hang leaves a collective that never returns; it is noticed only when a watchdog fires (PyTorch's NCCL watchdog: 600 s by default) or when ranks compare timings (C4: tens of seconds).",
    source: "PyTorch NCCL watchdog; C4, arXiv 2406.04594.",
  },
  p5p95: {
    term: "p5–p95",
    definition:
      "The 5th and 95th percentiles over many random seeds: nine runs in ten land in this band. A single run is one draw of the failures; the band shows how much luck matters.",
  },
  ci95: {
    term: "95% interval",
    definition:
      "How sure the mean is, not how much runs vary: mean ± 1.96·sd/√n over n runs (sd: the runs' standard deviation). The Monte Carlo adds runs until every strategy's ± is within the precision you set, or the cap on runs. A difference against a baseline pairs the runs by seed, which share their failure draws.",
    source: "The normal approximation to the mean of n independent runs (one per seed).",
  },
  busbw: {
    term: "algbw / busbw",
    definition:
      "algbw = bytes ÷ time. busbw rescales it to what each link carries, so algorithms and sizes compare: × 2(n−1)/n for all-reduce, × (n−1)/n for reduce-scatter and all-gather.",
    source: "nccl-tests.",
  },
  alphaBeta: {
    term: "α–β",
    definition:
      "The cost model of a message: α seconds of latency per step plus bytes ÷ bandwidth B. A ring all-reduce of S bytes over n ranks costs 2(n−1)·α + 2(n−1)/n · S/B.",
  },
} as const satisfies Record<string, GlossaryEntry>;

export type TermId = keyof typeof GLOSSARY;
