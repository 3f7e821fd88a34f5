import { describe, expect, it } from "vitest";
import { formatClock, formatTick, timeTicks } from "./timeAxis.ts";

describe("time axis", () => {
  it("picks round steps: days for a month, minutes for an hour, seconds for a minute", () => {
    expect(timeTicks(0, 30 * 86_400, 8).step).toBe(5 * 86_400);
    expect(timeTicks(0, 3600, 8).step).toBe(600);
    expect(timeTicks(100, 160, 6).step).toBe(10);
    const { ticks, step } = timeTicks(1234, 5678, 10);
    for (const t of ticks) expect(t % step).toBe(0);
    expect(ticks[0]).toBeGreaterThanOrEqual(1234);
    expect(ticks.at(-1)).toBeLessThanOrEqual(5678);
  });

  it("labels ticks no more precisely than their step", () => {
    expect(formatTick(3 * 86_400, 86_400)).toBe("day 3");
    expect(formatTick(86_400 + 14 * 3600 + 5 * 60, 300)).toBe("d1 14:05");
    expect(formatTick(86_400 + 14 * 3600 + 5 * 60 + 30, 10)).toBe("d1 14:05:30");
    expect(formatClock(2 * 86_400 + 3661.7)).toBe("day 2 01:01:01");
  });
});
