/** A small status label. `tone` picks theme colours (see styles.css); text is always present for screen readers. */
import type { ReactNode } from "react";

export type Tone = "neutral" | "ok" | "warn" | "error" | "info";

export function Tag({
  tone = "neutral",
  children,
  title,
}: {
  readonly tone?: Tone;
  readonly children: ReactNode;
  readonly title?: string;
}) {
  return (
    <span className={`tg-tag tg-tag-${tone}`} title={title}>
      {children}
    </span>
  );
}
