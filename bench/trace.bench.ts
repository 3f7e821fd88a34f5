/**
 * `npm run bench:trace`: the trace importer's targets: a 200 MB (uncompressed) Kineto
 * trace read and measured in ≤ 5 s, with memory ≤ 3× the file. The trace is generated into a temp
 * dir (src/testing/ddpTrace.ts, DDP-shaped: 64 buckets per step, steps until ~200 MB), then read
 * the way `npm run trace` reads it (1 MiB pieces, streamed, src/cli/trace.ts). Memory is the
 * process's resident set and V8 heap after reading and measuring (the read is synchronous, so no
 * timer can sample inside it; the kept trace is still alive then, and V8 keeps the garbage of the
 * pieces it has not yet collected), beside what it held before.
 *
 * Then the comparison's target: two generated 100 MB sets (control, and test with its buckets
 * merged pairwise, a raised bucket cap) read, measured and diffed as `npm run trace -- --compare`
 * does, in at most 2.2× the time of reading and measuring the 200 MB set above (CPU time, which a
 * busy machine inflates less than wall time).
 */
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { readTraceFile } from "../src/cli/traceFile.ts";
import { classifyKernel } from "../src/step/trace/kernelClass.ts";
import { measureSet } from "../src/step/trace/ranks.ts";
import { diffSets } from "../src/step/trace/traceDiff.ts";
import { type DdpTraceSpec, ddpStepEvents } from "../src/testing/ddpTrace.ts";

const TARGET_BYTES = 200 * 1e6;
const spec: DdpTraceSpec = {
  rank: 0,
  worldSize: 8,
  steps: 0,
  buckets: Array.from({ length: 64 }, (_, i) => (1 + (i % 8)) * 1_048_576),
  forwardUs: 3000,
  backwardUsPerByte: 0.0004,
  optimizerUs: 500,
  interceptUs: 40,
  usPerByte: 0.0002,
};

const dir = mkdtempSync(join(tmpdir(), "trace-bench-"));
const path = join(dir, "rank0.json");
const fd = openSync(path, "w");
writeSync(
  fd,
  `{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":0,"world_size":8},"traceEvents":[`,
);
let written = 0;
let steps = 0;
while (written < TARGET_BYTES) {
  const body = ddpStepEvents(spec, steps)
    .map((e) => JSON.stringify(e))
    .join(",");
  written += writeSync(fd, `${steps === 0 ? "" : ","}${body}`);
  steps++;
}
writeSync(fd, "]}");
closeSync(fd);
const size = statSync(path).size;

globalThis.gc?.();
const base = process.memoryUsage();
let peakRss = base.rss;
let peakHeap = base.heapUsed;
const t0 = performance.now();
const c0 = process.cpuUsage();
const trace = readTraceFile(path);
const tRead = performance.now() - t0;
const cRead = process.cpuUsage(c0);
const set = measureSet([trace], { allSteps: false });
const tAll = performance.now() - t0;
const cAll = process.cpuUsage(c0);
const cpu = (u: NodeJS.CpuUsage) => `${((u.user + u.system) / 1e6).toFixed(2)} s`;
const [load1] = loadavg();
const m = process.memoryUsage();
peakRss = Math.max(peakRss, m.rss);
peakHeap = Math.max(peakHeap, m.heapUsed);
rmSync(path);

const mb = (b: number) => `${(b / 1e6).toFixed(0)} MB`;
console.log(`node ${process.version}`);
console.log(
  `trace: ${mb(size)} uncompressed, ${trace.events.toLocaleString("en-US")} complete events, ${steps} steps`,
);
console.log(
  `read (stream, 1 MiB pieces): ${(tRead / 1e3).toFixed(2)} s wall, ${cpu(cRead)} CPU; read + measure: ` +
    `${(tAll / 1e3).toFixed(2)} s wall, ${cpu(cAll)} CPU (target ≤ 5 s; load ${load1?.toFixed(1)} on ${cpus().length} cores)`,
);
console.log(
  `memory: resident ${mb(peakRss)} at the end (${mb(peakRss - base.rss)} above the ${mb(base.rss)} before reading), ` +
    `V8 heap ${mb(peakHeap)} (${(peakRss / size).toFixed(2)}× the file resident; target ≤ 3×)`,
);
console.log(`rank 0: ${set.ranks[0]?.steps.length} steps kept, overlap ${set.ranks[0]?.overlapPct} %`);

/** A trace of `spec`'s steps until about `target` bytes; returns its size. */
function writeTrace(file: string, s: DdpTraceSpec, rank: number, target: number): number {
  const out = openSync(file, "w");
  writeSync(
    out,
    `{"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":${rank},"world_size":8},"traceEvents":[`,
  );
  let n = 0;
  for (let k = 0; n < target; k++)
    n += writeSync(
      out,
      `${k === 0 ? "" : ","}${ddpStepEvents(s, k)
        .map((e) => JSON.stringify(e))
        .join(",")}`,
    );
  writeSync(out, "]}");
  closeSync(out);
  return statSync(file).size;
}

const half = TARGET_BYTES / 2;
const merged = spec.buckets.flatMap((b, i) => (i % 2 === 0 ? [b + (spec.buckets[i + 1] ?? 0)] : []));
const controlPath = join(dir, "control-rank0.json");
const testPath = join(dir, "test-rank0.json");
const sizes = [
  writeTrace(controlPath, spec, 0, half),
  writeTrace(testPath, { ...spec, buckets: merged }, 0, half),
];
globalThis.gc?.();
const dBase = process.memoryUsage().rss;
const d0 = performance.now();
const dc0 = process.cpuUsage();
const measureOne = (file: string) => measureSet([readTraceFile(file)], { allSteps: false }).ranks;
const diff = diffSets(measureOne(controlPath), measureOne(testPath));
const tDiff = performance.now() - d0;
const cDiff = process.cpuUsage(dc0);
const dRss = process.memoryUsage().rss;
const [load2] = loadavg();
rmSync(dir, { recursive: true });
const secs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
console.log(
  `compare two sets of ${sizes.map(mb).join(" and ")} (read + measure + diff): ${(tDiff / 1e3).toFixed(2)} s wall, ` +
    `${cpu(cDiff)} CPU = ${(secs(cDiff) / secs(cAll)).toFixed(2)}× reading and measuring the ${mb(size)} set ` +
    `(${(tDiff / tAll).toFixed(2)}× in wall time; target ≤ 2.2×; load ${load2?.toFixed(1)}); resident ${mb(dRss)} ` +
    `(${mb(dRss - dBase)} above the ${mb(dBase)} before)`,
);
console.log(
  `compare: ${diff.pairs} steps matched; ${diff.ranks[0]?.steps.length} on rank 0; mean step change ${diff.delta.stepMs.toFixed(3)} ms`,
);

// One crafted kernel name: HTA's pattern as a regular expression took the square of its length
// (10K characters 87 ms, 100K 9.7 s); classifyKernel is one pass (kernelClass.ts).
for (const chars of [1 << 20, 4 << 20]) {
  const name = `x${"ncclKerne_".repeat(chars / 10)}`;
  const t = performance.now();
  const cls = classifyKernel(name, "kernel");
  console.log(
    `kernel name of ${(chars / 2 ** 20).toFixed(0)} Mi characters: ${cls}, ${(performance.now() - t).toFixed(1)} ms`,
  );
}
