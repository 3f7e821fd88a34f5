/**
 * A DDP-shaped GPU trace, as Kineto writes one, built from stated figures so a test knows every
 * answer in advance: per step a forward kernel, one backward kernel per bucket (time ∝ bytes)
 * inside an autograd window, each bucket's all-reduce (`ncclDevKernel_AllReduce_Sum_f32_RING_LL`
 * with `In msg nelems` and `dtype`) taking exactly `interceptUs + usPerByte · bytes` on its own
 * stream once its gradient is ready and the previous all-reduce is done, then the optimizer.
 * Used by the trace tests, the e2e spec (as uploaded files) and bench/trace.bench.ts.
 */
export interface DdpTraceSpec {
  rank: number;
  worldSize: number;
  steps: number;
  /** Bucket sizes in all-reduce order. */
  buckets: readonly number[];
  forwardUs: number;
  /** Backward compute per gradient byte. */
  backwardUsPerByte: number;
  optimizerUs: number;
  interceptUs: number;
  usPerByte: number;
  /** This rank starts every all-reduce this much later (µs): a straggler. */
  lateUs?: number;
}

export type TraceEvent = Record<string, unknown>;

const FIRST_STEP = 5;

/** Length of one step window (µs): everything fits, with a 100 µs lead and tail. */
export function stepLengthUs(s: DdpTraceSpec): number {
  const bwd = s.buckets.reduce((t, b) => t + b * s.backwardUsPerByte, 0);
  const comm =
    s.buckets.reduce((t, b) => t + s.interceptUs + s.usPerByte * b, 0) + (s.lateUs ?? 0) * s.buckets.length;
  return Math.ceil(200 + s.forwardUs + bwd + comm + s.optimizerUs);
}

/** The events of step k (0-based), with correlation ids unique across steps. */
export function ddpStepEvents(s: DdpTraceSpec, k: number): TraceEvent[] {
  const len = stepLengthUs(s);
  const t0 = 1000 + k * len;
  let corr = k * 1000 + 1;
  const ev: TraceEvent[] = [
    {
      ph: "X",
      cat: "user_annotation",
      name: `ProfilerStep#${FIRST_STEP + k}`,
      ts: t0,
      dur: len,
      pid: 1,
      tid: 1,
    },
  ];
  const kernel = (
    name: string,
    start: number,
    dur: number,
    stream: number,
    launchAt: number,
    args: TraceEvent = {},
  ) => {
    const c = corr++;
    ev.push({
      ph: "X",
      cat: "cuda_runtime",
      name: "cudaLaunchKernel",
      ts: launchAt,
      dur: 1,
      pid: 1,
      tid: 1,
      args: { correlation: c },
    });
    ev.push({
      ph: "X",
      cat: "kernel",
      name,
      ts: start,
      dur,
      pid: 0,
      tid: stream,
      args: { ...args, stream, correlation: c, device: 0 },
    });
  };
  kernel(
    "sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
    t0 + 100,
    s.forwardUs,
    7,
    t0 + 10,
  );
  const bwdStart = t0 + 100 + s.forwardUs;
  let t = bwdStart;
  let commFree = 0;
  const bwdLaunch = t0 + 20;
  s.buckets.forEach((bytes, i) => {
    const d = bytes * s.backwardUsPerByte;
    kernel(
      "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nt_align4>",
      t,
      d,
      7,
      bwdLaunch + 2 * i,
    );
    t += d;
    const start = Math.max(t, commFree) + (s.lateUs ?? 0);
    const dur = s.interceptUs + s.usPerByte * bytes;
    kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", start, dur, 13, bwdLaunch + 2 * i + 1, {
      "In msg nelems": bytes / 4,
      "Out msg nelems": bytes / 4,
      dtype: "Float",
    });
    commFree = start + dur;
  });
  ev.push({
    ph: "X",
    cat: "cpu_op",
    name: "autograd::engine::evaluate_function: AddmmBackward0",
    ts: bwdLaunch - 1,
    dur: 2 * s.buckets.length + 2,
    pid: 1,
    tid: 2,
  });
  const optLaunch = bwdLaunch + 2 * s.buckets.length + 5;
  kernel(
    "void at::native::multi_tensor_apply_kernel<SGD>",
    Math.max(t, commFree),
    s.optimizerUs,
    7,
    optLaunch,
  );
  return ev;
}

/** The whole trace's text. */
export function ddpGpuTrace(s: DdpTraceSpec): string {
  const events: TraceEvent[] = [];
  for (let k = 0; k < s.steps; k++) events.push(...ddpStepEvents(s, k));
  return JSON.stringify({
    schemaVersion: 1,
    distributedInfo: { backend: "nccl", rank: s.rank, world_size: s.worldSize },
    deviceProperties: [{ id: 0, name: "NVIDIA H100 80GB HBM3" }],
    traceEvents: events,
  });
}

/** The example the tests and the e2e spec open: 4 buckets, 4 steps, 2 ranks, rank 1 late by 30 µs. */
export function exampleSpec(rank: number): DdpTraceSpec {
  return {
    rank,
    worldSize: 2,
    steps: 4,
    buckets: [1_048_576, 4_194_304, 8_388_608, 2_097_152],
    forwardUs: 3000,
    backwardUsPerByte: 0.0004,
    optimizerUs: 500,
    interceptUs: 40,
    usPerByte: 0.0002,
    lateUs: rank === 1 ? 30 : 0,
  };
}
