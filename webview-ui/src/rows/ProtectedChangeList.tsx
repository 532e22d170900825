/** The protected paths a sandboxed command changed: in its ask, and in the row that stays in the history. */
import type { ProtectedChangeView } from "../../../src/shared/messages";
import { COMMAND_VISIBILITY, VisibleText } from "./VisibleText";

const OUTCOME = {
  removed: "removed",
  restored: "restored",
  kept: "kept",
  failed: "could not be undone",
  changedSince: "kept: it changed after the command, so it was not undone",
} as const;

/** A changed file's diff (`core/lineDiff.ts` text: `- `, `+ `, `  ` and `…` lines) with the editor's diff colours. */
function ChangeDiff({ path, diff }: { readonly path: string; readonly diff: string }) {
  return (
    <pre className="tg-pre tg-hunk tg-change-diff" aria-label={`Changes to ${path}`}>
      {diff.split("\n").map((line, i) => {
        const sign = line.startsWith("- ") ? "removed" : line.startsWith("+ ") ? "added" : undefined;
        const text = sign !== undefined || line.startsWith("  ") ? line.slice(2) : line;
        return (
          <div
            key={i}
            className={sign === "removed" ? "tg-line-removed" : sign === "added" ? "tg-line-added" : undefined}
          >
            <span className="tg-line-sign" aria-label={sign}>
              {sign === "removed" ? "−" : sign === "added" ? "+" : " "}
            </span>
            <VisibleText text={text} options={COMMAND_VISIBILITY} />
          </div>
        );
      })}
    </pre>
  );
}

export function ProtectedChangeList({ changes }: { readonly changes: readonly ProtectedChangeView[] }) {
  return (
    <ul
      className="tg-protected-list"
      aria-label={changes.some((c) => c.runsCode === true) ? "Files changed" : "Protected paths changed"}
    >
      {changes.map((c) => (
        <li key={c.path} className={c.within !== undefined ? "tg-protected-inner" : undefined}>
          <span className="tg-label">{c.within !== undefined ? "inside it" : c.kind}</span>{" "}
          <code className="tg-visible">
            <VisibleText text={c.path} options={COMMAND_VISIBILITY} />
          </code>{" "}
          <span className="tg-muted">{c.what}</span>
          {c.outcome ? <span className="tg-muted"> — {OUTCOME[c.outcome]}</span> : null}
          {c.diff !== undefined ? <ChangeDiff path={c.path} diff={c.diff} /> : null}
          {c.preview !== undefined ? (
            <pre className="tg-pre" aria-label={`First lines of ${c.path}`}>
              <VisibleText text={c.preview} options={COMMAND_VISIBILITY} />
            </pre>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
