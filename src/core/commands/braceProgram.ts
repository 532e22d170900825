/**
 * A brace word as the program (`{ls,-la}`, `{cat,x}`): bash reads `{` as a reserved word only when it is a
 * whole word, so `{ls,-la}` in command position is a word, and brace expansion makes it the command
 * `ls -la`. tree-sitter-bash takes it for the start of a group and reports a syntax error. `""{ls,-la}` is
 * the same word to bash (an empty quoted preamble, removed with the quotes after the expansion), and
 * tree-sitter reads it as a word: such a line is parsed with `""` before each such word, and every offset of
 * the result (command spans, substitution openers) is mapped back to the line as written.
 *
 * Invariant: `""` goes only where tree-sitter saw a group's `{` glued to a word inside a syntax error,
 * right after the start of the line or an operator character, and the result is used only when the new line
 * parses without error and a command starts exactly at each insertion (so `""` is an unquoted word start).
 */
import type { Node, Parser } from "web-tree-sitter";
import type { Script, SimpleCommand } from "./model";
import { parseWithTreeSitter } from "./parse";

/** Insertions tried in one line; past this the line stays as tree-sitter read it (a syntax error). */
const MAX_INSERTIONS = 16;

/** Offsets in `text` of brace words that tree-sitter failed to read as the program. */
function candidates(parser: Parser, text: string): number[] {
  const tree = parser.parse(text);
  if (!tree) {
    parser.reset();
    return [];
  }
  try {
    const found: number[] = [];
    const visit = (n: Node, inError: boolean): void => {
      if (found.length > MAX_INSERTIONS) return;
      const error = inError || n.type === "ERROR";
      // tree-sitter's `{` token of the group it expected, glued to the word after it.
      if (error && n.type === "{" && startsBraceWord(text, n.startIndex)) found.push(n.startIndex);
      for (const c of n.children) if (c) visit(c, error);
    };
    visit(tree.rootNode, false);
    return [...new Set(found)].sort((a, b) => a - b);
  } finally {
    tree.delete();
  }
}

/** `{` that is not a whole word, at the start of the line or after an operator character (and blanks). */
function startsBraceWord(text: string, at: number): boolean {
  if (text[at] !== "{") return false;
  const next = text[at + 1];
  if (next === undefined || /[\s;&|()<>}]/.test(next)) return false;
  let j = at - 1;
  while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
  return j < 0 || /[;&|(\n]/.test(text[j]!);
}

/**
 * The line parsed with `""` before each brace word tree-sitter failed to read as a program, offsets mapped
 * back; undefined when there is none, or the new line is not read as intended.
 */
export function parseBracePrograms(parser: Parser, text: string): Script | undefined {
  const at = candidates(parser, text);
  if (at.length === 0 || at.length > MAX_INSERTIONS) return undefined;
  let rewritten = "";
  let from = 0;
  for (const o of at) {
    rewritten += `${text.slice(from, o)}""`;
    from = o;
  }
  rewritten += text.slice(from);
  const script = parseWithTreeSitter(parser, rewritten);
  if (script.unparseable) return undefined;
  // Where each `""` landed in the new line: a command must start exactly there.
  const landed = at.map((o, k) => o + 2 * k);
  if (!landed.every((n) => script.commands.some((c) => c.span?.start === n && c.words.length > 0))) return undefined;
  const back = (n: number): number => {
    let shift = 0;
    for (const l of landed) {
      if (n < l) break;
      // Inside the inserted `""` (or at its start): the brace word's own offset.
      if (n < l + 2) return l - shift;
      shift += 2;
    }
    return n - shift;
  };
  const commands: SimpleCommand[] = script.commands.map((c) =>
    c.span ? { ...c, span: { start: back(c.span.start), end: back(c.span.end) } } : c,
  );
  return {
    ...script,
    commands,
    ...(script.substitutions ? { substitutions: script.substitutions.map(back) } : {}),
  };
}
