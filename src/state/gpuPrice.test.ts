import { beforeEach, describe, expect, it } from "vitest";
import { settingAllowed } from "../link/displaySettings.ts";
import { composeAddress, readAddress } from "./address.ts";
import { DEFAULT_GPU_PRICE, gpuPriceParam, gpuPriceStore, parseGpuPrice } from "./gpuPrice.ts";

describe("the price per GPU-hour (gph=)", () => {
  beforeEach(() => {
    gpuPriceStore.setState({ price: DEFAULT_GPU_PRICE });
  });

  it("takes plain dollar amounts from 0 to 1000 with at most 2 decimals", () => {
    expect(parseGpuPrice("2")).toBe(2);
    expect(parseGpuPrice("0")).toBe(0);
    expect(parseGpuPrice("3.75")).toBe(3.75);
    expect(parseGpuPrice(".5")).toBe(0.5);
    expect(parseGpuPrice("1000")).toBe(1000);
  });

  it("refuses anything else by name, saying the allowed range", () => {
    for (const bad of ["-1", "1001", "1e3", "NaN", "Infinity", "2.125", "", "0x10", "abc"]) {
      expect(parseGpuPrice(bad), bad).toMatch(/^Price per GPU-hour .*must be /);
      expect(parseGpuPrice(bad), bad).toContain(settingAllowed("gpuPrice"));
    }
  });

  it("is left out of the link at the default, so old links are unchanged, and round-trips otherwise", () => {
    expect(gpuPriceParam(DEFAULT_GPU_PRICE)).toBe("");
    expect(composeAddress()).not.toMatch(/gph=/);
    expect(readAddress("#v=cluster&gph=3.5")).toBeNull();
    expect(gpuPriceStore.getState().price).toBe(3.5);
    expect(composeAddress()).toMatch(/gph=3\.5/);
  });

  it("a bad price in a link is refused by name and keeps the last good price", () => {
    readAddress("#v=cluster&gph=4");
    const problem = readAddress("#v=cluster&gph=-3");
    expect(problem).toMatch(/gph=.*Price per GPU-hour "-3"/);
    expect(gpuPriceStore.getState().price).toBe(4);
  });
});
