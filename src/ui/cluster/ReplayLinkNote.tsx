/** Beside Copy link: a replay whose log is too big for a link (§5: 64 KB) goes by file instead. */
import { useMemo } from "react";
import { downloadText } from "../../export/download.ts";
import { scenarioLinkProblem } from "../../link/scenarioLink.ts";
import { useAppStore } from "../../state/store.ts";

export function ReplayLinkNote() {
  const scenario = useAppStore((s) => s.scenario);
  // Encoding a log costs milliseconds: only a replay is measured, once per scenario.
  const problem = useMemo(
    () => (scenario.failures.arrivals === "log" ? scenarioLinkProblem(scenario) : null),
    [scenario],
  );
  if (!problem) return null;
  return (
    <p className="muted" data-testid="replay-link-too-long">
      {problem}{" "}
      <button
        type="button"
        className="link-button"
        onClick={() =>
          downloadText(JSON.stringify(scenario, null, 2), "replay-scenario.json", "application/json")
        }
      >
        Save the scenario file
      </button>
    </p>
  );
}
