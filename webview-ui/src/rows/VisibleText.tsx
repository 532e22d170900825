/** Renders text with invisible and control characters shown as labelled markers (see util/visibleText). */
import { useMemo } from "react";
import { visibleSegments, type VisibleOptions } from "../util/visibleText";

/** The marked-up pieces of `text`, without a wrapper element (for callers that split text further). */
export function VisiblePieces({ text, options }: { readonly text: string; readonly options?: VisibleOptions }) {
  const segments = useMemo(() => visibleSegments(text, options), [text, options]);
  return (
    <>
      {segments.map((s, i) =>
        s.kind === "text" ? (
          s.text
        ) : (
          <span key={i} className="tg-marker" title={s.label} aria-label={s.label} role="img">
            {s.text}
          </span>
        ),
      )}
    </>
  );
}

export function VisibleText({
  text,
  options,
  className,
}: {
  readonly text: string;
  readonly options?: VisibleOptions;
  readonly className?: string;
}) {
  return (
    <code className={`tg-visible ${className ?? ""}`}>
      <VisiblePieces text={text} options={options} />
    </code>
  );
}

export const COMMAND_VISIBILITY: VisibleOptions = { markNewlines: true, markNonAscii: true };
