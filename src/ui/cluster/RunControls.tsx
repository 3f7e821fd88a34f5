/**
 * The row that runs a long job of the Cluster view (a sweep, a tornado) and the question a link
 * asks before it starts one: one component each, so the two jobs cannot drift apart in how they
 * start, stop, show progress or ask.
 */
import type { ReactNode } from "react";
import { MONTE_CARLO_BUDGET_FAILURES } from "../../sim/monteCarlo/budget.ts";
import { LINK_RUN_ASK_SECONDS, type LinkRunCost } from "../../state/linkRunCost.ts";

interface RunControlsProps {
  /** "Sweep", "Tornado": the progress bar's accessible name. */
  what: string;
  runLabel: string;
  cancelLabel: string;
  running: boolean;
  /** Done so far, 0 to 1. */
  frac: number;
  status: ReactNode;
  onRun(): void;
  onCancel(): void;
  /** The test ids of the row's parts, `<prefix>-run`, `-cancel`, `-progress`, `-status`; the buttons' only with `buttonIds`. */
  testPrefix: string;
  buttonIds?: boolean;
}

/** Run and cancel, the progress bar and the status line (read aloud as it changes). */
export function RunControls(p: RunControlsProps) {
  const id = (part: string) => (p.buttonIds ? `${p.testPrefix}-${part}` : undefined);
  return (
    <>
      <button
        type="button"
        className="primary"
        onClick={p.onRun}
        disabled={p.running}
        data-testid={id("run")}
      >
        {p.runLabel}
      </button>
      <button type="button" onClick={p.onCancel} disabled={!p.running} data-testid={id("cancel")}>
        {p.cancelLabel}
      </button>
      <progress
        aria-label={`${p.what} progress`}
        data-testid={`${p.testPrefix}-progress`}
        max={1}
        value={p.frac}
        className={p.running ? "" : "idle"}
      />
      <span className="muted" data-testid={`${p.testPrefix}-status`} aria-live="polite">
        {p.status}
      </span>
    </>
  );
}

/**
 * A link's question before it runs a costly job on open: what it runs (`head`, the job's own
 * words), why it asks (past the failures budget, or past the time a link runs without asking),
 * and the answer.
 */
export function LinkRunAsk({
  testId,
  head,
  cost,
  onAnswer,
}: {
  testId: string;
  head: ReactNode;
  cost: LinkRunCost;
  onAnswer(run: boolean): void;
}) {
  return (
    <p className="sweep-confirm" role="alert" data-testid={testId}>
      {head}{" "}
      {cost.budget > MONTE_CARLO_BUDGET_FAILURES
        ? `That is past the budget of ${MONTE_CARLO_BUDGET_FAILURES.toLocaleString("en-US")} failures (the command line's too).`
        : `A link asks before a run estimated past ${LINK_RUN_ASK_SECONDS} s.`}{" "}
      <button type="button" onClick={() => onAnswer(true)}>
        Run it
      </button>{" "}
      <button type="button" onClick={() => onAnswer(false)}>
        Not now
      </button>
    </p>
  );
}
