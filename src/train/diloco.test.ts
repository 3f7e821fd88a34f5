import { describe, expect, it } from "vitest";
import { DEFAULT_TRAIN, decodeTrainParam, encodeTrainParam, LINK_BASE } from "./config.ts";
import {
  ADAM_EPS,
  adamwStep,
  averaged,
  biasCorrections,
  dilocoFailureProblem,
  outerNesterov,
  participates,
  pseudoGradient,
  roundRoles,
  syncAt,
  WEIGHT_DECAY,
} from "./diloco.ts";

const f64 = (...xs: number[]) => Float64Array.from(xs);

describe("DiLoCo's outer step (float64)", () => {
  it("averages the participants' pseudo-gradients θ_outer − θᵣ", () => {
    const o = f64(1, 2, 3);
    const thetas = [f64(0.5, 2.5, 3), f64(1.5, 1, 2)];
    const deltas = thetas.map((t) => {
      const d = new Float64Array(3);
      pseudoGradient(o, t, d);
      return d;
    });
    expect([...averaged(deltas)]).toEqual([0, 0.25, 0.5]);
  });

  it("is Nesterov SGD as PyTorch's: b ← μb + Δ, θ ← θ − lr(Δ + μb), over two rounds", () => {
    const o = f64(1, -2);
    const b = f64(0, 0);
    outerNesterov(o, b, f64(0.1, -0.2), 0.7, 0.9);
    // b = Δ; step = Δ(1 + μ).
    expect(b[0]).toBeCloseTo(0.1, 15);
    expect(o[0]).toBeCloseTo(1 - 0.7 * 0.1 * 1.9, 15);
    expect(o[1]).toBeCloseTo(-2 + 0.7 * 0.2 * 1.9, 15);
    outerNesterov(o, b, f64(0.3, 0), 0.7, 0.9);
    const b2 = 0.9 * 0.1 + 0.3;
    expect(b[0]).toBeCloseTo(b2, 15);
    expect(o[0]).toBeCloseTo(1 - 0.7 * 0.1 * 1.9 - 0.7 * (0.3 + 0.9 * b2), 15);
    // No new pseudo-gradient: momentum alone still moves θ_outer.
    expect(b[1]).toBeCloseTo(-0.18, 15);
  });

  it("with lr 1 and no momentum is plain averaging of the replicas' weights", () => {
    const o = f64(1, 2);
    const thetas = [f64(3, 0), f64(0, 1), f64(-1, 5)];
    const d = averaged(
      thetas.map((t) => {
        const x = new Float64Array(2);
        pseudoGradient(o, t, x);
        return x;
      }),
    );
    outerNesterov(o, f64(0, 0), d, 1, 0);
    expect(o[0]).toBeCloseTo(2 / 3, 15);
    expect(o[1]).toBeCloseTo(2, 15);
  });
});

describe("the inner AdamW step (float64)", () => {
  it("moves each weight by lr·sign(g) on the first step (bias-corrected), after the decay", () => {
    const w = f64(1, 1, 1);
    const m = new Float64Array(3);
    const v = new Float64Array(3);
    const { bc1, bc2 } = biasCorrections(1);
    adamwStep(w, m, v, f64(0.5, -3, 1e-3), 0.01, bc1, bc2);
    const decayed = 1 - 0.01 * WEIGHT_DECAY;
    for (const [i, sign] of [1, -1, 1].entries()) {
      const g = [0.5, 3, 1e-3][i] as number;
      expect(w[i]).toBeCloseTo(decayed - sign * 0.01 * (g / (g + ADAM_EPS)), 12);
    }
    expect(m[0]).toBeCloseTo(0.05, 15);
    expect(v[1]).toBeCloseTo(0.009, 15);
  });
});

describe("DiLoCo's rounds (H = 10, R = 4)", () => {
  const H = 10;
  it("a replica struck mid-round loses its round, waits idle once back, and rejoins at the next round", () => {
    const fs = [{ replica: 1, step: 13, down: 3 }];
    expect(participates(fs, 1, 12, H)).toBe(true);
    expect(roundRoles(fs, 4, 13, H)).toEqual({ train: [0, 2, 3], lost: [1], idle: [], down: [1] });
    expect(roundRoles(fs, 4, 16, H)).toEqual({ train: [0, 2, 3], lost: [], idle: [1], down: [] });
    // The round commits without it; the next one counts it again.
    expect(syncAt(fs, 4, 20, H)).toEqual({ participants: [0, 2, 3], struck: [], discard: false });
    expect(roundRoles(fs, 4, 20, H).train).toEqual([0, 1, 2, 3]);
  });

  it("a participant struck in the sync (a failure at the round's boundary) discards the round for all", () => {
    const fs = [{ replica: 2, step: 20, down: 3 }];
    expect(syncAt(fs, 4, 20, H)).toEqual({ participants: [0, 1, 2, 3], struck: [2], discard: true });
    // It is down when the next round starts: not a participant; back for the one after.
    expect(roundRoles(fs, 4, 20, H).train).toEqual([0, 1, 3]);
    expect(roundRoles(fs, 4, 30, H).train).toEqual([0, 1, 2, 3]);
  });

  it("a replica that was not in the round (down, or idle) failing at the sync discards nothing", () => {
    const fs = [
      { replica: 1, step: 12, down: 2 },
      { replica: 1, step: 20, down: 2 },
    ];
    expect(syncAt(fs, 4, 20, H)).toEqual({ participants: [0, 2, 3], struck: [], discard: false });
  });

  it("refuses a failure that leaves a round nobody to commit it", () => {
    const fs = [{ replica: 0, step: 5, down: 2 }];
    expect(dilocoFailureProblem(fs, { replica: 1, step: 10, down: 2 }, 2, 40, H)).toBe(
      "no DiLoCo replica would be left to commit the round that ends at step 10",
    );
    expect(dilocoFailureProblem(fs, { replica: 1, step: 11, down: 2 }, 2, 40, H)).toBeNull();
  });
});

describe("the training link with DiLoCo", () => {
  it("old links read and write exactly as before: no d= part, the FT-HSDP comparison", () => {
    for (const old of ["h64.r4.n200.lr0.1.k25.s1.pnls.f1@60+30", "h32.r4.n100.lr0.1.k25.s2.pl.f"]) {
      const c = decodeTrainParam(old);
      expect(c.diloco).toBeNull();
      expect(encodeTrainParam(c)).toBe(old);
    }
    expect(decodeTrainParam("r6")).toEqual({ ...LINK_BASE, replicas: 6 });
  });

  it("round-trips DiLoCo's settings", () => {
    const c = { ...DEFAULT_TRAIN, diloco: { every: 20, innerLr: 0.005, outerLr: 0.5, outerMomentum: 0 } };
    const text = encodeTrainParam(c);
    expect(text).toBe("h64.r4.n200.lr0.1.k25.s1.pnls.f1@60+30.d20,0.005,0.5,0");
    expect(decodeTrainParam(text)).toEqual(c);
    const none = { ...c, failures: [] };
    expect(decodeTrainParam(encodeTrainParam(none))).toEqual(none);
  });

  it("refuses bad DiLoCo settings by name", () => {
    expect(() => decodeTrainParam("d0,0.01,0.7,0.9")).toThrow(
      /DiLoCo's H \(inner steps per round\) must be an integer in \[1, 1000\]/,
    );
    expect(() => decodeTrainParam("d10,0.5,0.7,0.9")).toThrow(
      /DiLoCo's inner lr must be a number in \(0, 0.1\]/,
    );
    expect(() => decodeTrainParam("d10,0.01,0.7,1")).toThrow(/outer momentum must be a number in \[0, 1\)/);
    expect(() => decodeTrainParam("d10,0.01")).toThrow(/must read H,inner lr,outer lr,outer momentum/);
    expect(() => decodeTrainParam("r2.f0@5+2,1@10+2.d10,0.01,0.7,0.9")).toThrow(
      /no DiLoCo replica would be left to commit the round that ends at step 10/,
    );
  });
});
