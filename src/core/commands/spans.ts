/**
 * The parts of a command line a person should look at: the spans of the simple commands behind a verdict,
 * made into the fewest readable stretches. Display only — nothing decides on a span.
 */
import type { SourceSpan } from "../types";

/** What may stand between two marked commands of one pipeline for them to read as one stretch: `a | b`, `a |& b`. */
const PIPE_GAP = /^(?:[ \t]|\\\n)*\|&?(?:[ \t\n]|\\\n)*$/;

/**
 * Sorted, disjoint spans within `line`: nested spans (a substitution inside a marked command) fold into the outer
 * one, overlapping ones merge, and neighbours joined only by a pipe become one (`curl … | sh`).
 */
export function joinSpans(line: string, spans: readonly SourceSpan[]): SourceSpan[] {
  const valid = spans.filter((s) => s.start >= 0 && s.end <= line.length && s.start < s.end);
  if (valid.length === 0) return [];
  const sorted = [...valid].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SourceSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && (s.start <= last.end || PIPE_GAP.test(line.slice(last.end, s.start))))
      out[out.length - 1] = { start: last.start, end: Math.max(last.end, s.end) };
    else out.push(s);
  }
  return out;
}
