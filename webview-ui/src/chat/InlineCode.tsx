/**
 * Prose from the gate (a decision's reason) with its `backquoted` parts rendered as code: no raw backticks
 * reach the person. Code parts keep invisible characters marked, since they quote the call.
 */
import { COMMAND_VISIBILITY, VisibleText } from "../rows/VisibleText";

/** Splits `text` into prose and code parts; an unmatched backtick stays as text. */
export function inlineCodeParts(text: string): { readonly code: boolean; readonly text: string }[] {
  const out: { code: boolean; text: string }[] = [];
  const re = /`([^`]+)`/g;
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > last) out.push({ code: false, text: text.slice(last, m.index) });
    out.push({ code: true, text: m[1]! });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ code: false, text: text.slice(last) });
  return out;
}

export function InlineCode({ text, className }: { readonly text: string; readonly className?: string }) {
  return (
    <span className={className}>
      {inlineCodeParts(text).map((p, i) =>
        p.code ? <VisibleText key={i} text={p.text} options={COMMAND_VISIBILITY} className="tg-inline-code" /> : p.text,
      )}
    </span>
  );
}

/** A sentence for the card: the gate's reasons start lower-case ("`curl` is not in your allow list"). */
export function sentence(text: string): string {
  const t = text.trim();
  if (t === "") return t;
  const first = t.startsWith("`") ? t : t[0]!.toUpperCase() + t.slice(1);
  return /[.!?…]$/.test(first) ? first : `${first}.`;
}
