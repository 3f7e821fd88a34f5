/**
 * The cause mix (`failures.causes`, docs/model.md §3) as an editable list of rows: name, share
 * (a percentage: the shares shown always sum to 100), scope, hang, new host. Every edit goes through the knobs'
 * PendingEdits like any other knob, so it reaches the simulation (and the link) only when the
 * whole scenario validates; a refused edit stays on screen, marked, with the validator's words
 * beside the row they name (`failures.causes[3].share: …`), while the previous mix keeps running.
 *
 * A mix and a hang fraction above 0 cannot go together (the causes say which failures hang), so
 * setting a mix sets the hang fraction to 0, says so, and clearing the mix gives it back.
 */
import { useEffect, useId, useRef, useState } from "react";
import { LLAMA3_CAUSES } from "../../sim/presets.ts";
import { type CauseScope, type FailureCause, FIELD_SPECS, type FieldSpec } from "../../sim/scenario/index.ts";
import { appStore, useAppStore } from "../../state/store.ts";
import { withPercent } from "./causeShares.ts";
import { usePending } from "./pendingEdits.ts";

const KEY = "failures.causes";
const SCOPES: readonly CauseScope[] = ["host", "rack", "job"];
const SCOPE_TEXT: Record<CauseScope, string> = { host: "one host", rack: "a rack", job: "the job" };
const ITEM = (FIELD_SPECS.failures.causes as FieldSpec & { kind: "list" }).item;
const MAX_ROWS = (FIELD_SPECS.failures.causes as FieldSpec & { kind: "list" }).maxItems;

/** A row as typed: the share keeps its text so it can be cleared and retyped. */
interface Row {
  id: number;
  name: string;
  share: string;
  scope: CauseScope;
  hang: boolean;
  newHost: boolean;
}

interface Draft {
  /** The mix in use (as JSON) when the rows were last in step with it. */
  basis: string;
  rows: Row[];
  /** The validator's problems with the rows shown (empty: the rows are what runs). */
  problems: string[];
}

let nextId = 1;
const toRows = (causes: readonly FailureCause[]): Row[] =>
  causes.map((c) => ({ ...c, id: nextId++, share: String(c.share) }));

const toCauses = (rows: readonly Row[]): FailureCause[] =>
  rows.map(({ name, share, scope, hang, newHost }) => ({
    name,
    share: share.trim() === "" ? Number.NaN : Number(share),
    scope,
    hang,
    newHost,
  }));

/** Row i's problems, keyed by field, and the problems that name no row. */
function splitProblems(problems: readonly string[]) {
  const byRow = new Map<number, Map<string, string>>();
  const other: string[] = [];
  for (const p of problems) {
    const m = /^failures\.causes\[(\d+)\](?:\.(\w+))?:/.exec(p);
    if (!m) {
      other.push(p);
      continue;
    }
    const row = byRow.get(Number(m[1])) ?? new Map<string, string>();
    row.set(m[2] ?? "", p);
    byRow.set(Number(m[1]), row);
  }
  return { byRow, other };
}

/** A share as the percentage its input shows: one decimal, no trailing zero. */
const pctValue = (share: number) => String(Math.round(share * 1000) / 10);

/** Why a typed percentage is refused, or null when it can be applied. */
function percentProblem(text: string, index: number): string | null {
  const p = Number(text);
  if (text.trim() !== "" && Number.isFinite(p) && p > 0 && p < 100) return null;
  const typed = text.trim() === "" ? "nothing" : `“${text.trim()}”`;
  return `Cause ${index + 1}'s share: got ${typed}; a share is a percentage above 0 and below 100 (the other causes share the rest).`;
}

export function CauseMixEditor() {
  const pending = usePending();
  const scenario = useAppStore((s) => s.scenario);
  const inUse = scenario.failures.causes;
  const inUseJson = JSON.stringify(inUse);
  const [draft, setDraft] = useState<Draft>(() => ({ basis: inUseJson, rows: toRows(inUse), problems: [] }));
  /** The hang fraction a mix set to 0, given back when the mix is cleared. */
  const zeroedHang = useRef<number | null>(null);
  const [hangNote, setHangNote] = useState<string | null>(null);
  /** A percentage being typed (shown as typed until the field loses focus), and why it is refused. */
  const [typing, setTyping] = useState<{ id: number; text: string; problem: string | null } | null>(null);
  const baseId = useId();
  const box = useRef<HTMLDivElement>(null);
  /** Where the keyboard goes after a row or the whole mix disappears from under it (a test id). */
  const [focusNext, setFocusNext] = useState<string | null>(null);
  useEffect(() => {
    if (!focusNext) return;
    box.current?.querySelector<HTMLElement>(`[data-testid="${focusNext}"]`)?.focus();
    setFocusNext(null);
  }, [focusNext]);

  // The mix in use changed under the rows (a preset, a link, another knob's edit that carried a
  // held mix), or a held mix was dropped (a new scenario replaced it): show what runs.
  const stale = draft.basis !== inUseJson || (draft.problems.length > 0 && !pending.holds(KEY));
  const current: Draft = stale ? { basis: inUseJson, rows: toRows(inUse), problems: [] } : draft;
  if (stale) setDraft(current);

  const edit = (rows: Row[]) => {
    const causes = toCauses(rows);
    const before = scenario.failures.hangFraction;
    const problems =
      pending.apply(KEY, (s) => ({
        ...s,
        failures: {
          ...s.failures,
          causes,
          // A mix and a hang fraction cannot go together; no mix gives back what a mix zeroed.
          hangFraction: causes.length > 0 ? 0 : (zeroedHang.current ?? s.failures.hangFraction),
        },
      })) ?? [];
    if (problems.length === 0) {
      if (causes.length > 0 && before > 0) {
        zeroedHang.current = before;
        setHangNote(
          `Hang fraction ${before} set to 0: with a cause mix, each cause says whether it hangs. Clearing the mix gives it back.`,
        );
      }
      if (causes.length === 0) {
        zeroedHang.current = null;
        setHangNote(null);
      }
    }
    setDraft({
      basis:
        problems.length === 0 ? JSON.stringify(appStore.getState().scenario.failures.causes) : current.basis,
      rows,
      problems,
    });
  };

  const update = (id: number, change: Partial<Row>) =>
    edit(current.rows.map((r) => (r.id === id ? { ...r, ...change } : r)));

  const typePercent = (row: Row, index: number, text: string) => {
    const problem = percentProblem(text, index);
    setTyping({ id: row.id, text, problem });
    // A refused percentage changes nothing: the mix in use, the results and the link stay.
    if (problem) return;
    const weights = current.rows.map((r) => Number(r.share));
    const next = withPercent(weights, index, Number(text));
    edit(current.rows.map((r, j) => ({ ...r, share: String(next[j]) })));
  };

  const revert = () => {
    setTyping(null);
    pending.drop(KEY);
    setDraft({ basis: inUseJson, rows: toRows(inUse), problems: [] });
  };

  const { byRow, other } = splitProblems(current.problems);
  const typedProblem = typing?.problem ?? null;
  const refused = current.problems.length > 0 || typedProblem !== null;
  let total = 0;
  for (const r of current.rows) {
    const v = Number(r.share);
    if (r.share.trim() !== "" && Number.isFinite(v) && v > 0) total += v;
  }
  const jobScope = current.rows.some((r) => r.scope === "job");

  return (
    <div className="cause-mix" ref={box} data-testid="cause-mix" data-refused={refused || undefined}>
      <div className="cause-actions">
        <button type="button" data-testid="causes.llama3" onClick={() => edit(toRows(LLAMA3_CAUSES))}>
          Llama 3 mix
        </button>
        <button
          type="button"
          data-testid="causes.clear"
          disabled={current.rows.length === 0}
          onClick={() => {
            edit([]);
            setFocusNext("causes.add");
          }}
        >
          Clear
        </button>
        <button
          type="button"
          data-testid="causes.add"
          disabled={current.rows.length >= MAX_ROWS}
          onClick={() =>
            edit([
              ...current.rows,
              {
                id: nextId++,
                name: `Cause ${current.rows.length + 1}`,
                share: "1",
                scope: "host",
                hang: false,
                newHost: true,
              },
            ])
          }
        >
          Add cause
        </button>
      </div>
      {current.rows.length === 0 ? (
        <p className="muted knobs-note" data-testid="causes.none">
          No mix: every failure strikes one host.
        </p>
      ) : (
        <ol className="cause-list" aria-label="Failure causes">
          {current.rows.map((row, i) => {
            const fromValidator = byRow.get(i);
            const typedHere = typing?.id === row.id ? typing : null;
            const errs =
              typedHere?.problem != null
                ? new Map([...(fromValidator ?? []), ["share", typedHere.problem]])
                : fromValidator;
            const id = `${baseId}-${row.id}`;
            const errorId = errs ? `${id}-err` : undefined;
            const invalid = (field: string) => (errs?.has(field) ? true : undefined);
            const v = Number(row.share);
            const share =
              row.share.trim() !== "" && Number.isFinite(v) && v > 0 && total > 0 ? v / total : null;
            return (
              <li key={row.id} className="cause-row" data-testid={`causes.${i}`}>
                <fieldset>
                  <legend className="cause-legend">
                    Cause {i + 1}
                    {row.name ? <span className="visually-hidden">: {row.name}</span> : null}
                  </legend>
                  <label className="cause-name" htmlFor={`${id}-name`}>
                    <span>Name</span>
                    {/* No maxLength: the browser cut a longer name without a word (and could
                        split an emoji); the validator refuses it by name beside the row. */}
                    <input
                      id={`${id}-name`}
                      type="text"
                      value={row.name}
                      aria-invalid={invalid("name")}
                      aria-describedby={errorId}
                      data-testid={`causes.${i}.name`}
                      onChange={(e) => update(row.id, { name: e.target.value })}
                    />
                  </label>
                  <button
                    type="button"
                    className="cause-remove"
                    aria-label={`Remove cause ${i + 1} (${row.name || "unnamed"})`}
                    title="Remove this cause"
                    data-testid={`causes.${i}.remove`}
                    onClick={() => {
                      const left = current.rows.length - 1;
                      edit(current.rows.filter((r) => r.id !== row.id));
                      // The next row's remove button (the one that slid into place), else the last, else Add.
                      setFocusNext(left === 0 ? "causes.add" : `causes.${Math.min(i, left - 1)}.remove`);
                    }}
                  >
                    ×
                  </button>
                  <label
                    className="cause-share"
                    htmlFor={`${id}-share`}
                    title={
                      current.rows.length === 1
                        ? "The only cause: every failure is this one (100 %)."
                        : "Percent of failures. The other causes share the rest in the proportions they had."
                    }
                  >
                    <span>Share (%)</span>
                    <input
                      id={`${id}-share`}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={100}
                      step="any"
                      value={typedHere ? typedHere.text : share === null ? row.share : pctValue(share)}
                      disabled={current.rows.length === 1}
                      aria-invalid={invalid("share")}
                      aria-describedby={errorId}
                      data-testid={`causes.${i}.share`}
                      onChange={(e) => typePercent(row, i, e.target.value)}
                      onBlur={() => setTyping(null)}
                    />
                  </label>
                  <label className="cause-scope" htmlFor={`${id}-scope`} title={ITEM.scope?.help}>
                    {/* The choices say it ("one host", "a rack", "the job"): the word is for screen readers. */}
                    <span className="visually-hidden">Scope</span>
                    <select
                      id={`${id}-scope`}
                      value={row.scope}
                      aria-invalid={invalid("scope")}
                      aria-describedby={errorId}
                      data-testid={`causes.${i}.scope`}
                      onChange={(e) => {
                        const scope = e.target.value as CauseScope;
                        // A job-scope cause strikes no host, so it can break none (§3).
                        update(row.id, {
                          scope,
                          newHost: scope === "job" ? false : row.scope === "job" || row.newHost,
                        });
                      }}
                    >
                      {SCOPES.map((s) => (
                        <option key={s} value={s}>
                          {SCOPE_TEXT[s]}
                        </option>
                      ))}
                    </select>
                  </label>
                  <label className="cause-check cause-hang" title={ITEM.hang?.help}>
                    <input
                      type="checkbox"
                      checked={row.hang}
                      aria-invalid={invalid("hang")}
                      data-testid={`causes.${i}.hang`}
                      onChange={(e) => update(row.id, { hang: e.target.checked })}
                    />
                    Hangs
                  </label>
                  <label
                    className="cause-check cause-newhost"
                    title={
                      row.scope === "job"
                        ? "A job-scope failure strikes no host, so it breaks none."
                        : ITEM.newHost?.help
                    }
                  >
                    <input
                      type="checkbox"
                      checked={row.newHost}
                      disabled={row.scope === "job"}
                      aria-invalid={invalid("newHost")}
                      data-testid={`causes.${i}.newHost`}
                      onChange={(e) => update(row.id, { newHost: e.target.checked })}
                    />
                    Needs a new host
                  </label>
                  {errs ? (
                    <div
                      id={errorId}
                      className="field-error error-text cause-error"
                      role="alert"
                      data-testid={`causes.${i}.error`}
                    >
                      {[...errs.values()].join(" ")}
                    </div>
                  ) : null}
                </fieldset>
              </li>
            );
          })}
        </ol>
      )}
      {refused ? (
        <div className="cause-refused" role="status" data-testid="causes.refused">
          <p>
            Not applied: the results still use{" "}
            {inUse.length === 0 ? "no cause mix" : `the previous mix (${inUse.length} causes)`}.
          </p>
          {other.length > 0 ? (
            <ul className="error-text" data-testid="causes.problems">
              {other.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
          <button type="button" data-testid="causes.revert" onClick={revert}>
            Back to the mix in use
          </button>
        </div>
      ) : null}
      {hangNote && current.rows.length > 0 ? (
        <p className="muted knobs-note" data-testid="causes.hangNote">
          {hangNote}
        </p>
      ) : null}
      {jobScope && scenario.ft.checkpointMinutes === 0 ? (
        <p className="muted knobs-note" data-testid="causes.optimisticNote">
          Job-scope causes with no FT-HSDP checkpoint (interval 0): FT-HSDP loses no work to them
          (optimistic).
        </p>
      ) : null}
    </div>
  );
}
