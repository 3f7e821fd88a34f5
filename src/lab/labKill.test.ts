/**
 * The lab's Kill and Cancel at full speed, on the CPU backend (the same Lab the worker runs). The
 * page's presses reach the worker as messages; here a MessagePort carries them, as comlink does,
 * so a ring that never gave the event loop a turn would finish before any of them landed.
 */
import { describe, expect, it } from "vitest";
import { measureCpuCeilings } from "../gpu/ceilings.ts";
import type { FtarEvent } from "../gpu/ftar.ts";
import { Lab } from "./lab.ts";
import type { LabProgress } from "./labRequests.ts";

const KiB = 1024;

/**
 * The CPU's ceilings, measured by the lab's own code over 4 KiB once for this file: Kill, Cancel
 * and progress do not depend on them, and the lab's 64 MiB measurement per test took 16 s at
 * load 19, past the tests' limit.
 */
const ceilings = { cpu: measureCpuCeilings(KiB) };

async function cpuLab(): Promise<Lab> {
  return Lab.create(undefined, { forceCpu: true, ceilings });
}

/** A press from the page: a message that runs `f` in the worker when its event loop gets to it. */
function messenger(): { send(f: () => void): void; close(): void } {
  const { port1, port2 } = new MessageChannel();
  const queued: Array<() => void> = [];
  port2.onmessage = () => queued.shift()?.();
  return {
    send(f) {
      queued.push(f);
      port1.postMessage(null);
    },
    close() {
      port1.close();
      port2.close();
    },
  };
}

const fullSpeed = {
  mode: "cpu" as const,
  devices: 6,
  bytesPerDevice: 64 * KiB,
  scheduledKill: null,
  stepDelayMs: 0,
};

describe("lab: Kill during a full-speed ring", () => {
  it("a kill sent as a message while the ring runs is taken at a step boundary: the ring re-forms", async () => {
    const lab = await cpuLab();
    const page = messenger();
    const answers: string[] = [];
    const events: FtarEvent[] = [];
    let steps = 0;
    try {
      const report = await lab.fault(fullSpeed, (e) => {
        events.push(e);
        if (e.type === "ring" && e.attempt === 0) steps = e.steps;
        if (e.type === "step" && e.attempt === 0 && e.step === 0) page.send(() => answers.push(lab.kill(2)));
      });
      expect(answers).toEqual(["queued"]);
      expect(report.dropped).toEqual([2]);
      expect(report.ringAfter).toEqual([0, 1, 3, 4, 5]);
      expect(report.verified).toBe(true);
      expect(report.lateKill).toBeNull();
      const killed = events.find((e) => e.type === "killed");
      // Sent during the first step, taken at a boundary before the first ring's end.
      expect(killed).toMatchObject({ rank: 2, attempt: 0 });
      expect(killed?.type === "killed" ? killed.step : steps).toBeLessThan(steps);
    } finally {
      page.close();
    }
  });

  it("a kill that arrives during the last step is reported as late, not silently dropped", async () => {
    const lab = await cpuLab();
    let steps = 0;
    const report = await lab.fault(fullSpeed, (e) => {
      if (e.type === "ring") steps = e.steps;
      // Queued while the last step runs: there is no boundary left to take it at.
      if (e.type === "step" && e.step === steps - 1) lab.kill(4);
    });
    expect(steps).toBeGreaterThan(2);
    expect(report.dropped).toEqual([]);
    expect(report.verified).toBe(true);
    expect(report.lateKill).toBe(4);
  });

  it("a kill after the demo finished answers 'finished'", async () => {
    const lab = await cpuLab();
    await lab.fault(fullSpeed, () => {});
    expect(lab.kill(1)).toBe("finished");
  });

  it("a kill during the set-up (before the first step) is taken at the first step", async () => {
    const lab = await cpuLab();
    let answer = "";
    const report = await lab.fault(fullSpeed, (e) => {
      if (e.type === "ring" && e.attempt === 0) answer = lab.kill(0);
    });
    expect(answer).toBe("queued");
    expect(report.dropped).toEqual([0]);
    expect(report.verified).toBe(true);
  });
});

describe("lab: progress and Cancel for a run", () => {
  it("reports the runs of a case, done of total, ending at the read-back", async () => {
    const lab = await cpuLab();
    const seen: LabProgress[] = [];
    const r = await lab.run({ mode: "cpu", algorithm: "ring", devices: 4, bytesPerDevice: 64 * KiB }, (p) =>
      seen.push(p),
    );
    expect(r.verified).toBe(true);
    const counted = seen.filter((p) => p.total !== null);
    expect(counted.length).toBe(r.reps + 1);
    expect(counted.map((p) => p.done)).toEqual(Array.from({ length: r.reps + 1 }, (_, i) => i + 1));
    expect(counted.at(-1)).toMatchObject({ total: r.reps + 2, what: "reading back and verifying" });
  });

  it("a Cancel sent as a message mid-run stops it between runs", async () => {
    const lab = await cpuLab();
    const page = messenger();
    try {
      const run = lab.run({ mode: "cpu", algorithm: "ring", devices: 4, bytesPerDevice: 64 * KiB }, (p) => {
        if (p.what === "warm-up") page.send(() => lab.cancel());
      });
      await expect(run).rejects.toThrow("cancelled");
      // The lab is free again.
      const again = await lab.run({ mode: "cpu", algorithm: "ring", devices: 2, bytesPerDevice: 4 * KiB });
      expect(again.verified).toBe(true);
    } finally {
      page.close();
    }
  });

  it("a Cancel mid-sweep keeps the rows already measured", async () => {
    const lab = await cpuLab();
    const rows: unknown[] = [];
    const report = await lab.bench(
      {
        modes: ["cpu"],
        devices: [2],
        sizes: [4 * KiB, 16 * KiB],
        algorithms: { cpu: ["ring", "one-shot"] },
        maxBytes: {},
      },
      (r) => rows.push(r),
      (p) => {
        if (p.caseIndex === 2) lab.cancel();
      },
    );
    expect(rows).toHaveLength(1);
    expect(report.rows).toHaveLength(1);
  });
});
