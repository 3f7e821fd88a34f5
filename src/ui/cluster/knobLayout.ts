/**
 * The knobs panel's layout, built from the field specs: each field sits in the section its spec
 * names, in the order of the spec tables, so a new field gets its knob by being described, and
 * none can be forgotten (knobLayout.test.ts). Only the sections' titles and notes, and the few
 * controls that are not a field (the job MTBF, the seed), are written here.
 */
import {
  FIELD_SPECS,
  type FieldSpec,
  GROUPS,
  KNOB_SECTIONS,
  type KnobSection,
  type ScenarioGroup,
} from "../../sim/scenario/index.ts";

export interface KnobSectionLayout {
  /** The section's id in a classroom link's `hide=` (as `knobs.<id>`). */
  id: KnobSection;
  title: string;
  note?: string;
  fields: [ScenarioGroup, string][];
  /** A control after the fields that edits no single field. */
  extra?: "mtbf" | "seed" | "racks";
}

const SECTION_TEXT: Record<KnobSection, Omit<KnobSectionLayout, "id" | "fields">> = {
  // Racks and placement do nothing until a rack-scope cause exists: the note says so.
  cluster: { title: "Cluster", extra: "racks" },
  failures: { title: "Failures", extra: "mtbf" },
  causes: {
    title: "Cause mix",
    note: "What each failure is, drawn by share: one host, a whole rack, or the whole job. No mix: every failure strikes one host, and the hang fraction says which hang.",
  },
  detection: { title: "Detection" },
  sync: {
    title: "Synchronous job",
    note: "Any failure stops everyone; work since the last checkpoint is lost.",
  },
  ft: { title: "FT-HSDP", note: "Only the failed replica restarts; the others keep training." },
  spares: {
    title: "Spare hosts",
    note: "Unlimited: a failed host is replaced at once. Limited: recoveries wait for a spare; failed hosts return after repair.",
  },
  slow: {
    title: "Slow hosts",
    note: "Hosts that stay alive but run slow: every synchronous step waits for the slowest one. FT-HSDP waits for the slowest healthy replica, and can evict it.",
  },
  diloco: {
    title: "DiLoCo",
    note: "Each replica takes H steps alone, then the round's replicas average their changes in one outer sync. A failure costs the struck replica its round; one during the sync costs every participant theirs.",
  },
  run: { title: "Run", extra: "seed" },
};

/** The spec of one field. */
export function specOf(group: ScenarioGroup, field: string): FieldSpec {
  return (FIELD_SPECS[group] as Record<string, FieldSpec>)[field]!;
}

/** The sections in KNOB_SECTIONS' order, each with its fields. */
export function knobLayout(): KnobSectionLayout[] {
  const fields = new Map<KnobSection, [ScenarioGroup, string][]>(KNOB_SECTIONS.map((id) => [id, []]));
  for (const g of GROUPS) {
    for (const [f, spec] of Object.entries(FIELD_SPECS[g] as Record<string, FieldSpec>)) {
      fields.get(spec.knob.section)!.push([g, f]);
    }
  }
  return KNOB_SECTIONS.map((id) => ({ id, ...SECTION_TEXT[id], fields: fields.get(id)! }));
}
