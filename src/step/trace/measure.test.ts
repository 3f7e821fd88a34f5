/**
 * HTA's definitions on small GPU-shaped traces built here, every figure worked by hand below.
 *
 * Steps (µs): ProfilerStep#10 [1000, 2000), #11 [2000, 3000), #12 [3000, 4000) (the last).
 * Step 10: compute K1 [1100, 1400), K2 [1500, 1800) on stream 7; all-reduce C1 [1300, 1600) on
 *   stream 13 and C2 [1550, 1900) on stream 14 (two comm streams, overlapping each other);
 *   a memcpy [1850, 1950).
 * Step 11: compute K3 [2100, 2500); ncclDevKernel_Generic C3 [2400, 2700).
 * Step 12: comm C4 [3100, 3500), compute K4 [3100, 3200).
 * K0 [500, 900) is launched at 400, before every step: dropped.
 */
import { describe, expect, it } from "vitest";
import { measureRank } from "./measure.ts";
import { measureSet } from "./ranks.ts";
import { readTraceText } from "./readTrace.ts";
import { TraceError } from "./traceError.ts";

type Ev = Record<string, unknown>;

function kernel(name: string, start: number, end: number, stream: number, corr: number, cat = "kernel"): Ev {
  return {
    ph: "X",
    cat,
    name,
    ts: start,
    dur: end - start,
    pid: 0,
    tid: stream,
    args: { stream, correlation: corr },
  };
}
function launch(corr: number, ts: number): Ev {
  return {
    ph: "X",
    cat: "cuda_runtime",
    name: "cudaLaunchKernel",
    ts,
    dur: 5,
    pid: 1,
    tid: 1,
    args: { correlation: corr },
  };
}
function step(n: number, start: number): Ev {
  return { ph: "X", cat: "user_annotation", name: `ProfilerStep#${n}`, ts: start, dur: 1000, pid: 1, tid: 1 };
}

/** The trace above; `late` delays rank's first all-reduce (C1) by that many µs. */
function gpuTrace(rank: number, late = 0, extra: Ev[] = []): string {
  const events: Ev[] = [
    step(10, 1000),
    step(11, 2000),
    step(12, 3000),
    kernel("volta_sgemm_128x64_nn", 500, 900, 7, 9),
    launch(9, 400),
    kernel("volta_sgemm_128x64_nn", 1100, 1400, 7, 1),
    launch(1, 1050),
    kernel("void at::native::vectorized_elementwise_kernel", 1500, 1800, 7, 2),
    launch(2, 1450),
    kernel("ncclKernel_AllReduce_RING_LL_Sum_float", 1300 + late, 1600, 13, 3),
    launch(3, 1250),
    kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 1550, 1900, 14, 4),
    launch(4, 1260),
    kernel("Memcpy DtoD (Device -> Device)", 1850, 1950, 7, 5, "gpu_memcpy"),
    launch(5, 1840),
    kernel("sm80_xmma_gemm", 2100, 2500, 7, 7),
    launch(7, 2050),
    kernel("ncclDevKernel_Generic", 2400, 2700, 13, 8),
    launch(8, 2060),
    kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 3100, 3500, 13, 10),
    launch(10, 3050),
    kernel("sm80_xmma_gemm", 3100, 3200, 7, 11),
    launch(11, 3060),
    ...extra,
  ];
  return JSON.stringify({
    schemaVersion: 1,
    distributedInfo: { backend: "nccl", rank, world_size: 2 },
    deviceProperties: [{ id: 0, name: "NVIDIA H100 80GB HBM3" }],
    traceEvents: events,
  });
}

const measure = (text: string, allSteps = false, file = "t.json") =>
  measureRank(readTraceText(file, text), 0, { allSteps });

describe("HTA's figures on a hand-built GPU trace", () => {
  it("assigns kernels to steps by their launch and drops the last step", () => {
    const f = measure(gpuTrace(0));
    expect(f.steps.map((s) => s.name)).toEqual(["ProfilerStep#10", "ProfilerStep#11"]);
    // K0 (launched before every step) and step 12's two kernels are gone: 10 − 1 − 2 = 7 kept.
    expect(f.activities).toHaveLength(7);
    expect(f.notes.join(" ")).toMatch(/outside every step/);
    expect(f.device).toBe("NVIDIA H100 80GB HBM3");
    expect(f.rank).toBe(0);
    expect(f.worldSize).toBe(2);
  });

  it("a kernel without a size takes the size of the record_param_comms op around its launch", () => {
    // C3 (ncclDevKernel_Generic, launched at 2060) carries no size: the op [2055, 2065) has one.
    // A second op holding the same launch, later in the trace, is not the one taken.
    const op = (ts: number, nelems: number, dtype: string): Ev => ({
      ph: "X",
      cat: "cpu_op",
      name: "record_param_comms",
      ts,
      dur: 10,
      pid: 1,
      tid: 1,
      args: { "In msg nelems": nelems, dtype },
    });
    const f = measure(gpuTrace(0, 0, [op(2055, 1000, "Float"), op(2050, 7, "Half")]));
    const c3 = f.activities.find((a) => a.name === "ncclDevKernel_Generic");
    expect(c3?.bytes).toBe(4000);
    // Without an op around its launch it stays unsized.
    const bare = measure(gpuTrace(0, 0, [op(2070, 1000, "Float")]));
    expect(bare.activities.find((a) => a.name === "ncclDevKernel_Generic")?.bytes).toBeNull();
  });

  it("overlap per step: |merged comm ∩ merged compute| / |merged comm|", () => {
    const f = measure(gpuTrace(0));
    // Step 10: comm merges to [1300, 1900) = 600 µs; compute ∩ = [1300,1400) + [1500,1800) = 400.
    expect(f.steps[0]?.commMs).toBeCloseTo(0.6, 9);
    expect(f.steps[0]?.overlapPct).toBeCloseTo((100 * 400) / 600, 2);
    expect(f.steps[0]?.exposedCommMs).toBeCloseTo(0.2, 9);
    // Step 11: comm [2400, 2700) = 300; ∩ [2400, 2500) = 100.
    expect(f.steps[1]?.overlapPct).toBeCloseTo((100 * 100) / 300, 2);
    expect(f.steps[1]?.ms).toBe(1);
    // The rank: (400 + 100) / (600 + 300).
    expect(f.commMs).toBeCloseTo(0.9, 9);
    expect(f.overlapPct).toBeCloseTo((100 * 500) / 900, 2);
  });

  it("keeps the last step with allSteps", () => {
    const f = measure(gpuTrace(0), true);
    expect(f.steps).toHaveLength(3);
    // Step 12: comm [3100, 3500) = 400; ∩ [3100, 3200) = 100.
    expect(f.steps[2]?.overlapPct).toBeCloseTo(25, 9);
    expect(f.activities).toHaveLength(9);
  });

  it("temporal breakdown: idle, compute, non-compute within the kernels' span", () => {
    const t = measure(gpuTrace(0)).temporal;
    // All kept activities merge to [1100, 1950) and [2100, 2700): span 1600, busy 1450.
    expect(t?.kernelMs).toBeCloseTo(1.6, 9);
    expect(t?.idleMs).toBeCloseTo(0.15, 9);
    // Compute merges to 300 + 300 + 400.
    expect(t?.computeMs).toBeCloseTo(1.0, 9);
    expect(t?.nonComputeMs).toBeCloseTo(0.45, 9);
    expect(t?.idlePct).toBe(9.38); // 150 / 1600 = 9.375 %, to two places as HTA rounds
  });

  it("kernel-type breakdown: each class and each overlap of classes", () => {
    const k = measure(gpuTrace(0)).kernelTypes;
    // compute alone 200 + 300; comm alone 100 + 50 + 200; both 100 + 300 + 100;
    // comm with the memcpy 50; memcpy alone 50. Total 1450.
    expect(k.COMPUTATION?.ms).toBeCloseTo(0.5, 9);
    expect(k.COMMUNICATION?.ms).toBeCloseTo(0.35, 9);
    expect(k["COMPUTATION overlapping COMMUNICATION"]?.ms).toBeCloseTo(0.5, 9);
    expect(k["COMMUNICATION overlapping MEMORY"]?.ms).toBeCloseTo(0.05, 9);
    expect(k.MEMORY?.ms).toBeCloseTo(0.05, 9);
    expect(k.COMMUNICATION?.pct).toBe(24.1); // 350 / 1450, to one decimal as HTA rounds
  });

  it("reads the same in 7-character pieces as whole", () => {
    const text = gpuTrace(0);
    const whole = measureRank(readTraceText("t", text, text.length), 0, { allSteps: false });
    const pieces = measureRank(readTraceText("t", text, 7), 0, { allSteps: false });
    expect(pieces).toEqual(whole);
  });
});

describe("several ranks", () => {
  it("late start: how far behind the earliest rank each rank starts the same collective", () => {
    const set = measureSet([readTraceText("a", gpuTrace(0)), readTraceText("b", gpuTrace(1, 50))], {
      allSteps: false,
    });
    // Three calls every rank ran (two all-reduces in step 10, one Generic in step 11); rank 1
    // starts the first 50 µs late.
    expect(set.lateStart).toEqual([
      { rank: 0, meanMs: 0, maxMs: 0, calls: 3 },
      { rank: 1, meanMs: expect.closeTo(0.05 / 3, 9), maxMs: expect.closeTo(0.05, 9), calls: 3 },
    ]);
  });

  it("refuses a rank given twice and ranks of different jobs, by name", () => {
    const twice = () =>
      measureSet([readTraceText("a", gpuTrace(0)), readTraceText("b", gpuTrace(0))], { allSteps: false });
    expect(twice).toThrow(
      expect.objectContaining({
        kind: "duplicateRank",
        message: expect.stringMatching(/rank 0 is given twice: a and b/),
      }),
    );
    const other = gpuTrace(1).replace('"world_size":2', '"world_size":8');
    const jobs = () =>
      measureSet([readTraceText("a", gpuTrace(0)), readTraceText("b", other)], { allSteps: false });
    expect(jobs).toThrow(expect.objectContaining({ kind: "differentJobs" }));
  });
});

describe("bad input, each named", () => {
  const kindOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof TraceError ? e.kind : `other: ${String(e)}`;
    }
    return "accepted";
  };

  it("not a trace, cut-off JSON, no traceEvents", () => {
    expect(kindOf(() => readTraceText("x", "hello"))).toBe("notTrace");
    expect(kindOf(() => readTraceText("x", '{"foo": 1, "bar": [1, 2]}'))).toBe("notTrace");
    expect(kindOf(() => readTraceText("x", ""))).toBe("notTrace");
    expect(kindOf(() => readTraceText("x", gpuTrace(0).slice(0, 900)))).toBe("truncated");
    expect(kindOf(() => readTraceText("x", '{"traceEvents": [{"ph": "X", "name": }]}'))).toBe("notTrace");
  });

  it("a trace without steps is measured whole, and says so", () => {
    const text = JSON.stringify({
      traceEvents: [
        kernel("sgemm", 0, 100, 7, 1),
        launch(1, 0),
        kernel("ncclKernel_AllReduce", 50, 150, 13, 2),
        launch(2, 0),
      ],
    });
    const f = measure(text);
    expect(f.steps).toEqual([]);
    expect(f.notes.join(" ")).toMatch(/no ProfilerStep.*whole trace/);
    // comm [50, 150), ∩ compute [50, 100): 50 %.
    expect(f.overlapPct).toBe(50);
    expect(f.notes.join(" ")).toMatch(/no distributedInfo/);
  });

  it("a trace without kernels or collectives says nothing communicates", () => {
    const f = measure(
      JSON.stringify({
        traceEvents: [step(1, 0), { ph: "X", cat: "cpu_op", name: "aten::mm", ts: 10, dur: 5 }],
      }),
    );
    expect(f.mode).toBe("cpu");
    expect(f.overlapPct).toBeNull();
    expect(f.notes.join(" ")).toMatch(/nothing communicates/);
  });

  it("negative and NaN durations are skipped and counted", () => {
    const bad = [
      { ph: "X", cat: "kernel", name: "neg", ts: 1200, dur: -5, args: { stream: 7, correlation: 1 } },
      { ph: "X", cat: "kernel", name: "nan", ts: 1200, dur: "NaN", args: { stream: 7, correlation: 1 } },
    ];
    const f = measure(gpuTrace(0, 0, bad));
    expect(f.notes.join(" ")).toMatch(
      /2 events with a negative, NaN or missing ts\/dur skipped \(first: "neg"\)/,
    );
    expect(f.overlapPct).toBeCloseTo((100 * 500) / 900, 2); // nothing else changed
  });

  it("the older chrome-trace array (PyTorch 1.x) is read", () => {
    const f = measure(
      JSON.stringify([
        step(1, 0),
        { ph: "X", name: "gloo:all_reduce", ts: 10, dur: 40, tid: 3 },
        { ph: "X", name: "aten::mm", ts: 0, dur: 30, tid: 1 },
      ]),
      true,
      "rank3.json",
    );
    expect(f.rank).toBe(3);
    // comm [10, 50), compute [0, 30): 20 / 40.
    expect(f.overlapPct).toBe(50);
  });
});
