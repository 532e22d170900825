/**
 * What the panel's checkpoint intents reach: restoring the files to before a row's step (and undoing that
 * restore), showing all of a task's changes, and the rows a task's files were restored to. The runtime
 * supplies it (host/checkpointActions.ts); until then the panel says checkpoints are not ready. Free of
 * `vscode`, so the controller unit-tests in Node.
 */
import type { RestoreMarks, TaskMessage } from "../shared/messages";

export interface CheckpointHost {
  /** Shows what restoring undoes, asks, and restores. Resolves with a person-readable error, if any. */
  restore(taskId: string, message: TaskMessage): Promise<string | undefined>;
  /** Undoes the restore the row offers to undo (shared/checkpointRows.ts `rowOffer`): shows, asks, restores. */
  undoRestore(taskId: string, message: TaskMessage): Promise<string | undefined>;
  showTaskChanges(taskId: string): Promise<string | undefined>;
  /** The task's rows that were restored to, read from its checkpoint record (empty when it has none). */
  marks(taskId: string): Promise<RestoreMarks>;
  /** Told the task id whenever a restore or an undo changed a task's files (also from a notification). */
  onDidRestore?(listener: (taskId: string) => void): { dispose(): void };
}

export const NO_CHECKPOINTS = "Checkpoints are not available: the agent runtime is not connected.";
