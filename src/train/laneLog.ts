/** What each replica of a run was doing when, as lanes of segments on the simulated clock. */
import type { LaneState, Segment } from "./run.ts";

export class LaneLog {
  readonly segments: Segment[] = [];
  private readonly last = new Map<number, Segment>();
  /** Simulated seconds so far. */
  t = 0;

  constructor(readonly replicas: number) {}

  private lane(replica: number, state: LaneState, t0: number, t1: number): void {
    if (t1 <= t0) return;
    const last = this.last.get(replica);
    if (last && last.state === state && last.t1 === t0) last.t1 = t1;
    else {
      const seg = { replica, state, t0, t1 };
      this.segments.push(seg);
      this.last.set(replica, seg);
    }
  }

  /** `seconds` pass; each replica spends them as `states` says. */
  pass(seconds: number, states: (r: number) => LaneState): void {
    for (let r = 0; r < this.replicas; r++) this.lane(r, states(r), this.t, this.t + seconds);
    this.t += seconds;
  }

  copy(): Segment[] {
    return this.segments.map((x) => ({ ...x }));
  }
}
