/**
 * How the approval card lays out a command line: shell words (runs of non-blank characters) that never break
 * inside, the blanks between them where lines may wrap, and which parts fall in the spans the gate marked as
 * deciding. Pure, so the layout is tested without a browser. Nothing is rewritten: joining every piece's text
 * gives back the line exactly.
 */
import type { SourceSpan } from "../../../src/shared/messages";

export interface Piece {
  readonly text: string;
  /** Inside one of the deciding spans. */
  readonly marked: boolean;
}

/** A shell word (kept on one line) or the blanks between words (where the line may wrap). */
export interface Token {
  readonly kind: "word" | "blank";
  readonly pieces: readonly Piece[];
}

/** Only the ASCII blanks bash splits on; any other space-like character stays in its word (and gets marked). */
const BLANKS = /([ \t\n]+)/;

/** Spans clipped to the line, sorted; malformed ones (from an older host) are dropped. */
function cleanSpans(length: number, spans: readonly SourceSpan[] | undefined): SourceSpan[] {
  return (spans ?? [])
    .filter((s) => Number.isInteger(s.start) && Number.isInteger(s.end) && s.start < s.end && s.start >= 0)
    .map((s) => ({ start: s.start, end: Math.min(s.end, length) }))
    .filter((s) => s.start < length)
    .sort((a, b) => a.start - b.start);
}

export function commandTokens(line: string, spans?: readonly SourceSpan[]): Token[] {
  const marks = cleanSpans(line.length, spans);
  const isMarked = (i: number) => marks.some((s) => i >= s.start && i < s.end);
  const tokens: Token[] = [];
  let at = 0;
  for (const part of line.split(BLANKS)) {
    if (part === "") continue;
    const pieces: Piece[] = [];
    let from = 0;
    for (let i = 1; i <= part.length; i++) {
      if (i === part.length || isMarked(at + i) !== isMarked(at + from)) {
        pieces.push({ text: part.slice(from, i), marked: isMarked(at + from) });
        from = i;
      }
    }
    tokens.push({ kind: /^[ \t\n]/.test(part) ? "blank" : "word", pieces });
    at += part.length;
  }
  return tokens;
}

/** The marked stretches as text, for the screen-reader summary ("the part that asks"). */
export function markedText(line: string, spans?: readonly SourceSpan[]): string[] {
  return cleanSpans(line.length, spans).map((s) => line.slice(s.start, s.end));
}

/** One line of a command as bash reads it: lines end at `\n` only (`\r` is an ordinary character to bash). */
export interface CommandLine {
  /** Offset of the line in the whole text. */
  readonly start: number;
  /** The line with its `\n`, so joining every line's text gives back the command exactly. */
  readonly text: string;
  /** Starts with `#` (a comment, unless it is inside a quoted string): only what the note says, never styling. */
  readonly comment: boolean;
}

export function commandLines(text: string): CommandLine[] {
  const lines: CommandLine[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl + 1;
    const line = text.slice(start, end);
    lines.push({ start, text: line, comment: /^[ \t]*#/.test(line) });
    start = end;
  }
  return lines;
}

/**
 * What the card says when a glance at the first line could mislead: how many lines run, and that a comment
 * line does not stop the lines after it. Undefined for a one-line command.
 */
export function linesNote(lines: readonly CommandLine[]): string | undefined {
  if (lines.length < 2) return undefined;
  const firstComment = lines.findIndex((l) => l.comment);
  const after = firstComment >= 0 && lines.slice(firstComment + 1).some((l) => !l.comment && l.text.trim() !== "");
  // Blank lines can push the rest of a command out of the box's view: say they are there.
  const blank = lines.filter((l) => l.text.trim() === "").length;
  const count = `${lines.length} lines${blank > 0 ? ` (${blank} blank)` : ""}, and every one runs`;
  return after
    ? `${count}: line ${firstComment + 1} starts with #, and a comment stops nothing — bash goes on with the lines after it.`
    : `${count}.`;
}
