/**
 * The inline preview of a file edit on the approval card, with "Open diff" for the whole change: a new or
 * rewritten file shows its first lines; `replace_in_file` shows its hunks. A write to a protected path shows
 * all of the content (scrollable), since that content is what the person is really approving. Where the write
 * lands is stated when it is not simply the path as written (a link on the way, or outside the workspace).
 */
import type { FileTarget, TaskMessage, ToolInfo } from "../../../src/shared/messages";
import { Icon } from "../components";
import { OpenDiffButton } from "../rows/ToolRow";
import { toolBody } from "../rows/toolSummary";
import { COMMAND_VISIBILITY, VisiblePieces, VisibleText } from "../rows/VisibleText";
import { firstLines, lineCount, plural, replaceHunks } from "./editHunks";

/** Lines of new content shown inline; the rest is in the diff. */
export const PREVIEW_LINES = 8;
/** Hunk lines shown inline. */
export const PREVIEW_HUNK_LINES = 14;

const LINE_VISIBILITY = { markNonAscii: true } as const;

function normalise(path: string): string {
  return path
    .replace(/^\.\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\/{2,}/g, "/");
}

/** The path as written differs from where it lands: a link (or `..`) on the way, or outside the workspace. */
export function landsElsewhere(path: string, target: FileTarget | undefined): boolean {
  if (!target) return false;
  if (!target.inside) return true;
  return target.relative !== undefined && normalise(path) !== target.relative && !path.startsWith("/");
}

export function WhereItLands({ path, target }: { readonly path: string; readonly target: FileTarget | undefined }) {
  if (!target || !landsElsewhere(path, target)) return null;
  return (
    <div className={`tg-lands ${target.inside ? "" : "tg-lands-outside"}`} aria-label="Where the write lands">
      <Icon name={target.inside ? "link" : "warning"} />{" "}
      <span>
        <VisibleText text={path} options={COMMAND_VISIBILITY} /> →{" "}
        <VisibleText text={target.real} options={COMMAND_VISIBILITY} />
        {target.inside ? ", inside the workspace" : ", outside the workspace"}
      </span>
    </div>
  );
}

export function EditPreview({
  message,
  tool,
  full,
}: {
  readonly message: TaskMessage;
  readonly tool: ToolInfo;
  /** Show all of the content (protected paths). */
  readonly full: boolean;
}) {
  const body = toolBody(message);
  if (tool.name === "write_to_file") {
    const lines = lineCount(body);
    const shown = full ? body : firstLines(body, PREVIEW_LINES);
    const more = full ? 0 : Math.max(0, lines - PREVIEW_LINES);
    return (
      <div className="tg-edit-preview">
        <div className="tg-label">
          {full ? "Content that would be written" : "Content to write"} ({plural(lines, "line")})
        </div>
        <pre className={`tg-pre tg-file-preview ${full ? "tg-file-full" : ""}`} aria-label="Content preview">
          {lines === 0 ? (
            <span className="tg-muted">(empty file)</span>
          ) : (
            <code className="tg-visible">
              <VisiblePieces text={shown} options={LINE_VISIBILITY} />
            </code>
          )}
        </pre>
        <div className="tg-actions tg-preview-actions">
          {more > 0 ? <span className="tg-muted tg-small">{plural(more, "more line")}</span> : null}
          <OpenDiffButton messageId={message.id} />
        </div>
      </div>
    );
  }
  const hunks = replaceHunks(body);
  let budget = full ? Number.POSITIVE_INFINITY : PREVIEW_HUNK_LINES;
  let hidden = 0;
  return (
    <div className="tg-edit-preview">
      <div className="tg-label">Changes ({plural(hunks.length, "block")})</div>
      <div className="tg-hunks" aria-label="Changes preview">
        {hunks.map((h, i) => {
          const visible = h.slice(0, Math.max(0, budget));
          hidden += h.length - visible.length;
          budget -= visible.length;
          if (visible.length === 0) return null;
          return (
            <pre key={i} className="tg-pre tg-hunk">
              {visible.map((l, j) => (
                <div key={j} className={l.kind === "removed" ? "tg-line-removed" : "tg-line-added"}>
                  <span className="tg-line-sign" aria-label={l.kind === "removed" ? "removed" : "added"}>
                    {l.kind === "removed" ? "−" : "+"}
                  </span>
                  <VisiblePieces text={l.text} options={LINE_VISIBILITY} />
                </div>
              ))}
            </pre>
          );
        })}
      </div>
      <div className="tg-actions tg-preview-actions">
        {hidden > 0 ? <span className="tg-muted tg-small">{plural(hidden, "more changed line")}</span> : null}
        <OpenDiffButton messageId={message.id} />
      </div>
    </div>
  );
}
