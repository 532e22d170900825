/**
 * Text that may be huge (a 1 MB stream). Past `limit` characters only the head (prose) or the tail (command
 * output) is rendered, so each frame of a stream touches a bounded amount of DOM; "Show all" renders it all.
 */
import { useState } from "react";
import { Button } from "../components";

export const DISPLAY_LIMIT = 64_000;

export function formatSize(chars: number): string {
  if (chars < 1000) return `${chars} characters`;
  if (chars < 1_000_000) return `${(chars / 1000).toFixed(0)} K characters`;
  return `${(chars / 1_000_000).toFixed(1)} M characters`;
}

export function LongText({
  text,
  keep = "head",
  limit = DISPLAY_LIMIT,
  tail,
  className,
}: {
  readonly text: string;
  readonly keep?: "head" | "tail";
  readonly limit?: number;
  /** A ready-made tail of `text` (at least `limit` characters when text is longer), to avoid slicing it. */
  readonly tail?: string;
  readonly className?: string;
}) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > limit;
  const tailOf = () =>
    tail !== undefined && tail.length >= limit ? tail.slice(tail.length - limit) : text.slice(text.length - limit);
  const shown = !cut ? text : keep === "head" ? text.slice(0, limit) : tailOf();
  const hidden = text.length - shown.length;
  const more = cut ? (
    <div className="tg-more">
      <span>{`${formatSize(hidden)} ${keep === "head" ? "more" : "earlier"} not shown.`}</span>
      <Button appearance="secondary" onClick={() => setAll(true)}>
        Show all
      </Button>
    </div>
  ) : null;
  return (
    <>
      {keep === "tail" ? more : null}
      <pre className={className ?? "tg-pre"}>{shown}</pre>
      {keep === "head" ? more : null}
    </>
  );
}
