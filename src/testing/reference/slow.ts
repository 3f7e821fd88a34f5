/**
 * The reference's own reading of docs/model.md §6 ("slow, not dead"): slow
 * episodes drawn with dice of its own, their evictions as failures, and a plain walk over the
 * episodes' starts and ends that tells a policy's loop who is slow now and when that changes.
 * Written from the spec text, not from src/sim/slow/slowEpisodes.ts: a mean or a run that differs
 * from the engine's shows one of the two misreads it.
 */
import { derived, type Scenario } from "../../sim/scenario/index.ts";
import { type Failure, gaussian, mulberry32 } from "./failures.ts";

/** One slow episode: the host slot is slow on [start, end); an evicted one ends at its eviction. */
export interface Episode {
  start: number;
  end: number;
  host: number;
  evicted: boolean;
}

/** A run's slow episodes (in order of their start) and the factor a slow host's steps take. */
export interface SlowRun {
  factor: number;
  episodes: readonly Episode[];
}

/**
 * §6 "Fields": starts are a Poisson process over the fleet (rate hosts × perHostDay per day), each
 * on a host drawn uniformly; its length is lognormal, median · e^(σZ). A host still slow
 * `evictAfterMinutes` into its episode is evicted then, which ends the episode. Null when
 * perHostDay is 0 (nothing is drawn). Dice: mulberry32 and the polar method, not the engine's.
 */
export function referenceSlowRun(s: Scenario, seed: number): SlowRun | null {
  const { perHostDay, medianMinutes, sigma, factor, evictAfterMinutes } = s.slow;
  if (perHostDay <= 0) return null;
  const { hosts, horizonSeconds: H } = derived(s);
  const perSecond = (hosts * perHostDay) / 86_400;
  const uniform = mulberry32(seed ^ 0x2f6b_3a91);
  const normal = gaussian(mulberry32(seed ^ 0x7c15_d04e));
  const evictAfter = evictAfterMinutes * 60;
  const episodes: Episode[] = [];
  for (let t = -Math.log(1 - uniform()) / perSecond; t < H; t += -Math.log(1 - uniform()) / perSecond) {
    const host = Math.floor(uniform() * hosts);
    const length = medianMinutes * 60 * Math.exp(sigma * normal());
    const evicted = evictAfter > 0 && length > evictAfter;
    episodes.push({ start: t, end: t + (evicted ? evictAfter : length), host, evicted });
  }
  return { factor, episodes };
}

/**
 * The failures with each eviction before the horizon added (host scope, a new host, cause −1,
 * found at once), in time order; a failure and an eviction at one instant: the failure first.
 * With lognormal repairs an evicted host's repair is drawn like a failed one's (`repair`).
 */
export function withReferenceEvictions(
  s: Scenario,
  failures: readonly Failure[],
  slow: SlowRun | null,
  repair: () => number[] | undefined = () => undefined,
): Failure[] {
  if (slow === null) return [...failures];
  const H = derived(s).horizonSeconds;
  const evictions: Failure[] = slow.episodes
    .filter((e) => e.evicted && e.end < H)
    .sort((a, b) => a.end - b.end)
    .map((e) => {
      const r = repair();
      return {
        time: e.end,
        scope: "host" as const,
        target: e.host,
        hang: false,
        newHost: true,
        cause: -1,
        evicted: true,
        ...(r ? { repair: r } : {}),
      };
    });
  const out: Failure[] = [];
  let j = 0;
  for (const f of failures) {
    while (j < evictions.length && evictions[j]!.time < f.time) out.push(evictions[j++]!);
    out.push(f);
  }
  return out.concat(evictions.slice(j));
}

/**
 * Who is slow, walked forward in time: each episode's host belongs to a group (the whole job: one
 * group; FT-HSDP: the host's replica), and after `advance(t)` `slowIn(g)` counts the episodes
 * active at t in group g (an episode is active on [start, end)). `next()` is the next instant at
 * which a count changes. Episodes past the horizon never matter.
 */
export class SlowWalk {
  private readonly changes: { time: number; group: number; delta: number }[] = [];
  private readonly counts: number[];
  private at = 0;

  constructor(slow: SlowRun | null, H: number, groups: number, groupOf: (host: number) => number) {
    this.counts = new Array(groups).fill(0);
    for (const e of slow?.episodes ?? []) {
      if (e.start >= H) continue;
      this.changes.push({ time: e.start, group: groupOf(e.host), delta: 1 });
      if (e.end < H) this.changes.push({ time: e.end, group: groupOf(e.host), delta: -1 });
    }
    this.changes.sort((a, b) => a.time - b.time);
  }

  advance(t: number): void {
    while (this.at < this.changes.length && this.changes[this.at]!.time <= t) {
      const c = this.changes[this.at++]!;
      this.counts[c.group]! += c.delta;
    }
  }

  slowIn(group: number): boolean {
    return this.counts[group]! > 0;
  }

  next(): number {
    return this.changes[this.at]?.time ?? Number.POSITIVE_INFINITY;
  }
}
