/**
 * Real traces: DDP on CPU with gloo, 2 ranks (scripts/make-trace-fixtures.py, PyTorch 1.13's
 * chrome-trace output, gzipped). The figures are checked against an independent count: the
 * trace's times are whole microseconds, so each microsecond is marked communicating (a gloo
 * collective runs) and computing (an operator runs on a thread with no gloo collective), and the
 * overlap is the count of microseconds marked both over those marked communicating.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { gzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { measureSet } from "./ranks.ts";
import { TraceByteReader } from "./traceBytes.ts";
import { TraceError } from "./traceError.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);
const FILES = ["cpu-gloo-rank0.json.gz", "cpu-gloo-rank1.json.gz"];

function read(name: string, bytes: Uint8Array, piece = 4096) {
  const r = new TraceByteReader(name, new TextDecoder("utf-8"));
  for (let i = 0; i < bytes.length; i += piece) r.push(bytes.subarray(i, i + piece));
  return r.end();
}

const raw = (name: string) => new Uint8Array(readFileSync(new URL(name, FIXTURES)));

interface Ev {
  name: string;
  ts: number;
  dur: number;
  tid: number;
}

/** Per kept step: the microsecond count of communication and of communication under computation. */
function independentOverlap(name: string, keepLast: boolean): { comm: number; both: number }[] {
  const events = JSON.parse(gunzipSync(readFileSync(new URL(name, FIXTURES))).toString("utf8")) as Ev[];
  const steps = events.filter((e) => e.name.startsWith("ProfilerStep#")).sort((a, b) => a.ts - b.ts);
  const kept = keepLast ? steps : steps.slice(0, -1);
  const glooTids = new Set(events.filter((e) => e.name.startsWith("gloo:")).map((e) => e.tid));
  return kept.map((s) => {
    const inStep = (e: Ev) => e.ts >= s.ts && e.ts < s.ts + s.dur;
    const end = Math.max(...events.filter(inStep).map((e) => e.ts + e.dur));
    const comm = new Uint8Array(end - s.ts + 1);
    const compute = new Uint8Array(end - s.ts + 1);
    for (const e of events.filter(inStep)) {
      const isComm = e.name.startsWith("gloo:");
      const isCompute =
        !isComm && !glooTids.has(e.tid) && !e.name.startsWith("ProfilerStep") && !e.name.startsWith("c10d::");
      for (let t = e.ts; t < e.ts + e.dur; t++) {
        if (isComm) comm[t - s.ts] = 1;
        if (isCompute) compute[t - s.ts] = 1;
      }
    }
    let c = 0;
    let both = 0;
    for (let t = 0; t < comm.length; t++) {
      c += comm[t] as number;
      both += (comm[t] as number) & (compute[t] as number);
    }
    return { comm: c, both };
  });
}

describe("real 2-rank gloo traces", () => {
  const traces = FILES.map((f) => read(f, raw(f)));

  it("reads both ranks, says where the rank came from and what stands for communication", () => {
    const set = measureSet(traces, { allSteps: false });
    expect(set.ranks.map((r) => r.rank)).toEqual([0, 1]);
    for (const r of set.ranks) {
      expect(r.mode).toBe("cpu");
      expect(r.notes.join(" ")).toMatch(/no distributedInfo: rank \d read from the file name/);
      expect(r.notes.join(" ")).toMatch(/gloo's collectives stand for communication/);
      // DDP all-reduces the gradients every step.
      for (const s of r.steps) expect(s.commMs).toBeGreaterThan(0);
    }
    // Both ranks ran the same collectives in the same steps, so each has a late-start figure.
    expect(set.lateStart.map((l) => l.calls)).toEqual([6, 6]);
    expect(Math.min(...set.lateStart.map((l) => l.meanMs))).toBeGreaterThanOrEqual(0);
  });

  for (const keepLast of [false, true]) {
    it(`overlap per step matches a microsecond-by-microsecond count (last step ${keepLast ? "kept" : "dropped"})`, () => {
      const set = measureSet(traces, { allSteps: keepLast });
      FILES.forEach((file, i) => {
        const expected = independentOverlap(file, keepLast);
        const rank = set.ranks[i];
        expect(rank?.steps).toHaveLength(expected.length);
        expected.forEach((e, k) => {
          expect(rank?.steps[k]?.commMs).toBeCloseTo(e.comm / 1e3, 9);
          expect(rank?.steps[k]?.overlapPct).toBeCloseTo((100 * e.both) / e.comm, 2);
        });
      });
    });
  }

  it("reads the same in 1-, 997-byte and 64 KiB pieces", () => {
    const whole = raw(FILES[0] as string);
    const once = read("rank0.json.gz", whole, 65536);
    expect(read("rank0.json.gz", whole, 997)).toEqual(once);
    // One byte first: gzip is recognised by two.
    const r = new TraceByteReader("rank0.json.gz", new TextDecoder("utf-8"));
    r.push(whole.subarray(0, 1));
    r.push(whole.subarray(1));
    expect(r.end()).toEqual(once);
  });
});

describe("broken files, each named", () => {
  const kindOf = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e instanceof TraceError ? `${e.kind}: ${e.message}` : `other: ${String(e)}`;
    }
    return "accepted";
  };

  it("a truncated gzip", () => {
    const whole = raw(FILES[0] as string);
    expect(kindOf(() => read("cut.json.gz", whole.subarray(0, whole.length >> 1)))).toMatch(
      /^(gzip|truncated): /,
    );
    // Cut inside the deflate stream's last bytes: the text is all there but the gzip is not.
    expect(kindOf(() => read("cut.json.gz", whole.subarray(0, whole.length - 4)))).toMatch(
      /^(gzip|truncated): /,
    );
  });

  it("gzip of something that is not a trace", () => {
    const gz = gzipSync(new TextEncoder().encode("name,ts,dur\nfoo,1,2\n"));
    expect(kindOf(() => read("x.json.gz", gz))).toMatch(/^notTrace: /);
  });
});
