/**
 * Ready-made scenarios. The loaded one is recognised by its name (the name travels in share
 * links), so its source is cited however the page was opened; knobs moved since are flagged.
 */
import { PRESETS, type Preset } from "../../sim/presets.ts";
import { parseScenario, type Scenario } from "../../sim/scenario/index.ts";
import { asHistoryEntry } from "../../state/address.ts";
import { appStore, useAppStore } from "../../state/store.ts";

const PARSED = PRESETS.map((p) => ({ preset: p, scenario: parseScenario(p.scenario) }));

function sameKnobs(a: Scenario, b: Scenario): boolean {
  return JSON.stringify({ ...a, seed: 0 }) === JSON.stringify({ ...b, seed: 0 });
}

export function activePreset(s: Scenario): { preset: Preset; modified: boolean } | null {
  const hit = PARSED.find((p) => p.scenario.name === s.name);
  return hit ? { preset: hit.preset, modified: !sameKnobs(hit.scenario, s) } : null;
}

export function Presets() {
  const scenario = useAppStore((s) => s.scenario);
  const active = activePreset(scenario);
  return (
    <div className="presets">
      <div className="preset-list">
        {PARSED.map(({ preset, scenario: s }) => (
          <button
            key={preset.id}
            type="button"
            className={active?.preset.id === preset.id ? "preset active" : "preset"}
            aria-pressed={active?.preset.id === preset.id}
            onClick={() => asHistoryEntry(() => appStore.getState().setScenario(s))}
          >
            {preset.title}
          </button>
        ))}
      </div>
      {active && (
        <div className="preset-source" data-testid="preset-source">
          <p>
            <strong>{active.preset.title}.</strong> {active.preset.description}
            {active.modified && <em> (Knobs changed since the preset was loaded.)</em>}
          </p>
          <p className="muted">
            <span className="source-label">Source:</span> {active.preset.source}
          </p>
        </div>
      )}
    </div>
  );
}
