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
