/**
 * A command line as the approval card shows it: monospace, wrapped only between shell words (a flag such as
 * `--no-verify` is never split at its hyphens), invisible characters marked, and the parts the gate decided
 * on highlighted. The text content is the line itself, so copying it copies exactly what will run.
 *
 * A command of several lines is numbered line by line (the numbers are CSS, not text) and says how many
 * lines run, so a first line that is a comment — or a run of blank lines — cannot pass for the whole command.
 */
import { useMemo } from "react";
import type { SourceSpan } from "../../../src/shared/messages";
import { COMMAND_VISIBILITY, VisiblePieces } from "../rows/VisibleText";
import { commandLines, commandTokens, linesNote, type Token } from "./commandPieces";

/** The spans that fall in one line, relative to it. */
function spansIn(spans: readonly SourceSpan[] | undefined, start: number, length: number): SourceSpan[] | undefined {
  if (!spans) return undefined;
  return spans
    .map((s) => ({ start: Math.max(0, s.start - start), end: Math.min(length, s.end - start) }))
    .filter((s) => s.start < s.end);
}

function Tokens({ tokens }: { readonly tokens: readonly Token[] }) {
  return tokens.map((t, i) => {
    const pieces = t.pieces.map((p, j) =>
      p.marked ? (
        <mark key={j} className="tg-decisive">
          <VisiblePieces text={p.text} options={COMMAND_VISIBILITY} />
        </mark>
      ) : (
        <VisiblePieces key={j} text={p.text} options={COMMAND_VISIBILITY} />
      ),
    );
    return t.kind === "word" ? (
      <span key={i} className="tg-word">
        {pieces}
      </span>
    ) : (
      <span key={i}>{pieces}</span>
    );
  });
}

export function CommandText({
  text,
  spans,
  label,
}: {
  readonly text: string;
  readonly spans?: readonly SourceSpan[];
  readonly label: string;
}) {
  const lines = useMemo(
    () =>
      commandLines(text).map((l) => ({
        ...l,
        tokens: commandTokens(l.text, spansIn(spans, l.start, l.text.length)),
      })),
    [text, spans],
  );
  const note = linesNote(lines);
  return (
    <>
      <pre className={`tg-command tg-command-words${note ? " tg-command-lines" : ""}`} aria-label={label}>
        <code className="tg-visible">
          {note
            ? lines.map((l) => (
                <span key={l.start} className="tg-line">
                  <Tokens tokens={l.tokens} />
                </span>
              ))
            : lines.map((l) => <Tokens key={l.start} tokens={l.tokens} />)}
        </code>
      </pre>
      {note ? (
        <div className="tg-small tg-lines-note" role="note">
          {note}
        </div>
      ) : null}
    </>
  );
}
