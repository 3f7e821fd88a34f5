/**
 * A training run's settings, checked with messages that name the field and its range, and their
 * form in the share link (`t=`): short, readable, e.g. `h128.r4.n200.lr0.1.k25.s7.pnls.f1@60+20`.
 */
import { dilocoFailureProblem } from "./diloco.ts";
import { type Failure, failureProblem, LR_POLICIES, type LrPolicy } from "./plan.ts";

export const HIDDEN_SIZES = [32, 64, 128, 192] as const;
export const BATCH_PER_REPLICA = 16;
export const MOMENTUM = 0.9;
/** Held-out loss and accuracy are measured every this many steps (and after the last). */
export const EVAL_EVERY = 10;

export interface TrainConfig {
  /** Width of both hidden layers. */
  hidden: number;
  replicas: number;
  steps: number;
  lr: number;
  /** The synchronous baseline checkpoints every this many steps. */
  checkpointEvery: number;
  seed: number;
  /** Which FT-HSDP lr policies to train (each is one run). */
  policies: LrPolicy[];
  failures: Failure[];
  /** DiLoCo mode (null: the FT-HSDP comparison): DDP and DiLoCo, both with inner AdamW. */
  diloco: DilocoConfig | null;
}

export interface DilocoConfig {
  /** H: inner steps per round. */
  every: number;
  /** AdamW's learning rate: DiLoCo's inner steps and the DDP run's steps. */
  innerLr: number;
  /** The outer Nesterov SGD's learning rate and momentum. */
  outerLr: number;
  outerMomentum: number;
}

/**
 * DiLoCo mode's defaults. The outer optimizer is the paper's (Nesterov SGD, lr 0.7, momentum
 * 0.9). The paper's H = 500 and inner lr 4·10⁻⁴ are for a 150M-parameter transformer over 88,000
 * steps; here a run is 200 steps, so H = 10 (20 rounds) and AdamW at 0.01, measured in float64
 * on the defaults (h64, R = 4, seeds 1–3): DDP with AdamW at 0.01 falls to 0.57–0.62 by step 200
 * and DiLoCo H = 10 to 0.64–0.79 (at 0.003 neither gets below 0.8 in 200 steps; at 0.02, or at
 * H = 5 where the outer momentum overshoots, DiLoCo's loss swings); at H = 20 fewer rounds leave
 * q too coarse to read.
 */
export const DEFAULT_DILOCO: DilocoConfig = { every: 10, innerLr: 0.01, outerLr: 0.7, outerMomentum: 0.9 };

/**
 * What the view starts with. lr 0.1 on 64 units: the held-out loss falls steadily (seed 1: 1.48
 * at step 20, 0.65 at step 200) where lr 0.3 swung between 0.7 and 1.3, and a run takes half
 * the time of 128 units on a software adapter.
 */
export const DEFAULT_TRAIN: TrainConfig = {
  hidden: 64,
  replicas: 4,
  steps: 200,
  lr: 0.1,
  checkpointEvery: 25,
  seed: 1,
  policies: ["none", "linear", "sqrt"],
  failures: [{ replica: 1, step: 60, down: 30 }],
  diloco: null,
};

/**
 * The defaults a `t=` value's missing fields take: the view's defaults when links were first
 * written, frozen, so a link keeps its meaning after DEFAULT_TRAIN changes. (The app writes every
 * field; only a shortened link lacks some.)
 */
export const LINK_BASE: TrainConfig = {
  hidden: 128,
  replicas: 4,
  steps: 200,
  lr: 0.3,
  checkpointEvery: 25,
  seed: 1,
  policies: ["none", "linear", "sqrt"],
  failures: [{ replica: 1, step: 60, down: 30 }],
  diloco: null,
};

export class TrainConfigError extends Error {}

/** The most failures a run's list holds (scheduled and killed by the button together). */
export const MAX_FAILURES = 16;

function intIn(field: string, v: number, lo: number, hi: number): void {
  if (!Number.isInteger(v) || v < lo || v > hi)
    throw new TrainConfigError(`${field} must be an integer in [${lo}, ${hi}], got ${v}`);
}

/** Throws TrainConfigError naming the first bad field. */
export function checkTrainConfig(c: TrainConfig): TrainConfig {
  if (!(HIDDEN_SIZES as readonly number[]).includes(c.hidden))
    throw new TrainConfigError(`hidden width must be one of ${HIDDEN_SIZES.join(", ")}, got ${c.hidden}`);
  intIn("replicas", c.replicas, 2, 8);
  intIn("steps", c.steps, 10, 2000);
  if (!(c.lr > 0 && c.lr <= 1)) throw new TrainConfigError(`lr must be a number in (0, 1], got ${c.lr}`);
  intIn("checkpoint interval", c.checkpointEvery, 1, 1000);
  intIn("seed", c.seed, 0, 4_294_967_295);
  if (c.policies.length === 0 || c.policies.some((p) => !LR_POLICIES.includes(p)))
    throw new TrainConfigError(`lr policies must be some of ${LR_POLICIES.join(", ")}`);
  if (c.failures.length > MAX_FAILURES) throw new TrainConfigError(`at most ${MAX_FAILURES} failures`);
  const ok: Failure[] = [];
  for (const f of c.failures) {
    const why = failureProblem(ok, f, c.replicas, c.steps);
    if (why) throw new TrainConfigError(`failure "replica ${f.replica} at step ${f.step}": ${why}`);
    ok.push(f);
  }
  const d = c.diloco;
  if (d) {
    intIn("DiLoCo's H (inner steps per round)", d.every, 1, 1000);
    if (!(d.innerLr > 0 && d.innerLr <= 0.1))
      throw new TrainConfigError(`DiLoCo's inner lr must be a number in (0, 0.1], got ${d.innerLr}`);
    if (!(d.outerLr > 0 && d.outerLr <= 2))
      throw new TrainConfigError(`DiLoCo's outer lr must be a number in (0, 2], got ${d.outerLr}`);
    if (!(d.outerMomentum >= 0 && d.outerMomentum < 1))
      throw new TrainConfigError(
        `DiLoCo's outer momentum must be a number in [0, 1), got ${d.outerMomentum}`,
      );
    const ds: Failure[] = [];
    for (const f of c.failures) {
      const why = dilocoFailureProblem(ds, f, c.replicas, c.steps, d.every);
      if (why) throw new TrainConfigError(`failure "replica ${f.replica} at step ${f.step}": ${why}`);
      ds.push(f);
    }
  }
  return c;
}

const POLICY_LETTER: Record<LrPolicy, string> = { none: "n", linear: "l", sqrt: "s" };

export function failuresText(fs: readonly Failure[]): string {
  return fs.map((f) => `${f.replica}@${f.step}+${f.down}`).join(",");
}

/** "1@60+20, 2@120+10": replica @ step + steps down. */
export function parseFailures(text: string): Failure[] {
  const t = text.trim();
  if (t === "") return [];
  return t.split(",").map((part) => {
    const m = /^\s*(\d+)\s*@\s*(\d+)\s*\+\s*(\d+)\s*$/.exec(part);
    if (!m) throw new TrainConfigError(`failure "${part.trim()}" must read replica@step+down, e.g. 1@60+20`);
    return { replica: Number(m[1]), step: Number(m[2]), down: Number(m[3]) };
  });
}

export function encodeTrainParam(c: TrainConfig): string {
  const policies = c.policies.map((p) => POLICY_LETTER[p]).join("");
  const parts = [
    `h${c.hidden}`,
    `r${c.replicas}`,
    `n${c.steps}`,
    `lr${c.lr}`,
    `k${c.checkpointEvery}`,
    `s${c.seed}`,
  ];
  parts.push(`p${policies}`, `f${failuresText(c.failures)}`);
  // Only a DiLoCo run names it: every link written before keeps its exact text.
  const d = c.diloco;
  if (d) parts.push(`d${d.every},${d.innerLr},${d.outerLr},${d.outerMomentum}`);
  return parts.join(".");
}

/** The settings a `t=` value stands for (fields it lacks take LINK_BASE's), checked. */
export function decodeTrainParam(value: string): TrainConfig {
  const c: TrainConfig = { ...LINK_BASE, failures: [...LINK_BASE.failures] };
  // lr holds a dot of its own: split on dots that start a known key (an empty failure list, `f`,
  // may be followed by DiLoCo's `.d…`).
  for (const part of decodeURIComponent(value).split(/\.(?=(?:h|r|n|lr|k|s|p|f|d)(?:\d|[nls]|$|@|\.))/)) {
    const m = /^(lr|h|r|n|k|s|p|f|d)(.*)$/.exec(part);
    if (!m) throw new TrainConfigError(`the training link part "${part}" is not understood`);
    const [, key, raw = ""] = m;
    if (key === "d") c.diloco = parseDiloco(raw);
    else if (key === "p") {
      const letters = [...raw];
      const back = Object.entries(POLICY_LETTER);
      c.policies = letters.map((l) => {
        const hit = back.find(([, v]) => v === l);
        if (!hit) throw new TrainConfigError(`lr policy letter "${l}" must be one of n, l, s`);
        return hit[0] as LrPolicy;
      });
    } else if (key === "f") c.failures = parseFailures(raw);
    else {
      const n = Number(raw);
      if (raw === "" || !Number.isFinite(n)) throw new TrainConfigError(`"${part}" needs a number`);
      if (key === "h") c.hidden = n;
      else if (key === "r") c.replicas = n;
      else if (key === "n") c.steps = n;
      else if (key === "lr") c.lr = n;
      else if (key === "k") c.checkpointEvery = n;
      else c.seed = n;
    }
  }
  return checkTrainConfig(c);
}

/** `d10,0.01,0.7,0.9`: H, inner lr, outer lr, outer momentum. */
function parseDiloco(raw: string): DilocoConfig {
  const xs = raw.split(",");
  const nums = xs.map(Number);
  if (xs.length !== 4 || xs.some((x) => x.trim() === "") || nums.some((n) => !Number.isFinite(n)))
    throw new TrainConfigError(
      `DiLoCo's settings "d${raw.slice(0, 40)}" must read H,inner lr,outer lr,outer momentum, e.g. d10,0.01,0.7,0.9`,
    );
  const [every, innerLr, outerLr, outerMomentum] = nums as [number, number, number, number];
  return { every, innerLr, outerLr, outerMomentum };
}
