/**
 * The scenario's knobs, generated from FIELD_SPECS so labels, units and ranges never drift from
 * the validator. An edit reaches the store only when the whole scenario validates; until then the
 * field keeps what the person typed and says, in the validator's words, what is allowed.
 */
import { useEffect, useId, useState } from "react";
import {
  derived,
  FIELD_SPECS,
  type FieldSpec,
  parseScenario,
  type Scenario,
  ScenarioError,
  type ScenarioGroup,
} from "../../sim/scenario.ts";
import { appStore, useAppStore } from "../../state/store.ts";

type Patch = (s: Scenario) => unknown;

/** How the enum values read in a menu (the scenario JSON keeps its own spelling). */
const OPTION_LABELS: Record<string, string> = {
  poisson: "Poisson",
  fixed: "Fixed (1/λ)",
  nonBlocking: "Non-blocking",
  blocking: "Blocking",
};

/** Apply a change when the whole scenario still validates; otherwise return the validator's problems. */
function applyPatch(patch: Patch): string[] | null {
  const { scenario, setScenario } = appStore.getState();
  try {
    setScenario(parseScenario(patch(scenario)));
    return null;
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
}

function withField(s: Scenario, group: ScenarioGroup, key: string, value: unknown): unknown {
  return { ...s, [group]: { ...s[group], [key]: value } };
}

interface NumberInputProps {
  label: string;
  unit?: string | undefined;
  help: string;
  value: number;
  step?: number | "any";
  /** Turn the typed number into a scenario; null problems means accepted. */
  apply: (v: number) => string[] | null;
  testId: string;
}

function NumberInput({ label, unit, help, value, step = "any", apply, testId }: NumberInputProps) {
  const id = useId();
  const [draft, setDraft] = useState(String(value));
  const [problems, setProblems] = useState<string[] | null>(null);
  // A change from elsewhere (a preset, a link, a sweep point) replaces the draft.
  useEffect(() => {
    setDraft(String(value));
    setProblems(null);
  }, [value]);
  const onChange = (text: string) => {
    setDraft(text);
    const v = text.trim() === "" ? Number.NaN : Number(text);
    setProblems(apply(v));
  };
  return (
    <div className="knob">
      <label htmlFor={id} title={help}>
        {label}
        {unit ? <span className="muted"> ({unit})</span> : null}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        step={step}
        value={draft}
        aria-invalid={problems ? true : undefined}
        aria-describedby={problems ? `${id}-err` : undefined}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      />
      {problems ? (
        <div id={`${id}-err`} className="knob-error error-text" role="alert">
          {problems.join(" ")}
        </div>
      ) : null}
    </div>
  );
}

function EnumSelect({
  group,
  field,
  spec,
}: {
  group: ScenarioGroup;
  field: string;
  spec: FieldSpec & { kind: "enum" };
}) {
  const id = useId();
  const scenario = useAppStore((s) => s.scenario);
  const value = (scenario[group] as unknown as Record<string, string>)[field];
  return (
    <div className="knob">
      <label htmlFor={id} title={spec.help}>
        {spec.label}
      </label>
      <select
        id={id}
        value={value}
        data-testid={`${group}.${field}`}
        onChange={(e) => {
          applyPatch((s) => withField(s, group, field, e.target.value));
        }}
      >
        {spec.values.map((v) => (
          <option key={v} value={v}>
            {OPTION_LABELS[v] ?? v}
          </option>
        ))}
      </select>
    </div>
  );
}

function Field({ group, field }: { group: ScenarioGroup; field: string }) {
  const scenario = useAppStore((s) => s.scenario);
  const spec = (FIELD_SPECS[group] as Record<string, FieldSpec>)[field]!;
  if (spec.kind === "enum") return <EnumSelect group={group} field={field} spec={spec} />;
  const value = (scenario[group] as unknown as Record<string, number>)[field]!;
  return (
    <NumberInput
      label={spec.label}
      unit={spec.unit}
      help={spec.help}
      value={value}
      step={spec.kind === "int" ? 1 : "any"}
      testId={`${group}.${field}`}
      apply={(v) => {
        return applyPatch((s) => withField(s, group, field, v));
      }}
    />
  );
}

/** The failure rate as the job's MTBF, which is how people usually think of it at scale. */
function MtbfField() {
  const scenario = useAppStore((s) => s.scenario);
  const { hosts, mtbfSeconds } = derived(scenario);
  const minutes = Number.isFinite(mtbfSeconds) ? Number((mtbfSeconds / 60).toPrecision(4)) : 0;
  return (
    <NumberInput
      label="Job MTBF"
      unit="min"
      help="Mean time between failures of the whole job: 1 / (hosts · rate). Editing it sets the per-host rate."
      value={minutes}
      testId="mtbfMinutes"
      apply={(m) => {
        if (!(m > 0)) return ["Job MTBF: must be a number of minutes above 0."];
        const perHostDay = 86_400 / (hosts * m * 60);
        return applyPatch((s) => withField(s, "failures", "perHostDay", perHostDay));
      }}
    />
  );
}

function SeedField() {
  const scenario = useAppStore((s) => s.scenario);
  return (
    <NumberInput
      label="Seed"
      help="The random seed: the same scenario and seed give the same failures, everywhere."
      value={scenario.seed}
      step={1}
      testId="seed"
      apply={(seed) => {
        return applyPatch((s) => ({ ...s, seed }));
      }}
    />
  );
}

const SECTIONS: {
  title: string;
  note?: string;
  fields: [ScenarioGroup, string][];
  extra?: "mtbf" | "seed";
}[] = [
  {
    title: "Cluster",
    fields: [
      ["cluster", "gpus"],
      ["cluster", "gpusPerHost"],
      ["cluster", "replicas"],
    ],
  },
  {
    title: "Failures",
    fields: [
      ["failures", "perHostDay"],
      ["failures", "arrivals"],
      ["failures", "hangFraction"],
    ],
    extra: "mtbf",
  },
  {
    title: "Detection",
    fields: [
      ["detection", "failStopSeconds"],
      ["detection", "hangSeconds"],
    ],
  },
  {
    title: "Synchronous job",
    note: "Any failure stops everyone; work since the last checkpoint is lost.",
    fields: [
      ["sync", "restartSeconds"],
      ["sync", "checkpointMinutes"],
      ["sync", "checkpointWriteSeconds"],
    ],
  },
  {
    title: "FT-HSDP",
    note: "Only the failed replica restarts; the others keep training.",
    fields: [
      ["ft", "reconfigureSeconds"],
      ["ft", "replicaRestartSeconds"],
      ["ft", "catchUp"],
      ["ft", "catchUpSeconds"],
      ["ft", "rejoinSeconds"],
      ["ft", "minReplicas"],
    ],
  },
  {
    title: "Run",
    fields: [
      ["training", "days"],
      ["training", "stepSeconds"],
    ],
    extra: "seed",
  },
];

export function KnobsPanel() {
  const scenario = useAppStore((s) => s.scenario);
  const { hosts, hostsPerReplica } = derived(scenario);
  return (
    <section className="panel knobs" aria-label="Scenario knobs">
      <h2>Scenario</h2>
      <p className="muted knobs-summary">
        {hosts.toLocaleString("en-US")} hosts · {hostsPerReplica.toLocaleString("en-US")} hosts per replica
      </p>
      {SECTIONS.map((section) => (
        <fieldset key={section.title}>
          <legend>{section.title}</legend>
          {section.note ? <p className="muted knobs-note">{section.note}</p> : null}
          {section.fields.map(([g, f]) => (
            <Field key={`${g}.${f}`} group={g} field={f} />
          ))}
          {section.extra === "mtbf" ? <MtbfField /> : null}
          {section.extra === "seed" ? <SeedField /> : null}
        </fieldset>
      ))}
    </section>
  );
}
