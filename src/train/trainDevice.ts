/**
 * What every training run's replicas on one GPUDevice share: the data set's buffers, the
 * compiled kernels, and the scratch of a held-out evaluation.
 */

import { type DataSet, INPUTS, TEST_POINTS } from "./data.ts";
import { buffer, encode, passDispatches } from "./gpuPasses.ts";
import type { Evaluation } from "./mlp.ts";
import type { Layout } from "./model.ts";
import { TrainPipelines } from "./trainKernels.ts";

export class TrainDevice {
  readonly pipes: TrainPipelines;
  readonly trainX: GPUBuffer;
  readonly trainY: GPUBuffer;
  readonly testX: GPUBuffer;
  readonly testY: GPUBuffer;
  readonly zeroUniform: GPUBuffer;
  private evalScratch: { acts: GPUBuffer[]; losses: GPUBuffer; hits: GPUBuffer; staging: GPUBuffer } | null =
    null;

  constructor(
    readonly device: GPUDevice,
    readonly layout: Layout,
    data: DataSet,
  ) {
    this.pipes = new TrainPipelines(device);
    const upload = (a: Float32Array | Uint32Array, label: string) => {
      const b = buffer(device, a.length, label);
      device.queue.writeBuffer(b, 0, a);
      return b;
    };
    this.trainX = upload(data.train.x, "train x");
    this.trainY = upload(data.train.y, "train y");
    this.testX = upload(data.test.x, "test x");
    this.testY = upload(data.test.y, "test y");
    this.zeroUniform = buffer(device, 4, "zero params", GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST);
  }

  destroy(): void {
    for (const b of [this.trainX, this.trainY, this.testX, this.testY, this.zeroUniform]) b.destroy();
    const s = this.evalScratch;
    if (s) for (const b of [...s.acts, s.losses, s.hits, s.staging]) b.destroy();
  }

  /** Held-out loss and accuracy of the weights in `p`. */
  async evaluate(p: GPUBuffer): Promise<Evaluation> {
    const d = this.device;
    const widths = [INPUTS, ...this.layout.layers.map((L) => L.fanOut)];
    this.evalScratch ??= {
      acts: widths.map((w, i) => buffer(d, TEST_POINTS * w, `eval act ${i}`)),
      losses: buffer(d, TEST_POINTS, "eval losses"),
      hits: buffer(d, TEST_POINTS, "eval hits"),
      staging: buffer(d, 2 * TEST_POINTS, "eval staging", GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST),
    };
    const s = this.evalScratch;
    const ds = passDispatches(
      this.pipes,
      this.layout,
      TEST_POINTS,
      TEST_POINTS,
      { X: this.testX, Y: this.testY, uniform: this.zeroUniform, p, acts: s.acts, deltas: [] },
      { kind: "eval", losses: s.losses, hits: s.hits },
    );
    const enc = d.createCommandEncoder();
    encode(enc, ds);
    enc.copyBufferToBuffer(s.losses, 0, s.staging, 0, TEST_POINTS * 4);
    enc.copyBufferToBuffer(s.hits, 0, s.staging, TEST_POINTS * 4, TEST_POINTS * 4);
    d.queue.submit([enc.finish()]);
    await s.staging.mapAsync(GPUMapMode.READ);
    const a = new Float32Array(s.staging.getMappedRange().slice(0));
    s.staging.unmap();
    let loss = 0;
    let hits = 0;
    for (let k = 0; k < TEST_POINTS; k++) {
      loss += a[k] as number;
      hits += a[TEST_POINTS + k] as number;
    }
    return { loss: loss / TEST_POINTS, accuracy: hits / TEST_POINTS };
  }
}
