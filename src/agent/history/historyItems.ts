/**
 * The history list as the panel shows it: top-level tasks and subtasks alike, newest first, each with the
 * session state it ended in (completed → done, failed and interrupted → error).
 */
import type { HistoryItemView } from "../../shared/protocol";
import { mapState } from "../session/agentTaskSession";
import type { TaskIndexEntry } from "./taskHistory";

/** How many past tasks the panel lists. */
export const HISTORY_LIMIT = 50;

export function historyItems(entries: readonly TaskIndexEntry[], limit = HISTORY_LIMIT): HistoryItemView[] {
  return [...entries]
    .sort((a, b) => b.updatedAt - a.updatedAt)
    .slice(0, limit)
    .map((e) => ({ id: e.id, title: e.title, updatedAt: e.updatedAt, state: mapState(e.state), costUsd: e.costUsd }));
}
