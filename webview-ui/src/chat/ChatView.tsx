/** The chat tab: messages, the docked pending ask, the auto-approve dropdown and the input. */
import type { SettingsView, TaskView } from "../../../src/shared/protocol";
import { Icon } from "../components";
import { AskDock, pendingAsk } from "./AskDock";
import { AutoApproveMenu } from "./AutoApproveMenu";
import { Announcer } from "./Announcer";
import { MessageList } from "./MessageList";
import { TaskCheckpoints } from "./TaskCheckpoints";
import { TaskInput } from "./TaskInput";

export interface ChatViewProps {
  readonly task: TaskView | null;
  readonly settings: SettingsView;
  readonly agentAvailable: boolean;
  readonly menuOpen: boolean;
  readonly onMenuOpenChange: (open: boolean) => void;
  readonly focusInputSeq: number;
}

const STATE_TEXT: Record<TaskView["state"], string> = {
  running: "Working",
  waiting: "Waiting for you",
  done: "Completed",
  cancelled: "Cancelled",
  error: "Stopped (send a message to try to continue)",
};

export function ChatView({ task, settings, agentAvailable, menuOpen, onMenuOpenChange, focusInputSeq }: ChatViewProps) {
  const ask = task ? pendingAsk(task.messages) : undefined;
  return (
    <div className="tg-chat">
      {!agentAvailable ? (
        <div className="tg-note" role="note">
          <Icon name="info" /> The agent runtime is not connected yet, so tasks cannot run. Auto-approve settings and
          MCP configuration already work.
        </div>
      ) : null}
      {task ? (
        <>
          <div className="tg-task-state" aria-live="polite">
            {STATE_TEXT[task.state]} · {task.messages.length} messages
          </div>
          <TaskCheckpoints task={task} />
          <MessageList messages={task.messages} busy={task.state === "running"} />
        </>
      ) : (
        <div className="tg-empty">
          <Icon name="shield" className="tg-empty-icon" />
          <p>
            Every tool call passes the gate before it runs. Calls your auto-approve settings allow run; anything else
            asks you here first.
          </p>
        </div>
      )}
      <Announcer ask={ask} task={task} />
      {ask ? <AskDock message={ask} /> : null}
      <AutoApproveMenu settings={settings} open={menuOpen} onOpenChange={onMenuOpenChange} />
      <TaskInput task={task} ask={ask} agentAvailable={agentAvailable} focusSeq={focusInputSeq} />
    </div>
  );
}
