import { describe, expect, it } from "vitest";
import type { FitPhase } from "../sim/fit/fitFile.ts";
import { fitApi } from "./fitApi.ts";

describe("the fit worker's endpoint", () => {
  it("reports its phases in order and answers the fit", async () => {
    const phases: FitPhase[] = [];
    const out = await fitApi.fitFile(
      new Blob(["time,host,cause\n1,a,GPU\n3,b,NIC\n"]),
      { unit: "days", name: "x.csv" },
      (p) => phases.push(p),
    );
    expect(phases).toEqual(["reading", "parsing", "fitting"]);
    expect(out.ok && out.fit.bursts).toBe(2);
    expect(out.ok && out.scenario.name).toBe("Fitted to x.csv");
  });

  it("refuses a file over 64 MiB by its size, without reading it", async () => {
    let read = false;
    const text = async () => {
      read = true;
      return "";
    };
    const huge = { size: 64 * 1024 * 1024 + 1, text } as unknown as Blob;
    const out = await fitApi.fitFile(huge, { unit: "days", name: "big" }, () => {});
    expect(out).toEqual({ ok: false, message: "the log is 64.0 MiB; at most 64 MiB is read" });
    expect(read).toBe(false);
  });

  it("answers a refused log with its message", async () => {
    const out = await fitApi.fitFile(new Blob(["time,host\n1,a"]), { unit: "days", name: "bad" }, () => {});
    expect(out).toEqual({
      ok: false,
      message: "line 1: no cause column; the header names time,host,cause and optionally end",
    });
  });
});
