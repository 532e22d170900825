/**
 * A command line as the approval card shows it: monospace, wrapped only between shell words (a flag such as
 * `--no-verify` is never split at its hyphens), invisible characters marked, and the parts the gate decided
 * on highlighted. The text content is the line itself, so copying it copies exactly what will run.
 */
import { useMemo } from "react";
import type { SourceSpan } from "../../../src/shared/messages";
import { COMMAND_VISIBILITY, VisiblePieces } from "../rows/VisibleText";
import { commandTokens } from "./commandPieces";

export function CommandText({
  text,
  spans,
  label,
}: {
  readonly text: string;
  readonly spans?: readonly SourceSpan[];
  readonly label: string;
}) {
  const tokens = useMemo(() => commandTokens(text, spans), [text, spans]);
  return (
    <pre className="tg-command tg-command-words" aria-label={label}>
      <code className="tg-visible">
        {tokens.map((t, i) => {
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
        })}
      </code>
    </pre>
  );
}
