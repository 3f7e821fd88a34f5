/**
 * A gzip or a profiler trace given to the failure-log import is named, with where it goes, instead
 * of being read as a CSV header ('line 1: unknown column "\u001f…"'). The traces are the trace
 * tests' own fixtures (PyTorch's gzipped chrome trace) and one built by src/testing/ddpTrace.ts.
 */
import { readFileSync } from "node:fs";
import { gzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ddpGpuTrace, exampleSpec } from "../../testing/ddpTrace.ts";
import { fitApi } from "../../worker/fitApi.ts";
import { notALog } from "./notALog.ts";

const enc = (s: string) => new TextEncoder().encode(s);
const gloo = new Uint8Array(
  readFileSync(new URL("../../step/trace/fixtures/cpu-gloo-rank0.json.gz", import.meta.url)),
);

describe("files that are not failure logs", () => {
  it("a gzipped profiler trace is named and sent to the Trace panel, through the fit's own endpoint", async () => {
    const out = await fitApi.fitFile(new Blob([gloo]), { unit: "days", name: "rank0.json.gz" }, () => {});
    expect(out).toEqual({
      ok: false,
      message:
        "rank0.json.gz is a gzip-compressed PyTorch profiler trace, not a failure log: open it in the One step view's Trace panel (Trace: measure your own step), which reads Kineto .json and .json.gz traces",
    });
    const kineto = gzipSync(enc(ddpGpuTrace(exampleSpec(0))));
    expect(notALog(kineto.subarray(0, 300), "k.json.gz")).toMatch(
      /^k.json.gz is a gzip-compressed PyTorch profiler trace/,
    );
  });

  it("a plain Kineto trace, and a gzipped log, each say what they are", () => {
    expect(notALog(enc(ddpGpuTrace(exampleSpec(1))), "rank1.json")).toMatch(
      /^rank1.json is a PyTorch profiler trace, not a failure log: open it in the One step view's Trace panel/,
    );
    expect(notALog(gzipSync(enc("time,host,cause\n1,a,GPU\n")), "log.csv.gz")).toBe(
      "log.csv.gz is gzip-compressed: the failure log is read as plain text (CSV or JSON); unpack it first (gunzip log.csv.gz)",
    );
  });

  it("logs are left to the log parser", () => {
    expect(notALog(enc("time,host,cause\n1,a,GPU\n"), "a.csv")).toBeNull();
    expect(notALog(enc('[{"time": 1, "host": "a", "cause": "GPU"}]'), "a.json")).toBeNull();
    expect(notALog(enc('{"GPU": 3, "NIC": 1}'), "c.json")).toBeNull();
    expect(notALog(new Uint8Array(0), "empty")).toBeNull();
  });
});
