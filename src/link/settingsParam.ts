/**
 * The decode-and-validate of a view's settings in the address (`st=`, `lab=`): the format tag,
 * the checked payload, then the view's schema, each failure a LinkError that names the view and,
 * for a schema failure, the field.
 */
import type * as z from "zod/mini";
import { CHECKED_FORMAT, decodeChecked } from "./checkedPayload.ts";
import { LinkError } from "./linkError.ts";

/** `what` names the settings in messages, e.g. "step settings". */
export function decodeSettingsParam<T>(
  param: string,
  schema: z.ZodMiniType<T>,
  dictionary: Uint8Array,
  what: string,
): T {
  const dot = param.indexOf(".");
  if (param.slice(0, dot) !== CHECKED_FORMAT) {
    throw new LinkError(
      `The link's ${what} have format tag "${param.slice(0, Math.max(dot, 0)).slice(0, 8)}"; they are read in format 2.`,
    );
  }
  const parsed = schema.safeParse(decodeChecked(param.slice(dot + 1), dictionary, what));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LinkError(
      `The link's ${what} are invalid: ${issue.path.join(".") || "the whole value"}: ${issue.message}.`,
    );
  }
  return parsed.data;
}
