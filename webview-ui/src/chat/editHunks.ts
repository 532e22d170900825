/**
 * What an edit will change, for the card's inline preview: the SEARCH/REPLACE blocks of `replace_in_file` as
 * hunks of removed and added lines, and the first lines of a `write_to_file`. Lenient on purpose: the preview
 * also runs while the call streams, and a malformed diff is refused by the tool, not by the view.
 */

export interface HunkLine {
  readonly kind: "removed" | "added";
  readonly text: string;
}

const SEARCH = /^(?:-{3,}|<{3,}) ?SEARCH\s*$/;
const DIVIDER = /^={3,}\s*$/;
const REPLACE = /^(?:\+{3,}|>{3,}) ?REPLACE\s*$/;

/** One hunk per SEARCH/REPLACE block (a block still streaming is included as far as it came). */
export function replaceHunks(diff: string): HunkLine[][] {
  const hunks: HunkLine[][] = [];
  let state: "outside" | "search" | "replace" = "outside";
  let current: HunkLine[] = [];
  for (const line of diff.split(/\r?\n/)) {
    if (SEARCH.test(line)) {
      if (state !== "outside") hunks.push(current);
      current = [];
      state = "search";
    } else if (state === "search" && DIVIDER.test(line)) state = "replace";
    else if (state !== "outside" && REPLACE.test(line)) {
      hunks.push(current);
      state = "outside";
    } else if (state !== "outside") current.push({ kind: state === "search" ? "removed" : "added", text: line });
  }
  if (state !== "outside") hunks.push(current);
  return hunks;
}

/** Lines of `text` (a final newline ends the last line rather than starting an empty one). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

export function firstLines(text: string, n: number): string {
  return text.split("\n").slice(0, n).join("\n");
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
