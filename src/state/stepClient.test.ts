import type { Remote } from "comlink";
import { describe, expect, it } from "vitest";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import type { SimWorkerApi } from "../worker/sim.worker.ts";
import { type StepRequest, stepApi } from "../worker/stepApi.ts";
import { PASTE_PART_CHARS, stepWorkerOn } from "./stepClient.ts";
import type { Supervised } from "./workerSupervisor.ts";

/** A list of `n` parameters, `n` × 4,096 float32 elements: long enough to go in parts. */
function list(n: number, tag: string): string {
  const rows = Array.from(
    { length: n },
    (_, i) => `{"name": "${tag}.layers.${i}.weight", "shape": [64, 64], "dtype": "torch.float32"}`,
  );
  return `[${rows.join(",\n")}]`;
}

/**
 * stepApi run in-process behind a supervisor stand-in that records what crossed to the "worker".
 * `restart()` stands for a dead worker replaced: a new proxy, which holds nothing yet.
 */
function inProcess(opts: { forgetOnce?: boolean } = {}) {
  const parts: string[] = [];
  const requests: StepRequest["model"][] = [];
  let forget = opts.forgetOnce ?? false;
  const makeApi = () =>
    ({
      stepHoldPaste: async (paste: number, part: string, last: boolean) => {
        parts.push(part);
        return stepApi.stepHoldPaste(paste, part, last);
      },
      stepRun: async (req: StepRequest) => {
        requests.push(req.model);
        if (forget) {
          forget = false;
          return { ok: false, error: "not held", entry: null, notHeld: true };
        }
        return stepApi.stepRun(req);
      },
      stepSweep: async (req: StepRequest) => {
        requests.push(req.model);
        return stepApi.stepSweep(req);
      },
      stepTrace: async (req: StepRequest) => stepApi.stepTrace(req),
    }) as unknown as Remote<SimWorkerApi>;
  let api = makeApi();
  const supervised = {
    call: (fn: (api: Remote<SimWorkerApi>, alive: () => void) => Promise<unknown>) => fn(api, () => {}),
    spawned: 1,
    terminate: () => {},
  } as unknown as Supervised<SimWorkerApi>;
  return {
    worker: stepWorkerOn(supervised),
    parts,
    requests,
    restart: () => {
      api = makeApi();
    },
  };
}

// Lists of megabytes parsed in-process on a shared machine: a generous guard, not a timing check.
describe("the step worker's client", { timeout: 60_000 }, () => {
  it("sends a long paste once, in parts, and names it in every request after", async () => {
    const text = list(15_000, "a");
    expect(text.length).toBeGreaterThan(PASTE_PART_CHARS);
    const w = inProcess();
    const model = { kind: "paste" as const, text };
    const run = await w.worker.stepRun({ model, config: DEFAULT_STEP_CONFIG });
    expect(run.ok && run.model.count).toBe(15_000);
    expect(run.ok && run.model.bytes).toBe(15_000 * 64 * 64 * 4);
    expect(w.parts.join("")).toBe(text);
    expect(Math.max(...w.parts.map((p) => p.length))).toBeLessThanOrEqual(PASTE_PART_CHARS);
    const sent = w.parts.length;
    // A slider move, the sweep: the list does not cross again, and the answers are the list's.
    const config = { ...DEFAULT_STEP_CONFIG, capMb: 5 };
    const [again, sweep] = await Promise.all([
      w.worker.stepRun({ model: { kind: "paste", text: text.slice(0, -1) + text.slice(-1) }, config }),
      w.worker.stepSweep({ model, config }),
    ]);
    expect(w.parts).toHaveLength(sent);
    expect(again.ok && again.model.count).toBe(15_000);
    expect(sweep.ok && sweep.sweep.points.length).toBe(40);
    expect(w.requests.every((m) => m.kind === "held")).toBe(true);
    // The same result as the list sent whole.
    expect(again).toEqual(stepApi.stepRun({ model, config }));
  });

  it("sends the list again to a restarted worker, and a new list under a new number", async () => {
    const w = inProcess();
    const a = { kind: "paste" as const, text: list(15_000, "a") };
    await w.worker.stepRun({ model: a, config: DEFAULT_STEP_CONFIG });
    const once = w.parts.length;
    w.restart();
    const run = await w.worker.stepRun({ model: a, config: DEFAULT_STEP_CONFIG });
    expect(run.ok && run.model.count).toBe(15_000);
    expect(w.parts).toHaveLength(2 * once);
    const b = { kind: "paste" as const, text: list(16_000, "b") };
    const other = await w.worker.stepRun({ model: b, config: DEFAULT_STEP_CONFIG });
    expect(other.ok && other.model.count).toBe(16_000);
    const [ra, rb] = w.requests.slice(-2);
    expect(ra?.kind === "held" && rb?.kind === "held" && ra.paste !== rb.paste).toBe(true);
  });

  it("sends the list again and retries when the worker no longer holds it", async () => {
    const w = inProcess({ forgetOnce: true });
    const text = list(15_000, "c");
    const run = await w.worker.stepRun({ model: { kind: "paste", text }, config: DEFAULT_STEP_CONFIG });
    expect(run.ok && run.model.count).toBe(15_000);
    expect(w.parts.join("")).toBe(text + text);
  });

  it("sends a short paste and a preset as they are", async () => {
    const w = inProcess();
    const text = list(3, "d");
    const run = await w.worker.stepRun({ model: { kind: "paste", text }, config: DEFAULT_STEP_CONFIG });
    expect(run.ok && run.model.count).toBe(3);
    await w.worker.stepRun({ model: { kind: "preset", id: "llama3-8b" }, config: DEFAULT_STEP_CONFIG });
    expect(w.parts).toHaveLength(0);
    expect(w.requests.map((m) => m.kind)).toEqual(["paste", "preset"]);
  });
});
