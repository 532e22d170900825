/** Renders text with invisible and control characters shown as labelled markers (see util/visibleText). */
import { useMemo } from "react";
import { visibleSegments, type VisibleOptions } from "../util/visibleText";

export function VisibleText({
  text,
  options,
  className,
}: {
  readonly text: string;
  readonly options?: VisibleOptions;
  readonly className?: string;
}) {
  const segments = useMemo(() => visibleSegments(text, options), [text, options]);
  return (
    <code className={`tg-visible ${className ?? ""}`}>
      {segments.map((s, i) =>
        s.kind === "text" ? (
          s.text
        ) : (
          <span key={i} className="tg-marker" title={s.label} aria-label={s.label} role="img">
            {s.text}
          </span>
        ),
      )}
    </code>
  );
}

export const COMMAND_VISIBILITY: VisibleOptions = { markNewlines: true, markNonAscii: true };
