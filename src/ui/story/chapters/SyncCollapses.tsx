/**
 * Chapter 2: synchronous ETTR falls as the cluster grows; computed on arrival, for the paper's
 * fixed arrivals (one failure every 1/λ: 44 % at 98K GPUs) and random ones (57 %), and why.
 */

import { axisBottom, axisLeft } from "d3-axis";
import { scaleLinear, scaleLog } from "d3-scale";
import { select } from "d3-selection";
import { line } from "d3-shape";
import { useEffect, useMemo, useRef } from "react";
import { DEFAULT_SCENARIO, type ScenarioInput } from "../../../sim/scenario/index.ts";
import { type StoryMonteCarlo, type StoryRun, storyMonteCarlo, storyRun } from "../../../state/storyData.ts";
import { count, pct } from "../../format.ts";
import { Term } from "../../glossary/Term.tsx";
import { policyStyle } from "../../policyColour.ts";
import { useWidth } from "../../useWidth.ts";
import { Figure, Prose, Sources, SRC, WhenLoaded } from "../parts.tsx";
import { usePresenter } from "../presenter.ts";
import { usePromise } from "../usePromise.ts";

/** Cluster sizes, doubling up to the paper's 98,304 and one beyond: each divides into 12 replicas of 8-GPU hosts. */
export const SIZES = [1_536, 3_072, 6_144, 12_288, 24_576, 49_152, 98_304, 196_608] as const;
export const SEEDS = 20;

interface Point {
  gpus: number;
  fixed: StoryRun;
  random: StoryMonteCarlo;
}

function at(gpus: number, arrivals: "fixed" | "poisson"): ScenarioInput {
  return { cluster: { gpus }, failures: { arrivals } };
}

async function compute(): Promise<Point[]> {
  return Promise.all(
    SIZES.map(async (gpus) => ({
      gpus,
      fixed: await storyRun(at(gpus, "fixed"), false),
      random: await storyMonteCarlo(at(gpus, "poisson"), SEEDS),
    })),
  );
}

/** The chart's height and margins on screen, and on a projector, where its text is 18 px (presenter mode). */
const SCREEN = { H: 300, M: { top: 16, right: 24, bottom: 44, left: 52 }, title: 36 };
const PRESENTER = { H: 280, M: { top: 16, right: 44, bottom: 58, left: 64 }, title: 50 };

function Chart({ points }: { points: Point[] }) {
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  // Wider margins there: the last tick (196,608) and the axis title stay inside the chart.
  const { H, M, title } = usePresenter((s) => s.presenting) ? PRESENTER : SCREEN;
  const innerW = Math.max(60, width - M.left - M.right);
  const innerH = H - M.top - M.bottom;
  const x = useMemo(
    () =>
      scaleLog()
        .domain([SIZES[0], SIZES[SIZES.length - 1] as number])
        .range([0, innerW]),
    [innerW],
  );
  const y = useMemo(() => scaleLinear().domain([0, 1]).range([innerH, 0]), [innerH]);
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  useEffect(() => {
    if (xAxis.current)
      select(xAxis.current).call(
        axisBottom(x)
          .tickValues(innerW > 420 ? [...SIZES] : [1_536, 12_288, 98_304])
          .tickFormat((d) => count(Number(d))),
      );
    if (yAxis.current) select(yAxis.current).call(axisLeft(y).ticks(5, "%"));
  }, [x, y, innerW]);
  const path = (value: (p: Point) => number) =>
    line<Point>()
      .x((p) => x(p.gpus))
      .y((p) => y(value(p)))(points) ?? "";
  const series = [
    {
      cls: "s-sync-random",
      policy: "synchronous",
      name: "Synchronous, random arrivals",
      value: (p: Point) => p.random.synchronous.ettr.mean,
    },
    {
      cls: "s-sync-fixed",
      policy: "synchronous",
      name: "Synchronous, fixed arrivals",
      value: (p: Point) => p.fixed.synchronous.ettr,
    },
    {
      cls: "s-ft-random",
      policy: "ftHsdp",
      name: "FT-HSDP, random arrivals",
      value: (p: Point) => p.random.ftHsdp.ettr.mean,
    },
    {
      cls: "s-ft-fixed",
      policy: "ftHsdp",
      name: "FT-HSDP, fixed arrivals",
      value: (p: Point) => p.fixed.ftHsdp.ettr,
    },
  ];
  const xHead = x(DEFAULT_SCENARIO.cluster.gpus);
  return (
    <div ref={box} className="chart-box">
      <svg width={width} height={H} role="img" aria-labelledby="collapse-title" data-testid="collapse-chart">
        <title id="collapse-title">
          ETTR against cluster size, synchronous and FT-HSDP, fixed and random arrivals
        </title>
        <g transform={`translate(${M.left},${M.top})`}>
          <g ref={xAxis} className="axis" transform={`translate(0,${innerH})`} />
          <g ref={yAxis} className="axis" />
          <line className="story-mark" x1={xHead} x2={xHead} y1={0} y2={innerH} />
          {series.map((s) => (
            <g key={s.cls} className={`story-series ${s.cls}`} style={policyStyle(s.policy)}>
              <path d={path(s.value)} />
              {points.map((p) => (
                <circle key={p.gpus} cx={x(p.gpus)} cy={y(s.value(p))} r={3.5} />
              ))}
            </g>
          ))}
          <text className="axis-title" x={innerW / 2} y={innerH + title} textAnchor="middle">
            {innerW > 420 ? "GPUs (12 replicas, 8 per host, the same failure rate per host)" : "GPUs"}
          </text>
        </g>
      </svg>
      <ul className="story-legend">
        {series.map((s) => (
          <li key={s.cls} className={s.cls} style={policyStyle(s.policy)}>
            <svg width="22" height="10" aria-hidden="true">
              <line x1="0" x2="22" y1="5" y2="5" />
            </svg>
            {s.name}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function SyncCollapsesChapter() {
  const loaded = usePromise("sync-collapses", compute);
  return (
    <>
      <Prose>
        <p>
          Double the GPUs and failures come twice as often, but each still stops a synchronous job for the
          same 10 minutes. The share of time it trains, its <Term id="ettr" />, falls with size. FT-HSDP, next
          chapter, holds up.
        </p>
        <WhenLoaded loaded={loaded}>
          {(points) => {
            const head = points.find((p) => p.gpus === DEFAULT_SCENARIO.cluster.gpus);
            if (!head) return null;
            return (
              <p data-testid="collapse-numbers">
                At {count(head.gpus)} GPUs the paper's arithmetic, one failure exactly every 18 min, gives{" "}
                <strong data-testid="collapse-fixed">{pct(head.fixed.synchronous.ettr)}</strong> (8 of every
                18 min). Real failures arrive at random, and this explorer draws them so: then{" "}
                <strong data-testid="collapse-random">{pct(head.random.synchronous.ettr.mean)}</strong> (mean
                of {SEEDS} seeds). Random arrivals bunch up: a failure that lands during a recovery merges
                into it instead of costing its own 10 minutes, and long quiet gaps let the job train.
              </p>
            );
          }}
        </WhenLoaded>
      </Prose>
      <Figure label="ETTR against cluster size">
        <WhenLoaded loaded={loaded}>{(points) => <Chart points={points} />}</WhenLoaded>
      </Figure>
      <Sources items={[SRC.ftHsdp, SRC.ftHsdpReported]} />
    </>
  );
}
