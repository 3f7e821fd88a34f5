/** What each colour and marker on the timeline means, with entries for the optional parts shown. */

import { useMemo } from "react";
import { policyOf } from "../../sim/policies/index.ts";
import type { Trace } from "../../sim/types.ts";
import { policyStyle } from "../policyColour.ts";
import { hasJobLane } from "./jobTrack.ts";
import { rackEvents } from "./rackTrack.ts";
import { hasSlowEpisodes } from "./slowTrack.ts";
import { hasSpareChart } from "./spareTrack.ts";

const ITEMS = [
  { cls: "sw-training", label: "Training" },
  { cls: "sw-stalled", label: "Stalled: healthy, waiting for another replica (FT-HSDP)" },
  { cls: "sw-down", label: "Down: detecting / restarting (FT-HSDP replica) · recovering (sync job)" },
  { cls: "sw-waitspare", label: "Waiting for a spare host (limited spare pool)" },
  { cls: "sw-catchup", label: "Catching up from a peer (FT) · checkpoint write (sync)" },
  { cls: "sw-rejoin", label: "Rejoining the ring (FT-HSDP)" },
  { cls: "sw-rolledback", label: "Rolled back: trained, then lost (sync)" },
];

export function Legend({ trace }: { trace?: Trace | undefined }) {
  // One pass over the failure log per trace, not per render.
  const { job, racks, spares, slow, evictions, rounds } = useMemo(
    () => ({
      // §7: a semi-synchronous policy's rounds lane and its shade over the replica lanes.
      rounds:
        trace?.policies.filter((k) => {
          const r = trace.recordings[k];
          return r?.kind === "replicas" && (r.rounds?.start.length ?? 0) > 0;
        }) ?? [],
      slow: trace !== undefined && hasSlowEpisodes(trace),
      // An eviction inside the run is a failure row marked evicted (one past the horizon never happened).
      evictions: trace?.failures.evicted.includes(1) ?? false,
      job: trace?.policies.some((k) => hasJobLane(trace.recordings[k])) ?? false,
      racks: trace !== undefined && rackEvents(trace).length > 0,
      // The policies whose limited spare pool the chart draws, each line in its policy's colour.
      spares:
        trace !== undefined && hasSpareChart(trace)
          ? trace.policies.filter((k) => (trace.recordings[k]?.spares?.t.length ?? 0) > 0)
          : [],
    }),
    [trace],
  );
  return (
    <ul className="legend" aria-label="Timeline legend">
      {ITEMS.map((i) => (
        <li key={i.cls}>
          <span className={`swatch ${i.cls}`} aria-hidden="true" />
          {i.label}
        </li>
      ))}
      <li>
        <span className="marker-failstop" aria-hidden="true">
          ▼
        </span>
        Fail-stop failure
      </li>
      <li>
        <span className="marker-hang" aria-hidden="true">
          ◆
        </span>
        Hang (found by the watchdog)
      </li>
      {job && (
        <li data-testid="legend-job-lane">
          <span className="swatch sw-down" aria-hidden="true" />
          <span className="swatch sw-catchup" aria-hidden="true" />
          <span className="swatch sw-rolledback" aria-hidden="true" />
          FT-HSDP job lane: job restart · FT checkpoint write · rolled back
        </li>
      )}
      {rounds.length > 0 && (
        <li data-testid="legend-rounds">
          <span className="swatch sw-training" aria-hidden="true" />
          <span className="swatch sw-outersync" aria-hidden="true" />
          <span className="swatch sw-rolledback" aria-hidden="true" />
          {rounds.map((k) => policyOf(k).label).join(", ")} rounds lane: inner steps · outer sync · round
          discarded
        </li>
      )}
      {rounds.length > 0 && (
        <li data-testid="legend-round-work">
          <span className="swatch sw-idle" aria-hidden="true" />
          <span className="swatch sw-rolledback" aria-hidden="true" />
          Replica lane: idle, waiting for the next round · its round's work discarded
        </li>
      )}
      {slow && (
        <li data-testid="legend-slow">
          <span className="swatch sw-slow" aria-hidden="true" />
          Slow hosts (alive, but slower): the bars count them at each moment
        </li>
      )}
      {slow && (
        <li data-testid="legend-slow-shade">
          <span className="swatch sw-slowshade" aria-hidden="true" />
          Replica lane shaded: one of its hosts is slow, and every step waits for it
        </li>
      )}
      {evictions && (
        <li data-testid="legend-eviction">
          <span className="marker-evict" aria-hidden="true">
            ✕
          </span>
          Eviction: a host still slow after the eviction delay, dropped (a host failure found at once)
        </li>
      )}
      {racks && (
        <li data-testid="legend-rack">
          <span className="marker-rack" aria-hidden="true" />
          Rack failure: one event across the replicas it struck
        </li>
      )}
      {spares.length > 0 && (
        <li data-testid="legend-spares">
          {spares.map((k) => (
            <span
              key={k}
              className="line-policy"
              style={policyStyle(k)}
              data-testid={`legend-spares-${k}`}
              aria-hidden="true"
            />
          ))}
          Spare hosts available ({spares.map((k) => policyOf(k).shortLabel).join(" · ")}); shaded below zero:
          requests waiting
        </li>
      )}
    </ul>
  );
}
