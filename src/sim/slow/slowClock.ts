/**
 * A whole-job policy's training under slow episodes (docs/model.md §6): the job advances at
 * 1/factor while any host is slow, else at 1, and its checkpoint timer counts training (progress),
 * so a slow stretch pushes its checkpoints later in wall time. The rate is piecewise constant
 * between the union's boundaries; the clock walks a training segment piece by piece, jumping over
 * whole checkpoint cycles inside a piece, so its cost grows with the boundaries, not the steps.
 *
 * Segments are visited in increasing time (a policy trains forward), so the cursor only moves on.
 */

/** What walk() leaves in `out`, by slot. */
export const SlowOut = {
  /** Checkpoints completed in the segment. */
  completed: 0,
  /** Progress since the last completed checkpoint (or the segment's start): what a rollback loses. */
  pending: 1,
  /** Wall time where that pending training began. */
  pendingFrom: 2,
  /** Wall time where it ended (a write cut short may follow, until the segment's end). */
  pendingEnd: 3,
  /** Wall seconds spent writing, a write cut short at the end included. */
  writeSeconds: 4,
  /** ∫ (1 − rate) over the training time: the `slow` badput. */
  slowLoss: 5,
  /** Progress over the segment, rolled back or not. */
  progress: 6,
} as const;

/** A callback a recording run gives: progress curve points and write intervals. */
export interface SlowClockRecorder {
  point(t: number, progressSinceStart: number): void;
  write(start: number, end: number): void;
}

export class SlowClock {
  private j = 0;
  readonly out = new Float64Array(7);

  constructor(
    private readonly start: Float64Array,
    private readonly end: Float64Array,
    private readonly factor: number,
  ) {}

  /** True when a slow interval overlaps [a, b); moves the cursor past those that end by a. */
  overlaps(a: number, b: number): boolean {
    const { start, end } = this;
    while (this.j < end.length && end[this.j]! <= a) this.j++;
    return this.j < end.length && start[this.j]! < b;
  }

  /**
   * Train from a (a cycle's start) to b: cycles of C of progress then a write of W wall seconds
   * (C = 0: no checkpoints, nothing pending). A write ending at b completes; one cut short is lost.
   */
  walk(a: number, b: number, C: number, W: number, rec: SlowClockRecorder | null): Float64Array {
    const { start, end, factor, out } = this;
    let j = this.j;
    let t = a;
    let progress = 0;
    let slowLoss = 0;
    let completed = 0;
    let writeSeconds = 0;
    let need = C;
    let inWrite = false;
    let writeLeft = 0;
    let pendingFrom = a;
    let pendingEnd = a;
    let pendingStart = 0;
    rec?.point(a, 0);
    while (t < b || (inWrite && t + writeLeft <= b)) {
      if (inWrite) {
        const we = t + writeLeft;
        if (we <= b) {
          writeSeconds += writeLeft;
          rec?.write(t, we);
          t = we;
          completed++;
          inWrite = false;
          need = C;
          pendingFrom = t;
          pendingEnd = t;
          pendingStart = progress;
        } else {
          // Cut short (lost): the caller draws it after what it rolls back, as the cycle arithmetic does.
          writeSeconds += b - t;
          t = b;
        }
        continue;
      }
      while (j < end.length && end[j]! <= t) j++;
      const slow = j < end.length && start[j]! <= t;
      const boundary = slow ? end[j]! : j < end.length ? start[j]! : Number.POSITIVE_INFINITY;
      const lim = Math.min(boundary, b);
      const r = slow ? 1 / factor : 1;
      const wallPerProgress = slow ? factor : 1;
      if (C <= 0) {
        const dp = (lim - t) * r;
        progress += dp;
        if (slow) slowLoss += lim - t - dp;
        t = lim;
        rec?.point(t, progress);
        continue;
      }
      // Whole cycles inside this piece at once. A recording run takes the same arithmetic (a
      // policy's metrics must not depend on whether it records) and lists the cycles beside it.
      if (need === C) {
        const cyc = C * wallPerProgress + W;
        const m = Math.floor((lim - t) / cyc);
        if (m > 0) {
          if (rec)
            for (let i = 0; i < m; i++) {
              const te = t + i * cyc + C * wallPerProgress;
              rec.point(te, progress + (i + 1) * C);
              rec.write(te, te + W);
            }
          completed += m;
          progress += m * C;
          writeSeconds += m * W;
          if (slow) slowLoss += m * C * (factor - 1);
          t += m * cyc;
          pendingFrom = t;
          pendingEnd = t;
          pendingStart = progress;
          continue;
        }
      }
      const tNeed = t + need * wallPerProgress;
      if (tNeed <= lim) {
        progress += need;
        if (slow) slowLoss += tNeed - t - need;
        t = tNeed;
        need = 0;
        pendingEnd = t;
        rec?.point(t, progress);
        inWrite = true;
        writeLeft = W;
      } else {
        const dp = (lim - t) * r;
        progress += dp;
        need -= dp;
        if (slow) slowLoss += lim - t - dp;
        t = lim;
        pendingEnd = t;
        rec?.point(t, progress);
      }
    }
    this.j = j;
    // Summed piece by piece, progress can round a hair past the segment's training time (ETTR
    // above 1 over ~10⁵ pieces): without checkpoints it is that time less the slow loss, exactly;
    // with them it is capped there, and what is pending never exceeds it (no negative ETTR).
    const total = C <= 0 ? b - a - slowLoss : Math.min(progress, b - a - writeSeconds - slowLoss);
    out[SlowOut.completed] = completed;
    out[SlowOut.pending] = C <= 0 ? 0 : Math.max(0, Math.min(progress - pendingStart, total));
    out[SlowOut.pendingFrom] = C <= 0 ? b : pendingFrom;
    out[SlowOut.pendingEnd] = C <= 0 ? b : pendingEnd;
    out[SlowOut.writeSeconds] = writeSeconds;
    out[SlowOut.slowLoss] = slowLoss;
    out[SlowOut.progress] = total;
    return out;
  }
}
