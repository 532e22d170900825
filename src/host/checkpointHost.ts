/**
 * What the panel's checkpoint intents reach: restoring the files to before a row's step, and showing all of a
 * task's changes. The runtime supplies it (host/checkpointActions.ts); until then the panel says checkpoints
 * are not ready. Free of `vscode`, so the controller unit-tests in Node.
 */
import type { TaskMessage } from "../shared/messages";

export interface CheckpointHost {
  /** Shows what restoring undoes, asks, and restores. Resolves with a person-readable error, if any. */
  restore(taskId: string, message: TaskMessage): Promise<string | undefined>;
  showTaskChanges(taskId: string): Promise<string | undefined>;
}

export const NO_CHECKPOINTS = "Checkpoints are not available: the agent runtime is not connected.";
