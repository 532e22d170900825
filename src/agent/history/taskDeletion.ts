/**
 * Deleting a past task: its history entry and saved transcript, then its checkpoints in every workspace
 * store that recorded some for it (a task keeps the roots it started with, which may not be today's).
 *
 * Invariant: the history entry goes first, so a store that cannot be compacted (git gone since) never keeps
 * a task the person deleted in the list; what is left of its checkpoints is said, and pruning takes it later.
 */
import type { CheckpointService } from "../checkpoints/types";
import { workspacesWithTask } from "../checkpoints/storeLayout";
import type { TaskHistory } from "./taskHistory";

export interface TaskDeletionDeps {
  readonly history: TaskHistory;
  /** The checkpoint store folder (the host's global storage + `/checkpoints`). */
  readonly checkpointStore?: string;
  /** The checkpoint service of a set of roots. */
  readonly checkpointsFor?: (roots: readonly string[]) => CheckpointService;
}

export async function deleteTask(deps: TaskDeletionDeps, id: string): Promise<void> {
  try {
    await deps.history.delete(id);
  } catch (e) {
    throw new Error(`The task could not be deleted: ${(e as Error).message}`);
  }
  const { checkpointStore, checkpointsFor } = deps;
  if (checkpointStore === undefined || !checkpointsFor) return;
  const failed: string[] = [];
  for (const ws of await workspacesWithTask(checkpointStore, id)) {
    await checkpointsFor(ws.roots)
      .forget(id)
      .catch((e: unknown) => failed.push((e as Error).message));
  }
  if (failed.length > 0)
    throw new Error(
      `The task was deleted from the history, but its checkpoints could not be removed: ${failed.join("; ")}`,
    );
}
