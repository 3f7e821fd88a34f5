/**
 * Words that follow the strategies on screen: counts, "both" or "all three", the list of names,
 * computed from the scenario's selection and the policy registry (src/sim/policies/index.ts), so no
 * sentence names two policies when one, three or four are shown.
 */
import { policyOf } from "../sim/policies/index.ts";
import type { PolicyKey } from "../sim/policies/policyKeys.ts";

const NUMBER_WORDS = ["no", "one", "two", "three", "four"];

/** "one strategy", "two strategies", …, "5 strategies". */
export function strategiesWords(n: number): string {
  const word = NUMBER_WORDS[n] ?? String(n);
  return `${word} ${n === 1 ? "strategy" : "strategies"}`;
}

/** The whole selection as a subject: "the strategy", "both strategies", "all three strategies". */
export function everyStrategyWords(n: number): string {
  if (n === 1) return "the strategy";
  if (n === 2) return "both strategies";
  return `all ${strategiesWords(n)}`;
}

/** Names in display order: "Hot spares", "Synchronous and FT-HSDP", "Synchronous, FT-HSDP and Hot spares". */
export function strategyList(keys: readonly PolicyKey[], short = false): string {
  const names = keys.map((k) => (short ? policyOf(k).shortLabel : policyOf(k).label));
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The Cluster tab's label: the strategies it compares, by name while they fit. */
export function clusterTabLabel(keys: readonly PolicyKey[]): string {
  if (keys.length === 1) return `Cluster: ${policyOf(keys[0] as PolicyKey).shortLabel}`;
  if (keys.length === 2) return `Cluster: ${keys.map((k) => policyOf(k).shortLabel).join(" vs ")}`;
  return `Cluster: ${strategiesWords(keys.length)}`;
}
