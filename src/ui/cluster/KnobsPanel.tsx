/**
 * The scenario's knobs, generated from FIELD_SPECS so labels, units, ranges, sections, option
 * labels and when a knob is enabled never drift from the validator (the layout: knobLayout.ts).
 * An edit reaches the store only when the whole scenario validates; until then the field keeps
 * what the person typed and says, in the validator's words, what is allowed.
 */

import { useRef } from "react";
import { youngDalySeconds } from "../../sim/closedForms/closedForms.ts";
import { causeTable } from "../../sim/failures/causes.ts";
import { type PolicyKey, policyKeys } from "../../sim/policies/policyKeys.ts";
import {
  derived,
  FIELD_SPECS,
  type FieldSpec,
  numberField,
  type ScenarioGroup,
  stringField,
} from "../../sim/scenario/index.ts";
import { useAppStore } from "../../state/store.ts";
import { Panel } from "../boundary/Panel.tsx";
import { SelectField } from "../form/Field.tsx";
import { NumberField } from "../form/NumberField.tsx";
import { CauseMixEditor } from "./CauseMixEditor.tsx";
import { knobLayout, specOf } from "./knobLayout.ts";
import { mtbfProblem } from "./mtbf.ts";
import { PendingContext, PendingEdits, usePending, withField } from "./pendingEdits.ts";
import { LogSummary, RecordKnob } from "./RecordKnobs.tsx";

function EnumSelect({
  group,
  field,
  spec,
}: {
  group: ScenarioGroup;
  field: string;
  spec: FieldSpec & { kind: "enum" };
}) {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  const value = stringField(scenario, group, field) ?? "";
  return (
    <SelectField
      label={spec.label}
      help={spec.help}
      className="knob"
      value={value}
      testId={`${group}.${field}`}
      choices={spec.values.map((v) => ({ value: v, text: spec.knob.options?.[v] ?? v }))}
      disabled={spec.knob.enabledWhen ? !spec.knob.enabledWhen(scenario) : false}
      onChange={(v) => pending.apply(`${group}.${field}`, withField(group, field, v))}
    />
  );
}

function Field({ group, field }: { group: ScenarioGroup; field: string }) {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  const spec = specOf(group, field);
  if (spec.kind === "enum") return <EnumSelect group={group} field={field} spec={spec} />;
  // The one list field, the cause mix, has its own editor.
  if (spec.kind === "list") return <CauseMixEditor />;
  if (spec.kind === "record") return <RecordKnob group={group} field={field} spec={spec} />;
  if (spec.kind === "log") return <LogSummary />;
  const value = numberField(scenario, group, field) ?? Number.NaN;
  const key = `${group}.${field}`;
  return (
    <NumberField
      label={spec.label}
      unit={spec.unit}
      help={spec.help}
      className="knob"
      value={value}
      integer={spec.kind === "int"}
      disabled={spec.knob.enabledWhen ? !spec.knob.enabledWhen(scenario) : false}
      testId={key}
      onChange={(v) => pending.apply(key, withField(group, field, v))}
    />
  );
}

/** Racks and placement matter only through rack-scope failures: say so while there are none. */
function RackNote() {
  const rackCause = useAppStore((s) => s.scenario.failures.causes.some((c) => c.scope === "rack"));
  if (rackCause) return null;
  return (
    <p className="muted knobs-note" data-testid="rack-note">
      Hosts per rack and placement change nothing yet: every failure strikes one host. Add a cause of rack
      scope under Cause mix to see them matter.
    </p>
  );
}

/** The failure rate as the job's MTBF, which is how people usually think of it at scale. */
function MtbfField() {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  const { mtbfSeconds } = derived(scenario);
  const minutes = Number.isFinite(mtbfSeconds) ? Number((mtbfSeconds / 60).toPrecision(4)) : 0;
  return (
    <NumberField
      label="Job MTBF"
      unit="min"
      help="Mean time between failures of the whole job: 1 / (hosts · rate). Editing it sets the per-host rate."
      className="knob"
      value={minutes}
      testId="mtbfMinutes"
      onChange={(m) => {
        const problem = mtbfProblem(m, derived(scenario).hosts);
        if (problem) return [problem];
        // The rate follows the hosts of the scenario it lands in (GPUs may be changing too).
        return pending.apply("mtbf", (s) =>
          withField("failures", "perHostDay", 86_400 / (derived(s).hosts * m * 60))(s),
        );
      }}
    />
  );
}

/**
 * One click sets a policy's checkpoint interval to Young/Daly √(2W/λ). The synchronous job
 * checkpoints against every failure; FT-HSDP's checkpoint only serves job-scope failures, so its λ
 * is theirs. Disabled, saying why, where the formula has nothing to say.
 */
function YoungDalyButton({ group }: { group: "sync" | "ft" }) {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  const lambda = derived(scenario).lambdaPerSecond * (group === "ft" ? causeTable(scenario).jobShare : 1);
  const write = scenario[group].checkpointWriteSeconds;
  const spec = FIELD_SPECS[group].checkpointMinutes as FieldSpec & { max: number };
  const why =
    write <= 0
      ? "Set a checkpoint write time first: with a free write, Young/Daly says checkpoint continuously."
      : lambda <= 0
        ? "No job-scope causes in the failure mix: FT-HSDP never needs its checkpoint."
        : null;
  const minutes = why
    ? 0
    : Math.min(spec.max, Math.max(0.01, Number((youngDalySeconds(write, lambda) / 60).toFixed(2))));
  return (
    <div className="knob knob-action">
      <button
        type="button"
        data-testid={`${group}.youngDaly`}
        disabled={why !== null}
        title={
          why ??
          `Checkpoint interval √(2W/λ) = ${minutes} min (W = ${write} s, λ = ${(lambda * 86_400).toPrecision(3)}/day)`
        }
        onClick={() =>
          pending.apply(`${group}.checkpointMinutes`, withField(group, "checkpointMinutes", minutes))
        }
      >
        Young/Daly interval{why ? "" : ` (${minutes} min)`}
      </button>
    </div>
  );
}

function SeedField() {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  return (
    <NumberField
      label="Seed"
      help="The random seed: the same scenario and seed give the same failures, everywhere."
      className="knob"
      value={scenario.seed}
      integer
      testId="seed"
      onChange={(seed) => pending.apply("seed", (s) => ({ ...s, seed }))}
    />
  );
}

/** Built once: the specs do not change while the page runs. */
const SECTIONS = knobLayout();

/** A group that is one policy's own (inMemory, hotSpare): its knobs show only while it is selected. */
const isPolicyGroup = (group: ScenarioGroup): group is ScenarioGroup & PolicyKey =>
  policyKeys().includes(group);

/** A knob, and beside a checkpoint interval the button that sets it to Young/Daly. */
function FieldWithAction({ group, field }: { group: ScenarioGroup; field: string }) {
  const hidden = useAppStore((s) => isPolicyGroup(group) && !s.scenario.policies.includes(group));
  if (hidden) return null;
  return (
    <>
      <Field group={group} field={field} />
      {field === "checkpointMinutes" && (group === "sync" || group === "ft") ? (
        <YoungDalyButton group={group} />
      ) : null}
      {field === "checkpointMinutes" && group === "ft" ? <FtCheckpointNote /> : null}
      {field === "hangFraction" && group === "failures" ? <HangFractionNote /> : null}
    </>
  );
}

/** §3: hangFraction must be 0 beside a cause mix, so the knob is off while one is set; say why. */
function HangFractionNote() {
  const mix = useAppStore((s) => s.scenario.failures.causes.length > 0);
  if (!mix) return null;
  return (
    <p className="muted knobs-note" data-testid="failures.hangFractionNote">
      Off while a cause mix is set: each cause says whether it hangs. Clear the mix to use it again.
    </p>
  );
}

/** §3: with job-scope causes and no FT checkpoint, the model is optimistic; say so where it is set. */
function FtCheckpointNote() {
  const scenario = useAppStore((s) => s.scenario);
  const jobScope = scenario.failures.causes.some((c) => c.scope === "job");
  if (!jobScope || scenario.ft.checkpointMinutes !== 0) return null;
  return (
    <p className="muted knobs-note" data-testid="ft.checkpointNote">
      0 = a job-scope failure loses no FT-HSDP work (optimistic)
    </p>
  );
}

export function KnobsPanel() {
  const scenario = useAppStore((s) => s.scenario);
  const pending = useRef(new PendingEdits()).current;
  const { hosts, hostsPerReplica } = derived(scenario);
  return (
    <PendingContext.Provider value={pending}>
      <Panel what="The knobs" className="panel knobs" aria-label="Scenario knobs" data-control="knobs">
        <h2>Scenario</h2>
        <p className="muted knobs-summary">
          {hosts.toLocaleString("en-US")} hosts · {hostsPerReplica.toLocaleString("en-US")} hosts per replica
        </p>
        {SECTIONS.map((section) => (
          <fieldset key={section.id} data-control={`knobs.${section.id}`}>
            <legend>{section.title}</legend>
            {section.note ? <p className="muted knobs-note">{section.note}</p> : null}
            {section.fields.map(([g, f]) => (
              <FieldWithAction key={`${g}.${f}`} group={g} field={f} />
            ))}
            {section.extra === "mtbf" ? <MtbfField /> : null}
            {section.extra === "seed" ? <SeedField /> : null}
            {section.extra === "racks" ? <RackNote /> : null}
          </fieldset>
        ))}
      </Panel>
    </PendingContext.Provider>
  );
}
