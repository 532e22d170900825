/**
 * A live region for screen readers: says when the agent needs an answer ("Action required", assertive, since
 * the agent is stopped until then) and when a task ends (polite), without reading the streaming text itself
 * (the message list is not live).
 */
import type { TaskMessage } from "../../../src/shared/messages";
import type { TaskView } from "../../../src/shared/protocol";
import { isCommandApproval } from "./AskDock";
import { toolBody, toolSummary } from "../rows/toolSummary";

export function announcement(ask: TaskMessage | undefined, task: TaskView | null): string {
  if (ask?.tool && (ask.kind === "tool" || isCommandApproval(ask))) {
    const s = toolSummary(ask.tool, toolBody(ask));
    return `Action required: approve or reject. ${s.title}${s.subject ? `: ${s.subject}` : ""}.`;
  }
  if (ask?.kind === "followup") return `Action required: the agent asks: ${ask.text}`;
  if (ask?.kind === "limit")
    return "Action required: auto-approve limit reached. Reset and continue, or reject the call.";
  if (ask?.kind === "completion")
    return "The agent says the task is complete. Accept the result, or reply to continue.";
  if (ask?.kind === "error") return `The agent stopped: ${ask.text} Retry or stop.`;
  if (task?.state === "done") return "Task completed.";
  if (task?.state === "error") return "Task stopped.";
  if (task?.state === "cancelled") return "Task cancelled.";
  return "";
}

export function Announcer({ ask, task }: { readonly ask: TaskMessage | undefined; readonly task: TaskView | null }) {
  const text = announcement(ask, task);
  // One region (so nothing else on the page competes for the role): urgent while the agent waits for an answer.
  const urgent = text.startsWith("Action required");
  return (
    <div className="tg-sr-only" role="status" aria-live={urgent ? "assertive" : "polite"}>
      {text}
    </div>
  );
}
