/**
 * The panel's worker gives the command line's figures: the same files opened as Blobs (as the
 * page hands them over) and measured by traceMeasure, against traceJson on the same traces.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { DEFAULT_STEP_CONFIG } from "../step/presetCatalog.ts";
import { measureSet } from "../step/trace/ranks.ts";
import { TraceByteReader } from "../step/trace/traceBytes.ts";
import { traceJson } from "../step/trace/traceReport.ts";
import { ddpGpuTrace, exampleSpec } from "../testing/ddpTrace.ts";
import { traceApi } from "./traceApi.ts";

const fixture = (r: number) =>
  readFileSync(new URL(`../step/trace/fixtures/cpu-gloo-rank${r}.json.gz`, import.meta.url));

async function open(name: string, bytes: Uint8Array<ArrayBuffer>) {
  const ticket = traceApi.traceTicket();
  const r = await traceApi.traceOpen(ticket, new Blob([bytes]), name, () => {});
  if (!r.ok) throw new Error(r.error);
  return r.id;
}

function cli(files: { name: string; bytes: Uint8Array<ArrayBuffer> }[], allSteps: boolean) {
  const traces = files.map((f) => {
    const reader = new TraceByteReader(f.name, new TextDecoder("utf-8"));
    reader.push(f.bytes);
    return reader.end();
  });
  return traceJson(measureSet(traces, { allSteps }));
}

describe("trace worker", () => {
  it("gives the command line's per-rank figures and verdict", async () => {
    const files = [0, 1].map((r) => ({
      name: `cpu-gloo-rank${r}.json.gz`,
      bytes: new Uint8Array(fixture(r)),
    }));
    const ids = await Promise.all(files.map((f) => open(f.name, f.bytes)));
    for (const allSteps of [false, true]) {
      const reply = traceApi.traceMeasure(ids, allSteps, 0, DEFAULT_STEP_CONFIG.parallel.interLink);
      if (!reply.ok) throw new Error(reply.error);
      const json = cli(files, allSteps);
      expect(reply.view.verdict).toBe(json.verdict);
      const steps = (r: (typeof reply.view.ranks)[number]) =>
        r.steps.map(({ name, ms, commMs, overlapPct, exposedCommMs }) => ({
          name,
          ms,
          commMs,
          overlapPct,
          exposedCommMs,
        }));
      expect(
        reply.view.ranks.map((r) => [r.rank, steps(r), r.overlapPct, r.temporal, r.kernelTypes]),
      ).toEqual(json.ranks.map((r) => [r.rank, r.steps, r.overlapPct, r.temporal, r.kernelTypes]));
    }
  });

  it("fits the same link as the command line", async () => {
    const files = [0, 1].map((k) => ({
      name: `rank${k}.json`,
      bytes: new TextEncoder().encode(ddpGpuTrace(exampleSpec(k))),
    }));
    const ids = await Promise.all(files.map((f) => open(f.name, f.bytes)));
    const reply = traceApi.traceMeasure(ids, false, 0, DEFAULT_STEP_CONFIG.parallel.interLink);
    if (!reply.ok || !reply.view.fit.ok) throw new Error("no fit");
    const json = cli(files, false);
    expect(json.model.fit).toMatchObject({
      calls: reply.view.fit.calls,
      interceptMs: reply.view.fit.interceptMs,
    });
    expect(reply.view.beside?.ok).toBe(true);
  });

  it("a cancelled read stops and holds nothing; a broken file names its problem", async () => {
    const ticket = traceApi.traceTicket();
    traceApi.traceCancel(ticket);
    const r = await traceApi.traceOpen(ticket, new Blob([fixture(0)]), "rank0.json.gz", () => {});
    expect(r).toEqual({ ok: false, name: "rank0.json.gz", error: "cancelled" });
    const bad = await traceApi.traceOpen(
      traceApi.traceTicket(),
      new Blob(['{"traceEvents": [{']),
      "cut.json",
      () => {},
    );
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/ends early/) });
  });

  it("a cancel sent while a gzip bomb is read stops it at once; the next file then reads", {
    timeout: 60_000,
  }, async () => {
    // 190 MB of valid, empty events in 450 KB of gzip: read whole, it holds the worker for many
    // seconds; the old read looked for a cancel only between the stream's pieces, each inflating
    // to tens of MB, and never let the cancel's message in.
    const unit = Buffer.from('{"ph":"i","s":"g"},');
    const text = Buffer.concat([
      Buffer.from('{"traceEvents":['),
      Buffer.alloc(unit.length * 10e6, unit),
      Buffer.from('{"ph":"i"}]}'),
    ]);
    const bomb = new Uint8Array(gzipSync(text, { level: 9 }));
    const ticket = traceApi.traceTicket();
    let calls = 0;
    let lastDone = 0;
    const reading = traceApi.traceOpen(ticket, new Blob([bomb]), "bomb.json.gz", (done) => {
      lastDone = done;
      // The page's Cancel reaches the worker as a message: a task of its own, not a call inside the read.
      if (calls++ === 0) setTimeout(() => traceApi.traceCancel(ticket), 0);
    });
    const r = await reading;
    expect(r).toEqual({ ok: false, name: "bomb.json.gz", error: "cancelled" });
    // It stopped within a few pieces of the cancel, far from the end of the file.
    expect(lastDone).toBeLessThan(bomb.length / 4);
    const good = await traceApi.traceOpen(
      traceApi.traceTicket(),
      new Blob([fixture(0)]),
      "rank0.json.gz",
      () => {},
    );
    expect(good.ok).toBe(true);
  });
});
