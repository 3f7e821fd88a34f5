/**
 * Chapter 7's cases: the paper's headline cluster with one thing from a real cluster added (cluster
 * model v2, docs/model.md §3), each the preset of that name. Kept apart from the chapter so the e2e
 * test runs the same inputs through the engine.
 */
import { presetById } from "../../../sim/presets.ts";
import type { ScenarioInput } from "../../../sim/scenario/index.ts";

export interface RealClusterCase {
  id: string;
  label: string;
  /** One sentence: why the numbers moved from the plain headline. */
  why: string;
  scenario: ScenarioInput;
}

function preset(id: string): ScenarioInput {
  const p = presetById(id);
  if (!p) throw new Error(`chapter 7 needs the preset "${id}"`);
  return p.scenario;
}

export const REAL_CLUSTER_CASES: readonly RealClusterCase[] = [
  {
    id: "headline-poisson",
    label: "The plain headline (no checkpoint interval: nothing rolls back)",
    why: "Every failure takes one host; FT-HSDP loses one replica for a while.",
    scenario: preset("headline-poisson"),
  },
  {
    id: "headline-job-failures",
    label: "10 % of failures job-wide",
    why: "A job-wide software failure stops every replica at once, so FT-HSDP restarts the whole job and rolls back to its last checkpoint. Both jobs checkpoint every 30 min here (10 s writes), so the synchronous job now rolls back at every failure too: most of its drop from the plain headline is that rollback, not the bug.",
    scenario: preset("headline-job-failures"),
  },
  {
    id: "racks-packed",
    label: "20 % rack failures (8 hosts), packed",
    why: "Packed, a rack's 8 hosts sit in one replica: a rack failure is one replica down, as before.",
    scenario: preset("racks-packed"),
  },
  {
    id: "racks-striped",
    label: "20 % rack failures (8 hosts), striped",
    why: "Striped, one rack holds hosts of 8 replicas, so a rack failure takes 8 replicas down together.",
    scenario: preset("racks-striped"),
  },
  {
    id: "spares-dry",
    label: "12 spare hosts, 4 h repairs",
    why: "About 13 hosts are in repair at a time, more than the 12 spares: replicas, and the synchronous job, wait for replacements.",
    scenario: preset("spares-dry"),
  },
];

/** Chapter 7's strategies figure: all four strategies on one cluster, each the preset of that id. */
export interface StrategyCase {
  id: string;
  label: string;
  scenario: ScenarioInput;
}

export const STRATEGY_CASES: readonly StrategyCase[] = [
  {
    id: "four-strategies",
    // Not the first figure's plain headline: storage checkpoints every 30 min, so the synchronous
    // job rolls back at every failure (22 % where the plain headline's reads 58 %).
    label: "The headline cluster with 30-minute storage checkpoints (a rollback at every failure)",
    scenario: preset("four-strategies"),
  },
  { id: "llama3-strategies", label: "Llama 3's cause mix", scenario: preset("llama3-strategies") },
];

/** How long chapter 7's eviction case waits before dropping a slow host (our choice, for illustration). */
export const EVICT_AFTER_MINUTES = 5;

/**
 * Chapter 7's slow hosts (docs/model.md §6): the preset "Slow hosts as Greyhound reports them"
 * with its slow episodes off, as it is, and with eviction: the same cluster, seed and failures.
 */
export interface SlowCase {
  id: "no-slow" | "slow-wait" | "slow-evict";
  label: string;
  scenario: ScenarioInput;
}

const GREYHOUND = preset("slow-greyhound");

export const SLOW_CASES: readonly SlowCase[] = [
  {
    id: "no-slow",
    label: "No slow hosts",
    scenario: { ...GREYHOUND, slow: { ...GREYHOUND.slow, perHostDay: 0 } },
  },
  { id: "slow-wait", label: "Slow hosts, waited out", scenario: GREYHOUND },
  {
    id: "slow-evict",
    label: `Slow hosts, evicted after ${EVICT_AFTER_MINUTES} min`,
    scenario: { ...GREYHOUND, slow: { ...GREYHOUND.slow, evictAfterMinutes: EVICT_AFTER_MINUTES } },
  },
];
