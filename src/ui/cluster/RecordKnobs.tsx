/**
 * The knobs of §5's two object fields: `failures.badHosts` (a number input per member, ranges
 * from its spec) and `failures.log`, which is not slid but summarised, with a way back to drawn
 * arrivals (the log comes from a file, the fit panel, or a link).
 */
import {
  DEFAULT_SCENARIO,
  type FieldSpec,
  memberField,
  type ScenarioGroup,
} from "../../sim/scenario/index.ts";
import { useAppStore } from "../../state/store.ts";
import { NumberField } from "../form/NumberField.tsx";
import { usePending, withField } from "./pendingEdits.ts";

export function RecordKnob({
  group,
  field,
  spec,
}: {
  group: ScenarioGroup;
  field: string;
  spec: FieldSpec & { kind: "record" };
}) {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  const disabled = spec.knob.enabledWhen ? !spec.knob.enabledWhen(scenario) : false;
  return (
    <>
      {Object.entries(spec.fields).map(([k, f]) => (
        <NumberField
          key={k}
          label={f.label}
          unit={f.unit}
          help={`${f.help} (${spec.label}: ${spec.help})`}
          className="knob"
          value={memberField(scenario, group, field, k) ?? Number.NaN}
          disabled={disabled}
          testId={`${group}.${field}.${k}`}
          onChange={(v) =>
            pending.apply(`${group}.${field}.${k}`, (s) =>
              withField(group, field, {
                ...Object.fromEntries(
                  Object.keys(spec.fields).map((m) => [m, memberField(s, group, field, m)]),
                ),
                [k]: v,
              })(s),
            )
          }
        />
      ))}
    </>
  );
}

/** "Replay of a log: N events on H hosts over D days", and the way back to drawn arrivals. */
export function LogSummary() {
  const pending = usePending();
  const arrivals = useAppStore((s) => s.scenario.failures.arrivals);
  const log = useAppStore((s) => s.scenario.failures.log);
  if (arrivals !== "log") return null;
  return (
    <div className="knob knobs-note" data-testid="failures.log">
      <p>
        Replay of a log: {log.events.length.toLocaleString("en-US")} events on{" "}
        {log.hosts.toLocaleString("en-US")} hosts over {log.days.toLocaleString("en-US")} days. Every seed
        meets the same failures; the failure rate, arrivals, cause shares and lemon hosts above do not change
        them.
      </p>
      <button
        type="button"
        data-testid="log-back-to-drawn"
        onClick={() =>
          pending.apply("failures.log", (s) => ({
            ...s,
            failures: { ...s.failures, arrivals: "poisson", log: DEFAULT_SCENARIO.failures.log },
          }))
        }
      >
        Back to drawn (Poisson) arrivals
      </button>
    </div>
  );
}
