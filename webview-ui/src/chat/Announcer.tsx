/**
 * A polite live region for screen readers: says when the agent needs an answer and when a task ends,
 * without reading the streaming text itself (the message list is not live).
 */
import type { TaskMessage } from "../../../src/shared/messages";
import type { TaskView } from "../../../src/shared/protocol";
import { toolSummary } from "../rows/toolSummary";

export function announcement(ask: TaskMessage | undefined, task: TaskView | null): string {
  if (ask?.kind === "tool" && ask.tool) {
    const s = toolSummary(ask.tool);
    return `Approval needed: ${s.title}${s.subject ? ` ${s.subject}` : ""}.`;
  }
  if (ask?.kind === "followup") return `The agent asks: ${ask.text}`;
  if (ask?.kind === "limit") return "Auto-approve limit reached. Reset and continue, or end the task.";
  if (task?.state === "done") return "Task finished.";
  if (task?.state === "error") return "Task stopped by an error.";
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
