/**
 * The most natural printout of a model's parameters:
 *
 *     for n, p in model.named_parameters(): print(n, p.shape)
 *
 * one `name torch.Size([d1, d2, …])` per line, optionally followed by the dtype
 * (`print(n, p.shape, p.dtype)`: `torch.float16`). Without a dtype every parameter is float32,
 * PyTorch's default, and the caller says so. Lines are checked one by one, so a stray line is
 * named by its number instead of being read as something else.
 */

/** One printed parameter: a list entry as the JSON form writes it. */
export interface PrintedParam {
  name: string;
  shape: number[];
  dtype: string;
}

const LINE = /^(\S+)\s+torch\.Size\(\[([^\]]*)\]\)(?:\s+(torch\.\w+))?$/;

/** Whether the text looks like that printout (its first non-blank line is one), not JSON. */
export function isShapePrintout(text: string): boolean {
  const first = text.trimStart().split("\n", 1)[0]?.trim() ?? "";
  return LINE.test(first);
}

/** The printout's entries, with whether any line stated its dtype; a bad line throws, naming it. */
export function parseShapePrintout(text: string): { entries: PrintedParam[]; dtypeStated: boolean } {
  const entries: PrintedParam[] = [];
  let dtypeStated = false;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line === "") continue;
    const m = LINE.exec(line);
    if (!m) {
      throw new Error(
        `line ${i + 1} is not "name torch.Size([…])": ${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? "…" : ""}`,
      );
    }
    const dims = (m[2] as string).trim();
    const shape = dims === "" ? [] : dims.split(",").map((d) => d.trim());
    if (!shape.every((d) => /^\d{1,16}$/.test(d)))
      throw new Error(`line ${i + 1}: torch.Size([${dims.slice(0, 40)}]) must list non-negative integers`);
    if (m[3]) dtypeStated = true;
    entries.push({ name: m[1] as string, shape: shape.map(Number), dtype: m[3] ?? "float32" });
  }
  return { entries, dtypeStated };
}
