/**
 * Chapter 7's scenarios: the paper's headline cluster with one thing from a real cluster added
 * (cluster model v2, SIMULATION.md §3). Kept apart from the chapter so the e2e test can run the
 * same inputs through the engine. Shares and sizes that FACTS.md does not give are marked as ours.
 */
import type { ScenarioInput } from "../../../sim/scenario.ts";

export interface RealClusterCase {
  id: string;
  label: string;
  /** One sentence: why the numbers moved from the plain headline. */
  why: string;
  scenario: ScenarioInput;
}

const RACK_MIX: ScenarioInput = {
  cluster: { hostsPerRack: 8 },
  failures: {
    causes: [
      { name: "one host", share: 0.9, scope: "host", hang: false, newHost: true },
      { name: "rack switch", share: 0.1, scope: "rack", hang: false, newHost: true },
    ],
  },
};

export const REAL_CLUSTER_CASES: readonly RealClusterCase[] = [
  {
    id: "headline",
    label: "The plain headline",
    why: "Every failure takes one host; FT-HSDP loses one replica for a while.",
    scenario: {},
  },
  {
    id: "job-wide",
    label: "10 % of failures job-wide",
    why: "A job-wide software failure stops every replica at once, so FT-HSDP pays the synchronous restart for those.",
    scenario: {
      failures: {
        causes: [
          { name: "one host", share: 0.9, scope: "host", hang: false, newHost: true },
          { name: "software (job-wide)", share: 0.1, scope: "job", hang: false, newHost: false },
        ],
      },
    },
  },
  {
    id: "racks-packed",
    label: "Racks of 8 hosts, packed",
    why: "A rack failure takes 8 hosts, but packed they sit in one replica: one replica down, as before.",
    scenario: { ...RACK_MIX, cluster: { hostsPerRack: 8, placement: "packed" } },
  },
  {
    id: "racks-striped",
    label: "Racks of 8 hosts, striped",
    why: "Striped, one rack holds hosts of 8 replicas, so a rack failure takes 8 replicas down together.",
    scenario: { ...RACK_MIX, cluster: { hostsPerRack: 8, placement: "striped" } },
  },
  {
    id: "spares-dry",
    label: "150 spare hosts, 48 h repairs",
    why: "About 160 hosts break in 48 h: once the pool is empty each failure waits for a repair, the whole synchronous job with it.",
    scenario: { spares: { pool: "limited", hosts: 150, repairHours: 48 } },
  },
];
