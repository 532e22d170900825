/**
 * What the person must see when the task waits for them: how many asks are waiting, a one-line summary of the
 * newest, and whether to raise a notification. Pure (no `vscode`), so it is tested in Node; askNotifier.ts
 * puts it on the view badge, the status bar and a notification.
 */
import type { TaskMessage } from "../shared/messages";

export type NotifyOnAsk = "off" | "whenHidden" | "always";
export const NOTIFY_ON_ASK_VALUES: readonly NotifyOnAsk[] = ["off", "whenHidden", "always"];
export const DEFAULT_NOTIFY_ON_ASK: NotifyOnAsk = "whenHidden";

export interface Attention {
  /** Asks waiting for an answer (0 when the task does not wait for the person). */
  readonly count: number;
  /** The newest waiting ask's message id, to tell a new ask from the same one seen again. */
  readonly latestId?: number;
  /** One line naming what waits, e.g. `run "git push"` (plain text: notifications render no code spans). */
  readonly summary?: string;
}

export const NO_ATTENTION: Attention = { count: 0 };

const MAX_SUMMARY = 80;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > MAX_SUMMARY ? `${oneLine.slice(0, MAX_SUMMARY - 1)}…` : oneLine;
}

/** A command or path in a summary: quoted, since a notification shows backticks as they are. */
function quoted(text: string): string {
  return `"${clip(text)}"`;
}

/**
 * A short description of one ask, in the words of the approval card's title. A call's long parameter (a
 * command, a file's content) travels as the message text, not in `params` (see displayParams in the agent).
 */
export function askSummary(m: TaskMessage): string {
  const t = m.tool;
  if (m.kind === "followup") return `answer a question: ${clip(m.text)}`;
  if (m.kind === "completion") return "review the result";
  if (m.kind === "limit") return "the auto-approve limit was reached";
  if (!t) return clip(m.text) || "approve a step";
  const p = t.params;
  switch (t.name) {
    case "execute_command": {
      const command = p.command || m.text;
      return command.trim() ? `run ${quoted(command)}` : "run a command";
    }
    case "attempt_completion":
      return p.command ? `run ${quoted(p.command)}` : "review the result";
    case "write_to_file":
    case "replace_in_file":
      return `edit ${clip(p.path ?? "a file")}`;
    case "read_file":
    case "list_files":
    case "search_files":
      return `read ${clip(p.path ?? "files")}`;
    case "use_mcp_tool":
      return `use ${clip(`${p.server_name ?? "?"}/${p.tool_name ?? "?"}`)}`;
    case "access_mcp_resource":
      return `read ${clip(p.uri ?? "an MCP resource")}`;
    case "web_fetch":
      return `fetch ${clip(p.url ?? "a page")}`;
    default:
      return `approve ${t.name}`;
  }
}

/** The asks waiting for an answer in a task's messages. */
export function attentionOf(messages: readonly TaskMessage[], waiting: boolean): Attention {
  if (!waiting) return NO_ATTENTION;
  let count = 0;
  let latest: TaskMessage | undefined;
  for (const m of messages) {
    if (m.role === "ask" && m.askState === "pending" && !m.partial) {
      count++;
      latest = m;
    }
  }
  if (!latest) return NO_ATTENTION;
  return { count, latestId: latest.id, summary: askSummary(latest) };
}

/** A notification is raised once per new ask, when the setting asks for it and (by default) the panel is hidden. */
export function shouldNotify(
  setting: NotifyOnAsk,
  panelVisible: boolean,
  previous: Attention,
  next: Attention,
): boolean {
  if (next.count === 0 || next.latestId === undefined || next.latestId === previous.latestId) return false;
  if (setting === "off") return false;
  return setting === "always" || !panelVisible;
}

/** The setting's value, failing safe to the default (which notifies when hidden) for anything malformed. */
export function parseNotifyOnAsk(value: unknown): NotifyOnAsk {
  return NOTIFY_ON_ASK_VALUES.includes(value as NotifyOnAsk) ? (value as NotifyOnAsk) : DEFAULT_NOTIFY_ON_ASK;
}

/** The view badge: the count and a tooltip, or nothing. */
export function badgeOf(a: Attention): { readonly value: number; readonly tooltip: string } | undefined {
  if (a.count === 0) return undefined;
  const what = a.count === 1 ? "1 request waits" : `${a.count} requests wait`;
  return { value: a.count, tooltip: `Toolgate: ${what} for your answer${a.summary ? ` (${a.summary})` : ""}` };
}
