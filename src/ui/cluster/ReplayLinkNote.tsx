/**
 * Beside Copy link, for a replay: how long its link is, since it carries the log's every event
 * (deflated: the link format is a public contract, so old links decode as they did); a log too
 * big for a link (§5: 64 KB) goes by file instead.
 */
import { useMemo } from "react";
import { downloadText } from "../../export/download.ts";
import { encodeScenarioParam, scenarioLinkProblem } from "../../link/scenarioLink.ts";
import { useAppStore } from "../../state/store.ts";

/** Past this many characters a link is called long (URLs past about 2,000 characters are cut by some tools). */
export const LONG_LINK_CHARS = 2000;

export function ReplayLinkNote() {
  const scenario = useAppStore((s) => s.scenario);
  // Encoding a log costs milliseconds: only a replay is measured, once per scenario.
  const measured = useMemo(
    () =>
      scenario.failures.arrivals === "log"
        ? { problem: scenarioLinkProblem(scenario), chars: encodeScenarioParam(scenario).length }
        : null,
    [scenario],
  );
  if (!measured || (!measured.problem && measured.chars <= LONG_LINK_CHARS)) return null;
  const save = (
    <button
      type="button"
      className="link-button"
      onClick={() =>
        downloadText(JSON.stringify(scenario, null, 2), "replay-scenario.json", "application/json")
      }
    >
      Save the scenario file
    </button>
  );
  if (measured.problem)
    return (
      <p className="muted" data-testid="replay-link-too-long">
        {measured.problem} {save}
      </p>
    );
  const events = scenario.failures.log.events.length;
  return (
    <p className="muted" data-testid="replay-link-long">
      This replay's link is long: its scenario is {measured.chars.toLocaleString("en-US")} characters, as it
      carries the log's {events.toLocaleString("en-US")} events (compressed). A link this long may be cut
      where it is pasted; the file keeps it whole. {save}
    </p>
  );
}
