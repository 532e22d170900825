/**
 * The input under the chat: starts a task, answers a follow-up question, or (while the agent works) offers
 * Cancel. Enter sends, Shift+Enter adds a line. The draft survives a webview reload (webview UI state).
 */
import { useEffect, useRef, useState } from "react";
import type { TaskMessage } from "../../../src/shared/messages";
import type { TaskState, TaskView } from "../../../src/shared/protocol";
import { answersByText } from "./AskDock";
import { Button, TextArea } from "../components";
import { useBridge } from "../state/context";

const IDLE: readonly TaskState[] = ["done", "cancelled", "error"];

export interface TaskInputProps {
  readonly task: TaskView | null;
  readonly ask: TaskMessage | undefined;
  readonly agentAvailable: boolean;
  /** Bumped when the host asks to focus the input. */
  readonly focusSeq: number;
  /** False while no model is configured: a new task could not start (the first-run card says why). */
  readonly modelReady?: boolean;
}

export function TaskInput({ task: hostTask, ask, agentAvailable, focusSeq, modelReady = true }: TaskInputProps) {
  const bridge = useBridge();
  // "New task" clears the finished task. Until the host's state says it is gone, the input already acts on no
  // task: a Send right after the click starts the new task (the host handles the two requests in order)
  // instead of continuing one the host has just closed. Once the host's state no longer holds that task, the
  // clear is over: the same task opened again from Recent tasks is a task to continue, not one being cleared.
  const [clearing, setClearing] = useState<string | undefined>();
  if (clearing !== undefined && hostTask?.id !== clearing) setClearing(undefined);
  const task = hostTask !== null && hostTask.id === clearing ? null : hostTask;
  const [draft, setDraftState] = useState(() => bridge.getUiState<{ draft: string }>().draft ?? "");
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLTextAreaElement>(null);
  const setDraft = (v: string) => {
    setDraftState(v);
    bridge.setUiState({ draft: v });
  };

  useEffect(() => {
    if (focusSeq > 0) ref.current?.focus();
  }, [focusSeq]);

  const idle = task !== null && IDLE.includes(task.state);
  const working = task !== null && !idle;
  const answering = answersByText(ask);
  const blockedByAsk = ask !== undefined && !answering;
  const stuck = idle && task.canContinue === false;
  const canType = answering || (!working && agentAvailable && !stuck && (idle || modelReady));

  const placeholder =
    !agentAvailable && !working
      ? "The agent runtime is not connected yet."
      : stuck
        ? "This task cannot be continued: start a new one."
        : !task && !modelReady
          ? "Connect a model to start a task."
          : answering
            ? ask?.kind === "completion"
              ? "Reply to continue the task…"
              : "Type your answer…"
            : blockedByAsk
              ? "Answer the request above first."
              : working
                ? "The agent is working…"
                : task
                  ? task.fromHistory
                    ? "Reply to continue this task…"
                    : "Reply to continue this task, or start a new one…"
                  : "Describe a task…";

  const send = async () => {
    const text = draft.trim();
    if (!text || busy || !canType) return;
    setBusy(true);
    const r = answering
      ? await bridge.request({ type: "answerAsk", messageId: ask!.id, response: { kind: "message", text } })
      : idle
        ? await bridge.request({ type: "sendMessage", text })
        : await bridge.request({ type: "newTask", text });
    setBusy(false);
    if (r.ok) setDraft("");
  };

  return (
    <div className="tg-input">
      <TextArea
        ref={ref}
        label={answering ? "Your answer" : "Task"}
        placeholder={placeholder}
        value={draft}
        onChange={setDraft}
        disabled={!canType}
        rows={2}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <div className="tg-input-actions">
        {working ? (
          <Button appearance="secondary" icon="debug-stop" onClick={() => void bridge.request({ type: "cancelTask" })}>
            Cancel
          </Button>
        ) : null}
        {idle ? (
          <Button
            appearance="secondary"
            icon="add"
            onClick={() => {
              const id = task.id;
              setClearing(id);
              void bridge.request({ type: "clearTask" }).then((r) => {
                if (!r.ok) setClearing((c) => (c === id ? undefined : c));
              });
              ref.current?.focus();
            }}
          >
            New task
          </Button>
        ) : null}
        <Button icon="send" onClick={() => void send()} disabled={!canType || busy || draft.trim() === ""}>
          {answering ? "Answer" : "Send"}
        </Button>
      </div>
    </div>
  );
}
