/**
 * Past tasks, newest first, under the empty chat. Opening one shows it as it was; a reply continues it.
 */
import { useState } from "react";
import type { HistoryItemView, TaskState } from "../../../src/shared/protocol";
import { Icon } from "../components";
import { useBridge } from "../state/context";

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

export function HistoryList({ items }: { readonly items: readonly HistoryItemView[] }) {
  const bridge = useBridge();
  const [all, setAll] = useState(false);
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <nav className="tg-history" aria-label="Recent tasks">
      <h2 className="tg-history-title">Recent tasks</h2>
      <ul>
        {shown.map((t) => (
          <li key={t.id}>
            <button
              type="button"
              className="tg-history-item"
              onClick={() => void bridge.request({ type: "openHistoryTask", id: t.id })}
            >
              <Icon name="history" />
              <span className="tg-history-name">{t.title || "(untitled task)"}</span>
              <span className="tg-history-meta">
                {STATE_WORDS[t.state]} · {when(t.updatedAt)}
              </span>
            </button>
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
