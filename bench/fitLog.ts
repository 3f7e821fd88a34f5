/**
 * The log both fit benches time (bench/fit.ts, bench/bench.ts): drawn by the engine (a bursty
 * year of a 12,000-host fleet, three causes) and written in InfiniteHBD's event-list format with
 * a fault_end per start: about 50,000 starts and 50,000 ends, the text the fit worker receives.
 */
import { drawnLog, logEventList } from "../src/testing/engineLog.ts";

export function fitBenchLog(): { text: string; events: number } {
  const drawn = drawnLog(
    {
      cluster: { gpus: 96_000, gpusPerHost: 8, replicas: 12 },
      training: { days: 365 },
      failures: {
        perHostDay: 50_600 / (12_000 * 365),
        arrivals: "weibull",
        weibullShape: 0.6,
        causes: [
          { name: "GPU", share: 5, scope: "host", hang: false, newHost: true },
          { name: "NIC", share: 2, scope: "host", hang: false, newHost: true },
          { name: "Software", share: 1, scope: "host", hang: true, newHost: false },
        ],
      },
    },
    1,
  );
  return { text: logEventList(drawn, (i) => 2 + ((i * 7919) % 97)), events: drawn.starts.length * 2 };
}
