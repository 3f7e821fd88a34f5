import { describe, expect, it } from "vitest";
import { clusterTabLabel, everyStrategyWords, strategiesWords, strategyList } from "./strategyWords.ts";

describe("strategy words", () => {
  it("count and name what is selected", () => {
    expect(strategiesWords(1)).toBe("one strategy");
    expect(strategiesWords(3)).toBe("three strategies");
    expect(everyStrategyWords(1)).toBe("the strategy");
    expect(everyStrategyWords(2)).toBe("both strategies");
    expect(everyStrategyWords(4)).toBe("all four strategies");
    expect(strategyList(["hotSpare"])).toBe("Hot spares");
    expect(strategyList(["synchronous", "ftHsdp", "hotSpare"])).toBe("Synchronous, FT-HSDP and Hot spares");
  });
  it("label the Cluster tab by the selection", () => {
    expect(clusterTabLabel(["synchronous", "ftHsdp"])).toBe("Cluster: Sync vs FT-HSDP");
    expect(clusterTabLabel(["hotSpare"])).toBe("Cluster: Hot spares");
    expect(clusterTabLabel(["synchronous", "ftHsdp", "inMemory", "hotSpare"])).toBe(
      "Cluster: four strategies",
    );
  });
});
