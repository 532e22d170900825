/**
 * A small line diff for the person's keep-or-undo card: the lines removed and added between two texts, with a
 * little context, as unified-diff-like text (`-`, `+`, ` ` prefixes; `…` between hunks). The common head and
 * tail are cut first; the middle is diffed by longest common subsequence when it is small, and otherwise shown
 * as all of it removed then all of it added (never wrong, only longer). Output is capped by lines.
 */

const LCS_CELLS = 250_000;

export interface LineDiffOptions {
  /** Unchanged lines shown around each change. */
  readonly context?: number;
  /** At most this many output lines; past it, one "…" line says how many more. */
  readonly maxLines?: number;
}

type Op = readonly [" " | "-" | "+", string];

function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > LCS_CELLS) return [...a.map((l): Op => ["-", l]), ...b.map((l): Op => ["+", l])];
  // lengths[i][j]: the LCS of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const len = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      len[i * w + j] =
        a[i] === b[j] ? len[(i + 1) * w + j + 1]! + 1 : Math.max(len[(i + 1) * w + j]!, len[i * w + j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push([" ", a[i]!]);
      i++;
      j++;
    } else if (len[(i + 1) * w + j]! >= len[i * w + j + 1]!) ops.push(["-", a[i++]!]);
    else ops.push(["+", b[j++]!]);
  }
  while (i < a.length) ops.push(["-", a[i++]!]);
  while (j < b.length) ops.push(["+", b[j++]!]);
  return ops;
}

const splitLines = (t: string): string[] => {
  if (t === "") return [];
  const lines = t.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
};

/** The changed lines of `before` → `after`; "" when the texts have the same lines. */
export function lineDiff(before: string, after: string, o: LineDiffOptions = {}): string {
  const context = o.context ?? 2;
  const maxLines = o.maxLines ?? 60;
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: Op[] = [
    ...a.slice(0, head).map((l): Op => [" ", l]),
    ...middleOps(a.slice(head, a.length - tail), b.slice(head, b.length - tail)),
    ...a.slice(a.length - tail).map((l): Op => [" ", l]),
  ];
  // Keep each change and `context` lines either side.
  const keep = new Uint8Array(ops.length);
  ops.forEach(([k], n) => {
    if (k === " ") return;
    for (let d = Math.max(0, n - context); d <= Math.min(ops.length - 1, n + context); d++) keep[d] = 1;
  });
  const out: string[] = [];
  let gap = false;
  ops.forEach(([k, l], n) => {
    if (keep[n] === 0) {
      gap = out.length > 0;
      return;
    }
    if (gap) out.push("…");
    gap = false;
    out.push(`${k} ${l}`);
  });
  if (out.length <= maxLines) return out.join("\n");
  return [...out.slice(0, maxLines), `… ${out.length - maxLines} more lines`].join("\n");
}
