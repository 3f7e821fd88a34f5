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
  /**
   * The other rank's compute, when it differs (a slowed rank): each all-reduce ends only once
   * both ranks have started it, as NCCL's kernel waits in place for its peer. Give each rank the
   * other's figures and the two traces agree on when every all-reduce ends.
   */
  peer?: { forwardUs: number; backwardUsPerByte: number };
  /**
   * When given, the step window ends this long after the optimizer's kernel (the CPU waits for
   * the GPU, as DDP's step does) instead of the roomy fixed length, so the step's time is its work.
   */
  tailUs?: number;
}

export type TraceEvent = Record<string, unknown>;

const FIRST_STEP = 5;

/** Length of one step window (µs): everything fits, with a 100 µs lead and tail. */
export function stepLengthUs(s: DdpTraceSpec): number {
  if (s.tailUs !== undefined) return Math.ceil(schedule(s, 0).optimizerEnd + s.tailUs);
  const bwd = s.buckets.reduce((t, b) => t + b * s.backwardUsPerByte, 0);
  const comm =
    s.buckets.reduce((t, b) => t + s.interceptUs + s.usPerByte * b, 0) + (s.lateUs ?? 0) * s.buckets.length;
  return Math.ceil(200 + s.forwardUs + bwd + comm + s.optimizerUs);
}

interface Schedule {
  /** Per bucket (µs): its backward kernel, its all-reduce. */
  backward: { start: number; dur: number }[];
  comm: { start: number; dur: number }[];
  optimizerStart: number;
  optimizerEnd: number;
}

/** When each kernel of a step that starts at t0 runs (µs). */
function schedule(s: DdpTraceSpec, t0: number): Schedule {
  const backward: Schedule["backward"] = [];
  const comm: Schedule["comm"] = [];
  let t = t0 + 100 + s.forwardUs;
  let peerReady = t0 + 100 + (s.peer?.forwardUs ?? s.forwardUs);
  let commFree = 0;
  s.buckets.forEach((bytes) => {
    const d = bytes * s.backwardUsPerByte;
    backward.push({ start: t, dur: d });
    t += d;
    peerReady += bytes * (s.peer?.backwardUsPerByte ?? s.backwardUsPerByte);
    const start = Math.max(t, commFree) + (s.lateUs ?? 0);
    // The kernel waits in place until the peer has started it too.
    const wait = s.peer === undefined ? 0 : Math.max(0, Math.max(peerReady, commFree) - start);
    const dur = wait + s.interceptUs + s.usPerByte * bytes;
    comm.push({ start, dur });
    commFree = start + dur;
  });
  const optimizerStart = Math.max(t, commFree);
  return { backward, comm, optimizerStart, optimizerEnd: optimizerStart + s.optimizerUs };
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
  const plan = schedule(s, t0);
  const bwdLaunch = t0 + 20;
  s.buckets.forEach((bytes, i) => {
    const b = plan.backward[i] as { start: number; dur: number };
    kernel(
      "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_128x128_32x3_nt_align4>",
      b.start,
      b.dur,
      7,
      bwdLaunch + 2 * i,
    );
    const c = plan.comm[i] as { start: number; dur: number };
    kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", c.start, c.dur, 13, bwdLaunch + 2 * i + 1, {
      "In msg nelems": bytes / 4,
      "Out msg nelems": bytes / 4,
      dtype: "Float",
    });
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
  kernel("void at::native::multi_tensor_apply_kernel<SGD>", plan.optimizerStart, s.optimizerUs, 7, optLaunch);
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
