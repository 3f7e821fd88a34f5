/**
 * The rows' model values as `npm run papers -- --write` recorded them (papers-recorded.json), so
 * the page shows them without simulating; papers.test.ts recomputes every row from its scenario
 * and fails if one differs in any bit.
 */

import { CLAIMS } from "./claims.ts";
import type { ClaimRow, ModelValue } from "./claimTypes.ts";
import recorded from "./papers-recorded.json" with { type: "json" };
import { verdictOf } from "./verdict.ts";

export type RecordedValues = Readonly<Record<string, ModelValue>>;

export const RECORDED: RecordedValues = recorded.values;

/** Every claim with its recorded value (a claim with none is a bug the test names). */
export function recordedRows(values: RecordedValues = RECORDED): ClaimRow[] {
  return CLAIMS.map((claim) => {
    const model = values[claim.id];
    if (!model)
      throw new RangeError(`no recorded value for claim ${claim.id}: run npm run papers -- --write`);
    return { claim, model, verdict: verdictOf(claim.published, model) };
  });
}
