/**
 * Past tasks, newest first, under the empty chat. Opening one shows it as it was; a reply continues it.
 * "Delete" asks in place first, naming what goes (the transcript and the task's checkpoints) and what stays
 * (the files in the workspace).
 */
import { useState } from "react";
import type { HistoryItemView, TaskState } from "../../../src/shared/protocol";
import { Button, Icon } from "../components";
import { useBridge } from "../state/context";
import "./history.css";

const STATE_WORDS: Record<TaskState, string> = {
  running: "unfinished",
  waiting: "waiting for you",
  done: "completed",
  cancelled: "cancelled",
  error: "stopped",
};

/** "just now", "5 min ago", "3 h ago", "2 days ago", or the date. */
export function when(ts: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - ts) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  const d = Math.floor(s / 86_400);
  if (d < 7) return d === 1 ? "yesterday" : `${d} days ago`;
  return new Date(ts).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric" });
}

const SHOWN = 8;

const nameOf = (t: HistoryItemView) => t.title || "(untitled task)";

function ConfirmDelete({ item, onDone }: { readonly item: HistoryItemView; readonly onDone: () => void }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const remove = async (): Promise<void> => {
    setBusy(true);
    try {
      await bridge.request({ type: "deleteHistoryTask", id: item.id });
    } finally {
      setBusy(false);
      onDone();
    }
  };
  return (
    <div className="tg-history-confirm" role="group" aria-label={`Delete “${nameOf(item)}”?`}>
      <div className="tg-history-confirm-text">
        Delete <strong>{nameOf(item)}</strong>? Its transcript and its checkpoints (the way back to the files before its
        steps) are deleted. The files in your workspace stay as they are.
      </div>
      <div className="tg-actions">
        <Button appearance="primary" icon="trash" disabled={busy} onClick={() => void remove()}>
          {busy ? "Deleting…" : "Delete task"}
        </Button>
        <Button appearance="secondary" disabled={busy} onClick={onDone}>
          Keep it
        </Button>
      </div>
    </div>
  );
}

export function HistoryList({ items }: { readonly items: readonly HistoryItemView[] }) {
  const bridge = useBridge();
  const [all, setAll] = useState(false);
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <nav className="tg-history" aria-label="Recent tasks">
      <h2 className="tg-history-title">Recent tasks</h2>
      <ul>
        {shown.map((t) => (
          <li key={t.id} className="tg-history-entry">
            {confirming === t.id ? (
              <ConfirmDelete item={t} onDone={() => setConfirming(undefined)} />
            ) : (
              <>
                <button
                  type="button"
                  className="tg-history-item"
                  onClick={() => void bridge.request({ type: "openHistoryTask", id: t.id })}
                >
                  <Icon name="history" />
                  <span className="tg-history-name" id={`tg-history-name-${t.id}`}>
                    {nameOf(t)}
                  </span>
                  <span className="tg-history-meta">
                    {STATE_WORDS[t.state]} · {when(t.updatedAt)}
                  </span>
                </button>
                <Button
                  appearance="icon"
                  icon="trash"
                  className="tg-history-delete"
                  // The entry's own button is named by the task; this one says what it does and is
                  // described by the task, so a search for the task's name finds one button.
                  label="Delete task"
                  title={`Delete “${nameOf(t)}”`}
                  describedBy={`tg-history-name-${t.id}`}
                  onClick={() => setConfirming(t.id)}
                />
              </>
            )}
          </li>
        ))}
      </ul>
      {items.length > SHOWN && !all ? (
        <button type="button" className="tg-link" onClick={() => setAll(true)}>
          Show all {items.length} tasks
        </button>
      ) : null}
    </nav>
  );
}
