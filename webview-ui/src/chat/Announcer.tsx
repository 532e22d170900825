/**
 * A polite live region for screen readers: says when the agent needs an answer and when a task ends,
 * without reading the streaming text itself (the message list is not live).
 */
import type { TaskMessage } from "../../../src/shared/messages";
import type { TaskView } from "../../../src/shared/protocol";
import { isCommandApproval } from "./AskDock";
import { toolBody, toolSummary } from "../rows/toolSummary";

export function announcement(ask: TaskMessage | undefined, task: TaskView | null): string {
  if (ask?.tool && (ask.kind === "tool" || isCommandApproval(ask))) {
    const s = toolSummary(ask.tool, toolBody(ask));
    return `Approval needed: ${s.title}${s.subject ? ` ${s.subject}` : ""}.`;
  }
  if (ask?.kind === "followup") return `The agent asks: ${ask.text}`;
  if (ask?.kind === "limit") return "Auto-approve limit reached. Reset and continue, or reject the call.";
  if (ask?.kind === "completion")
    return "The agent says the task is complete. Accept the result, or reply to continue.";
  if (ask?.kind === "error") return `The agent stopped: ${ask.text} Retry or stop.`;
  if (task?.state === "done") return "Task completed.";
  if (task?.state === "error") return "Task stopped.";
  if (task?.state === "cancelled") return "Task cancelled.";
  return "";
}

export function Announcer({ ask, task }: { readonly ask: TaskMessage | undefined; readonly task: TaskView | null }) {
  return (
    <div className="tg-sr-only" role="status" aria-live="polite">
      {announcement(ask, task)}
    </div>
  );
}
