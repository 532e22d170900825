/**
 * SEARCH/REPLACE blocks for replace_in_file:
 *   ------- SEARCH        (also `<<<<<<< SEARCH`)
 *   exact old lines
 *   =======
 *   new lines
 *   +++++++ REPLACE       (also `>>>>>>> REPLACE`)
 * Blocks apply in order, each searching after the previous match. A search matches exactly first, then
 * ignoring trailing whitespace on each line; an empty search on an empty file means "the whole file".
 */

export interface Replacement {
  readonly search: string;
  readonly replace: string;
}

const SEARCH = /^(?:-{3,}|<{3,}) ?SEARCH\s*$/;
const DIVIDER = /^={3,}\s*$/;
const REPLACE = /^(?:\+{3,}|>{3,}) ?REPLACE\s*$/;

export function parseBlocks(diff: string): Replacement[] {
  const lines = diff.split(/\r?\n/);
  const out: Replacement[] = [];
  let state: "outside" | "search" | "replace" = "outside";
  let search: string[] = [];
  let replace: string[] = [];
  for (const line of lines) {
    if (state === "outside") {
      if (SEARCH.test(line)) {
        state = "search";
        search = [];
      }
    } else if (state === "search") {
      if (DIVIDER.test(line)) {
        state = "replace";
        replace = [];
      } else if (SEARCH.test(line) || REPLACE.test(line)) {
        throw new Error(`a SEARCH block is missing its "=======" divider (block ${out.length + 1})`);
      } else search.push(line);
    } else if (REPLACE.test(line)) {
      out.push({ search: search.join("\n"), replace: replace.join("\n") });
      state = "outside";
    } else if (SEARCH.test(line) || DIVIDER.test(line)) {
      throw new Error(`block ${out.length + 1} is missing its "+++++++ REPLACE" line`);
    } else replace.push(line);
  }
  if (state !== "outside") throw new Error(`block ${out.length + 1} is not closed with "+++++++ REPLACE"`);
  if (out.length === 0) throw new Error('no SEARCH/REPLACE block found (start one with "------- SEARCH")');
  return out;
}

function lineTrimmedIndex(haystack: string, needle: string, from: number): [number, number] | undefined {
  const want = needle.split("\n").map((l) => l.trimEnd());
  const lines = haystack.split("\n");
  let offset = 0;
  const starts: number[] = [];
  for (const l of lines) {
    starts.push(offset);
    offset += l.length + 1;
  }
  for (let i = 0; i + want.length <= lines.length; i++) {
    if (starts[i]! < from) continue;
    let ok = true;
    for (let j = 0; j < want.length && ok; j++) ok = lines[i + j]!.trimEnd() === want[j];
    if (ok) {
      const end = starts[i + want.length - 1]! + lines[i + want.length - 1]!.length;
      return [starts[i]!, end];
    }
  }
  return undefined;
}

export function applyBlocks(original: string, blocks: readonly Replacement[]): string {
  const crlf = original.includes("\r\n");
  let text = crlf ? original.replace(/\r\n/g, "\n") : original;
  let cursor = 0;
  blocks.forEach((b, n) => {
    if (b.search === "") {
      if (text.trim() !== "") throw new Error(`block ${n + 1} has an empty SEARCH, which only works on an empty file`);
      text = b.replace;
      cursor = text.length;
      return;
    }
    let start = text.indexOf(b.search, cursor);
    let end = start + b.search.length;
    if (start < 0) {
      const hit = lineTrimmedIndex(text, b.search, cursor);
      if (!hit) {
        const anywhere = text.indexOf(b.search) >= 0 || lineTrimmedIndex(text, b.search, 0) !== undefined;
        throw new Error(
          anywhere
            ? `block ${n + 1}'s SEARCH text is found only before the previous block's match; order the blocks as in the file`
            : `block ${n + 1}'s SEARCH text does not match the file; read the file again and copy the lines exactly`,
        );
      }
      [start, end] = hit;
    }
    text = text.slice(0, start) + b.replace + text.slice(end);
    cursor = start + b.replace.length;
  });
  return crlf ? text.replace(/\n/g, "\r\n") : text;
}
