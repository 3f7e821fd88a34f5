/**
 * The lab behind the worker: owns the GPU (or its absence), builds executors for each mode, runs
 * single verified cases, the benchmark sweep and the fault demo, and reports device loss instead
 * of hanging.
 */

import { type AcquiredDevice, type AdapterReport, acquireDevice, webGpuMissing } from "../gpu/adapter.ts";
import { bestOf, type Ceilings, measureCeilings, measureCpuCeilings } from "../gpu/ceilings.ts";
import { buildSchedule } from "../gpu/collectives.ts";
import { CpuExecutor } from "../gpu/cpuBackend.ts";
import type { Executor, Mode } from "../gpu/executor.ts";
import { Cancelled, type FtarEvent, runFtar } from "../gpu/ftar.ts";
import type { GpuExecutor } from "../gpu/gpuExecutor.ts";
import { labRunProblems } from "../gpu/labBudget.ts";
import { Pipelines } from "../gpu/pipelines.ts";
import {
  type CaseProgressHook,
  type CaseRequest,
  type CaseResult,
  loadFreshInputs,
  runCase,
} from "../gpu/runCase.ts";
import { SeparateExecutor } from "../gpu/separateExecutor.ts";
import { SharedExecutor } from "../gpu/sharedExecutor.ts";
import { yieldToMessages } from "../gpu/yieldToMessages.ts";
import { checkTrainConfig } from "../train/config.ts";
import { CpuDiloco } from "../train/cpuDiloco.ts";
import { CpuTrainer } from "../train/cpuTrainer.ts";
import { makeDataSet } from "../train/data.ts";
import { GpuDiloco } from "../train/gpuDiloco.ts";
import { GpuTrainer } from "../train/gpuTrainer.ts";
import { initialParams, layoutFor } from "../train/model.ts";
import { runTraining, type TrainProgress } from "../train/session.ts";
import { TrainDevice } from "../train/trainDevice.ts";
import {
  algorithmsFor,
  type BenchPlan,
  type BenchReport,
  type FaultReport,
  type FaultRequest,
  type KillAnswer,
  type LabProgress,
  MiB,
  type TrainRequest,
} from "./labRequests.ts";

export interface LabOptions {
  /** Skip WebGPU even if present (the CPU fallback on purpose). */
  forceCpu?: boolean;
  onDeviceLost?: (message: string) => void;
  /**
   * Ceilings measured already, taken as this lab's own (not measured again). For tests of Kill,
   * Cancel and progress: the CPU's 64 MiB measurement took 16 s at load 19, past their limits.
   */
  ceilings?: Partial<Record<Mode, Ceilings>>;
}

const CEILING_BYTES = 64 * MiB;

export class Lab {
  private ceilingCache = new Map<Mode, Ceilings>();
  private killRequest: number | null = null;
  private cancelRequested = false;
  private busy = false;
  /** A fault demo or a training run is on, reading kills at its step boundaries. */
  private takingKills = false;
  /** Devices we destroyed on purpose (their loss is not news). */
  private readonly retired = new WeakSet<GPUDevice>();
  private pipes: Pipelines | null = null;

  private constructor(
    readonly report: AdapterReport,
    private readonly gpu: GPU | null,
    private readonly shared: AcquiredDevice | null,
    private readonly opts: LabOptions,
  ) {
    for (const [mode, c] of Object.entries(opts.ceilings ?? {}) as [Mode, Ceilings][])
      this.ceilingCache.set(mode, c);
  }

  static async create(gpu: GPU | undefined, opts: LabOptions = {}): Promise<Lab> {
    const missing = opts.forceCpu ? "CPU fallback requested" : webGpuMissing(gpu);
    const cpu = (why: string): Lab =>
      new Lab(
        { kind: "cpu", label: why, timestamps: false, maxBufferBytes: 2 ** 31, maxBindingBytes: 2 ** 31 },
        null,
        null,
        opts,
      );
    if (missing || !gpu) return cpu(missing ?? "no WebGPU");
    try {
      const shared = await acquireDevice(gpu, "shared");
      const lab = new Lab(shared.report, gpu, shared, opts);
      lab.watch(shared.device);
      return lab;
    } catch (e) {
      return cpu(`no usable WebGPU adapter (${e instanceof Error ? e.message : String(e)})`);
    }
  }

  private get software(): boolean {
    return this.report.kind === "software";
  }

  /** The shared device's kernels, compiled once for the lab's lifetime. */
  private sharedPipes(): Pipelines {
    if (!this.shared) throw new Error("no GPU");
    this.pipes ??= new Pipelines(this.shared.device, this.software);
    return this.pipes;
  }

  private watch(device: GPUDevice): void {
    void device.lost.then((info) => {
      if (!this.retired.has(device)) this.opts.onDeviceLost?.(`${info.reason ?? "unknown"}: ${info.message}`);
    });
  }

  /** Which modes this lab can run. */
  get modes(): Mode[] {
    return this.shared ? ["shared", "separate", "cpu"] : ["cpu"];
  }

  /** Per-device byte cap: the adapter's binding limit (one-shot binds a whole buffer). */
  get maxBytesPerDevice(): number {
    return Math.min(this.report.maxBindingBytes, this.report.maxBufferBytes);
  }

  /** Ceilings per mode, measured once per lab (separate mode runs the shared device's kernels). */
  async ceilings(mode: Mode): Promise<Ceilings> {
    const key = mode === "separate" ? "shared" : mode;
    let c = this.ceilingCache.get(key);
    if (!c) {
      c = await this.measureCeilings(key);
      this.ceilingCache.set(key, c);
    }
    return c;
  }

  private measureCeilings(mode: Mode): Promise<Ceilings> | Ceilings {
    if (mode === "cpu" || !this.shared) return measureCpuCeilings(CEILING_BYTES / 4);
    return measureCeilings(
      this.sharedPipes(),
      this.shared.report.timestamps,
      Math.min(CEILING_BYTES, this.maxBytesPerDevice),
    );
  }

  /** A submit carries at most ~0.25 s of streaming at the measured ceiling. */
  private async submitBudget(): Promise<{ bytes: number }> {
    const c = await this.ceilings("shared");
    return { bytes: Math.max(16 * MiB, c.streamingGBps * 1e9 * 0.25) };
  }

  async executor(mode: Mode, devices: number, count: number): Promise<Executor> {
    if (mode === "cpu" || !this.shared || !this.gpu) return new CpuExecutor(devices, count);
    if (mode === "shared") {
      const s = this.shared;
      return new SharedExecutor(
        this.sharedPipes(),
        devices,
        count,
        s.report.timestamps,
        await this.submitBudget(),
      );
    }
    const gpus: GPUDevice[] = [];
    for (let r = 0; r < devices; r++) {
      const d = await acquireDevice(this.gpu, `device ${r}`);
      this.watch(d.device);
      gpus.push(d.device);
    }
    return new SeparateExecutor(gpus, count, this.software, (g) => this.retired.add(g));
  }

  private guard<T>(f: () => Promise<T>): Promise<T> {
    if (this.busy) return Promise.reject(new Error("the lab is already running something"));
    this.busy = true;
    this.cancelRequested = false;
    this.killRequest = null;
    return f().finally(() => {
      this.busy = false;
      this.takingKills = false;
    });
  }

  /**
   * The hook runCase calls between runs: passes the progress on, lets a queued Cancel land (the
   * CPU's runs never yield on their own) and acts on it.
   */
  private caseHook(
    caseIndex: number,
    cases: number,
    onProgress: ((p: LabProgress) => void) | undefined,
  ): CaseProgressHook {
    return async (p) => {
      onProgress?.({ ...p, caseIndex, cases });
      await yieldToMessages();
      if (this.cancelRequested) throw new Cancelled();
    };
  }

  run(req: CaseRequest, onProgress?: (p: LabProgress) => void): Promise<CaseResult> {
    const problems = labRunProblems(req, this.maxBytesPerDevice);
    if (problems.length > 0) return Promise.reject(new Error(problems.join(" ")));
    return this.guard(async () => {
      const hook = this.caseHook(1, 1, onProgress);
      if (!this.ceilingCache.has(req.mode === "separate" ? "shared" : req.mode))
        await hook({ done: 0, total: null, what: "measuring this adapter's bandwidth ceilings" });
      const ceilings = await this.ceilings(req.mode);
      await hook({ done: 0, total: null, what: "allocating buffers" });
      const exec = await this.executor(req.mode, req.devices, req.bytesPerDevice / 4);
      try {
        return await runCase(exec, loadFreshInputs(exec), req, ceilings, hook);
      } finally {
        exec.destroy();
      }
    });
  }

  /**
   * The sweep. Per (mode, devices, size): one set of fresh inputs, then each algorithm poisons the
   * outputs, runs, and is verified against them. The ceilings are measured again at the end and
   * the better figure kept, so a ceiling taken while the machine was busy does not flatter the
   * efficiencies; the rows returned are divided by that.
   */
  bench(
    plan: BenchPlan,
    onRow: (r: CaseResult) => void,
    onProgress?: (p: LabProgress) => void,
  ): Promise<BenchReport> {
    return this.guard(async () => {
      const rows: CaseResult[] = [];
      const ceilings: BenchReport["ceilings"] = {};
      const modes = plan.modes.filter((m) => this.modes.includes(m));
      const capOf = (mode: Mode) =>
        Math.min(plan.maxBytes[mode] ?? Number.POSITIVE_INFINITY, this.maxBytesPerDevice);
      const cases = modes.reduce(
        (n, mode) =>
          n +
          plan.devices.length *
            plan.sizes.filter((b) => b <= capOf(mode)).length *
            (plan.algorithms[mode] ?? algorithmsFor(mode)).length,
        0,
      );
      for (const mode of modes) {
        const c = await this.ceilings(mode);
        ceilings[mode] = c;
        const cap = capOf(mode);
        for (const devices of plan.devices) {
          for (const bytes of plan.sizes.filter((b) => b <= cap)) {
            const exec = await this.executor(mode, devices, bytes / 4);
            try {
              const inputs = loadFreshInputs(exec);
              for (const algorithm of plan.algorithms[mode] ?? algorithmsFor(mode)) {
                if (this.cancelRequested) return { adapter: this.report, ceilings, rows };
                const hook = this.caseHook(rows.length + 1, cases, onProgress);
                let row: CaseResult;
                try {
                  row = await runCase(
                    exec,
                    inputs,
                    { mode, algorithm, devices, bytesPerDevice: bytes },
                    c,
                    hook,
                  );
                } catch (e) {
                  // A Cancel mid-case keeps the rows already measured.
                  if (e instanceof Cancelled) return { adapter: this.report, ceilings, rows };
                  throw e;
                }
                rows.push(row);
                onRow(row);
              }
            } finally {
              exec.destroy();
            }
          }
        }
      }
      // Separate mode's kernels are measured on the shared device: one key, one re-measurement.
      const keyOf = (m: Mode): Mode => (m === "separate" ? "shared" : m);
      const again = new Map<Mode, Ceilings>();
      for (const mode of Object.keys(ceilings) as Mode[]) {
        const first = ceilings[mode];
        if (!first) continue;
        const key = keyOf(mode);
        let best = again.get(key);
        if (!best) {
          best = bestOf(first, await this.measureCeilings(key));
          again.set(key, best);
          this.ceilingCache.set(key, best);
        }
        ceilings[mode] = best;
      }
      const final = rows.map((r) => {
        const c = ceilings[r.mode];
        return c ? { ...r, efficiency: r.trafficBytes / r.seconds / (c.streamingGBps * 1e9) } : r;
      });
      return { adapter: this.report, ceilings, rows: final };
    });
  }

  fault(req: FaultRequest, onEvent: (e: FtarEvent) => void): Promise<FaultReport> {
    return this.guard(async () => {
      // From the press of Run on: a Kill during the set-up is taken at the first step.
      this.takingKills = true;
      const exec = await this.executor(req.mode, req.devices, req.bytesPerDevice / 4);
      try {
        const inputs = loadFreshInputs(exec);
        // Calibrate the watchdog on a healthy run of the demo's own collective (AVG: its scale
        // kernel too): a step may take many times the average. Timed on the second run, once
        // every kernel is compiled on these devices: a cold first run made the timeout, and so
        // the detection, ten times a compile (tens of seconds on a busy software adapter).
        const ring = Array.from({ length: req.devices }, (_, i) => i);
        const healthyRun = exec.prepare(buildSchedule("ring", ring, exec.count, "avg"));
        await healthyRun.run();
        const healthy = await healthyRun.run();
        const stepTimeoutMs = Math.max(300, Math.ceil(10 * healthy.seconds * 1000));
        const result = await runFtar(exec, inputs, {
          scheduledKill: req.scheduledKill,
          stepTimeoutMs,
          probeTimeoutMs: Math.max(200, stepTimeoutMs / 2),
          stepDelayMs: req.stepDelayMs,
          onEvent,
          pendingKill: () => {
            const k = this.killRequest;
            this.killRequest = null;
            return k;
          },
          cancelled: () => this.cancelRequested,
        });
        this.takingKills = false;
        // Sent during the last step or the check: the ring was finished before it could act.
        const lateKill = this.killRequest;
        this.killRequest = null;
        return { ...result, stepTimeoutMs, lateKill };
      } finally {
        this.takingKills = false;
        exec.destroy();
      }
    });
  }

  /**
   * Live training (src/train/session.ts): every run's replicas on this mode's devices, their
   * gradients averaged by the lab's ring all-reduce; the CPU mode trains in float32 on typed
   * arrays. One executor serves every run: a gradient lives in it only within a step.
   */
  train(req: TrainRequest, onProgress: (p: TrainProgress) => void): Promise<TrainProgress> {
    return this.guard(async () => {
      const cfg = checkTrainConfig(req.config);
      const layout = layoutFor(cfg.hidden);
      const data = makeDataSet(cfg.seed);
      const init = initialParams(layout, cfg.seed);
      const R = cfg.replicas;
      const exec =
        req.mode === "cpu" ? null : ((await this.executor(req.mode, R, layout.count)) as GpuExecutor);
      const devices = new Map<GPUDevice, TrainDevice>();
      const deviceOf = (r: number): TrainDevice => {
        if (!exec) throw new Error("no GPU executor");
        const d = exec.resident(r).device;
        let t = devices.get(d);
        if (!t) {
          t = new TrainDevice(d, layout, data);
          devices.set(d, t);
        }
        return t;
      };
      this.takingKills = true;
      try {
        return await runTraining(
          cfg,
          req.costs,
          async () =>
            exec
              ? new GpuTrainer(exec, deviceOf, layout, R, init)
              : new CpuTrainer(layout, data, R, init, "float32"),
          () => new CpuTrainer(layout, data, R, init, "float64"),
          { layout, data },
          onProgress,
          {
            pendingKill: () => {
              const k = this.killRequest;
              this.killRequest = null;
              return k;
            },
            stopped: () => this.cancelRequested,
          },
          150,
          {
            test: async () =>
              exec
                ? new GpuDiloco(exec, deviceOf, layout, R, init)
                : new CpuDiloco(layout, data, R, init, "float32"),
            reference: () => new CpuDiloco(layout, data, R, init, "float64"),
          },
        );
      } finally {
        this.takingKills = false;
        for (const t of devices.values()) t.destroy();
        exec?.destroy();
      }
    });
  }

  /**
   * The fault button: the device dies before the next step starts. "finished" when no run is
   * taking kills any more (the ring was done before the press reached the worker).
   */
  kill(rank: number): KillAnswer {
    if (!this.takingKills) return "finished";
    this.killRequest = rank;
    return "queued";
  }

  cancel(): void {
    this.cancelRequested = true;
  }
}
