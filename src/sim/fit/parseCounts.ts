/**
 * Format 3: a published counts table, `{gpus, gpusPerHost, days, causes: {name: count}}` (such as
 * Llama 3's 419 unexpected interruptions in 54 days on 16,384 GPUs): a rate and a mix, no times.
 */
import { checkedText, quote } from "./quote.ts";
import { type CountsLog, LogError, MAX_LABEL_CHARS } from "./types.ts";

function positive(v: unknown, field: string, integer: boolean): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) {
    throw new LogError(`counts table: ${field} must be a positive ${integer ? "integer" : "number"}`);
  }
  return v;
}

export function parseCounts(table: Record<string, unknown>): CountsLog {
  for (const key of Object.keys(table)) {
    if (!["gpus", "gpusPerHost", "days", "causes"].includes(key)) {
      throw new LogError(
        `counts table: unknown field ${quote(key)}; fields are gpus, gpusPerHost, days, causes`,
      );
    }
  }
  const gpus = positive(table.gpus, "gpus", true);
  const gpusPerHost = positive(table.gpusPerHost, "gpusPerHost", true);
  const days = positive(table.days, "days", false);
  const raw = table.causes;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LogError("counts table: causes must be an object {name: count}");
  }
  const causes = Object.entries(raw).map(([name, count], i) => {
    const where = `counts table, cause ${i + 1}`;
    if (name === "") throw new LogError(`${where}: a cause needs a name`);
    checkedText(name, where, "name", MAX_LABEL_CHARS);
    if (typeof count !== "number" || !Number.isInteger(count) || count < 0) {
      throw new LogError(`${where}: the count of ${quote(name)} must be a whole number ≥ 0`);
    }
    return { name, count };
  });
  if (causes.length === 0)
    throw new LogError("counts table: causes is empty; list at least one {name: count}");
  return { format: "counts", gpus, gpusPerHost, days, causes };
}
