/**
 * The chat tab: messages (or, with no task open, the first-run preset card, the first-run model card or the
 * empty-chat text, and recent tasks), the docked pending ask, the auto-approve dropdown, the input and the model line.
 *
 * Layout invariant: the input and the model line never leave the screen. The message list gives up its
 * height first; then the docked ask and the dropdown share what is left and scroll inside their own area.
 */
import type { HistoryItemView, ModelView, PresetOffer, SettingsView, TaskView } from "../../../src/shared/protocol";
import { Icon } from "../components";
import { NO_MARKS, RestoreMarksContext } from "../rows/restoreMarks";
import { plural } from "../util/counts";
import { AskDock, pendingAsk } from "./AskDock";
import { AutoApproveMenu } from "./AutoApproveMenu";
import { Announcer } from "./Announcer";
import { FirstRunCard } from "./FirstRunCard";
import { PresetCard } from "./PresetCard";
import { HistoryList } from "./HistoryList";
import { MessageList } from "./MessageList";
import { TaskCheckpoints } from "./TaskCheckpoints";
import { ModelLine } from "./ModelLine";
import { TaskInput } from "./TaskInput";
import "./flow.css";

export interface ChatViewProps {
  readonly task: TaskView | null;
  readonly settings: SettingsView;
  readonly agentAvailable: boolean;
  readonly menuOpen: boolean;
  readonly onMenuOpenChange: (open: boolean) => void;
  readonly focusInputSeq: number;
  readonly history?: readonly HistoryItemView[];
  readonly model?: ModelView | null;
  /** The first-run preset card, while the host offers it. */
  readonly presetOffer?: PresetOffer | null;
}

const STATE_TEXT: Record<TaskView["state"], string> = {
  running: "Working",
  waiting: "Waiting for you",
  done: "Completed",
  cancelled: "Cancelled",
  error: "Stopped (send a message to try to continue)",
};

function HistoryBanner({ task }: { readonly task: TaskView }) {
  const idle = task.state === "done" || task.state === "cancelled" || task.state === "error";
  if (!idle) return null;
  return (
    <div className="tg-history-banner" role="note">
      <Icon name="history" />{" "}
      {task.canContinue === false
        ? "Opened from your task history, read-only: its conversation was not saved, so it cannot be continued."
        : "Opened from your task history. Reply below to continue it, or start a new task."}
    </div>
  );
}

export function ChatView({
  task,
  settings,
  agentAvailable,
  menuOpen,
  onMenuOpenChange,
  focusInputSeq,
  history = [],
  model = null,
  presetOffer = null,
}: ChatViewProps) {
  const ask = task ? pendingAsk(task.messages) : undefined;
  // A retry's countdown is answered in its own row (Retry now / Stop) while the task keeps running.
  const docked = ask && !(ask.kind === "error" && ask.retry?.at !== undefined) ? ask : undefined;
  const needsModel = model !== null && !model.configured;
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
            {STATE_TEXT[task.state]} · {plural(task.messages.length, "message")}
          </div>
          {task.untrustedSources && task.untrustedSources.length > 0 ? (
            <div
              className="tg-taint-chip"
              role="status"
              title="Sending data out (web fetches, MCP tools that reach the world, network commands) asks you for the rest of this task"
            >
              <Icon name="warning" /> Read untrusted content from {task.untrustedSources.join(", ")}
            </div>
          ) : null}
          <TaskCheckpoints task={task} />
          {task.fromHistory ? <HistoryBanner task={task} /> : null}
          <RestoreMarksContext.Provider value={task.restoreMarks ?? NO_MARKS}>
            <MessageList messages={task.messages} busy={task.state === "running"} />
          </RestoreMarksContext.Provider>
        </>
      ) : (
        <div className="tg-start">
          {presetOffer ? <PresetCard offer={presetOffer} /> : null}
          {needsModel ? (
            <FirstRunCard model={model} />
          ) : (
            <div className="tg-empty">
              <Icon name="shield" className="tg-empty-icon" />
              <p>
                Every tool call passes the gate before it runs. Calls your auto-approve settings allow run; anything
                else asks you here first.
              </p>
            </div>
          )}
          <HistoryList items={history} />
        </div>
      )}
      <Announcer ask={docked} task={task} />
      <div className="tg-dock-area">
        {docked ? <AskDock message={docked} /> : null}
        <AutoApproveMenu settings={settings} open={menuOpen} onOpenChange={onMenuOpenChange} />
      </div>
      <TaskInput
        task={task}
        ask={docked}
        agentAvailable={agentAvailable}
        focusSeq={focusInputSeq}
        modelReady={!needsModel}
      />
      <ModelLine model={model} />
    </div>
  );
}
