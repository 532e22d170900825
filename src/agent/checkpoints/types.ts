/**
 * The checkpoint engine's integration surface: what the task loop, the host and the CLI call.
 *
 * Contract for the tool execution path (one tool call):
 *   1. The call is approved. If it can change the workspace (`write_to_file`, `replace_in_file`, a command the
 *      analysis did not judge read-only, an MCP tool without `readOnlyHint`), await `before({... mayChange: true})`
 *      just before the handler runs: the checkpoint must exist before the first byte changes.
 *   2. Run the handler.
 *   3. Call `after({taskId, stepId})` once the handler returned (or threw). It need not be awaited: operations
 *      of one service run in order, so the next `before` sees it. Without `after`, a person's edits made after
 *      the step cannot be told apart from the agent's.
 * No method throws for an expected failure (git missing, untrusted, disabled, a git error): `before` and
 * `after` report it in their result, and the call proceeds — a checkpoint is a way back, never a gate.
 * `plan`/`restore`/`diff` reject with a `CheckpointError` whose message can be shown as is.
 */

import type { SkipReason, SkipSummary } from "../../shared/messages";

// What a checkpoint left out is shown in the panel, so its types live with the task messages.
export type { SkipReason, SkipSummary };

export interface StepCall {
  readonly taskId: string;
  /** Unique within the task; the row's id (e.g. the tool_use id). */
  readonly stepId: string;
  readonly tool: string;
  /** Shown in lists ("write_to_file src/a.ts"). */
  readonly label?: string;
  /** False for calls that cannot change files: nothing is recorded and no git process starts. */
  readonly mayChange: boolean;
}

export type BeforeResult =
  | {
      readonly recorded: true;
      readonly seq: number;
      readonly stepId: string;
      readonly skipped: SkipSummary;
      readonly ms: number;
    }
  | { readonly recorded: false; readonly reason: string };

export type AfterResult =
  { readonly recorded: true; readonly changedFiles: number } | { readonly recorded: false; readonly reason: string };

export interface StepInfo {
  /** 1, 2, 3 … in the order the steps were recorded (the CLI accepts it in place of the step id). */
  readonly seq: number;
  readonly stepId: string;
  readonly tool: string;
  readonly label: string;
  /** "restore": the automatic checkpoint before a restore (restoring to it undoes the restore). */
  readonly kind: "tool" | "restore";
  /** Restore steps: the step whose checkpoint the files were restored to (absent in records from before it was kept). */
  readonly restores?: string;
  readonly at: number;
  /** Files the step changed (known once `after` ran); undefined when unknown. */
  readonly changedFiles: number | undefined;
  readonly skipped: SkipSummary;
}

export interface TaskCheckpoints {
  readonly taskId: string;
  readonly steps: readonly StepInfo[];
}

export type FileChangeStatus = "added" | "deleted" | "modified";

export interface ChangedFile {
  readonly abs: string;
  /** Root-relative, `/`-separated. */
  readonly path: string;
  readonly root: string;
  readonly status: FileChangeStatus;
}

export interface CheckpointDiff {
  readonly files: readonly ChangedFile[];
  /** Unified diff (`a/`, `b/` prefixes; multi-root paths start with the root's folder name). */
  readonly patch: string;
  /** The patch was cut at the size cap (the file list is complete). */
  readonly truncated: boolean;
}

export type RestoreAction =
  /** Write the checkpoint's content over the current file. */
  | "revert"
  /** The file was deleted after the checkpoint: write it back. */
  | "recreate"
  /** The file was created after the checkpoint: delete it. */
  | "delete";

export type KeepReason =
  /** Someone other than the agent changed it after the step (the person's edit): kept unless chosen. */
  | "editedByPerson"
  /** The checkpoint did not cover it (ignored, too large, … at the time): it is never deleted. */
  | "notCovered"
  /** It is excluded now (ignored, too large, …): restore does not read or replace it. */
  | "excludedNow"
  /** A folder, or a file or link in place of a parent folder, is in the way. */
  | "blocked";

export interface PlannedFile {
  readonly abs: string;
  readonly path: string;
  readonly root: string;
  readonly action: RestoreAction;
  /** Set when restore leaves this file as it is. */
  readonly kept?: KeepReason;
  /** Someone other than the agent changed it after the step (also set when the person chose to overwrite). */
  readonly editedByPerson: boolean;
}

export interface RestoreOptions {
  /** Also overwrite files the person changed. */
  readonly force?: boolean;
  /** Absolute paths of person-edited files to overwrite anyway (the per-file choice). */
  readonly overwrite?: readonly string[];
}

export interface RestorePlan {
  readonly taskId: string;
  readonly step: StepInfo;
  readonly files: readonly PlannedFile[];
  /** What restoring will do, as a diff from the current files to the restored ones (kept files left out). */
  readonly patch: string;
  readonly truncated: boolean;
}

export interface RestoreResult {
  readonly plan: RestorePlan;
  /** Files written, recreated or deleted. */
  readonly changed: readonly string[];
  /** Files left as they were, with why. */
  readonly kept: readonly { readonly abs: string; readonly reason: KeepReason }[];
  /** The checkpoint taken just before restoring: restore to it to undo this restore. */
  readonly undo: { readonly seq: number; readonly stepId: string } | undefined;
}

export type Availability = { readonly available: true } | { readonly available: false; readonly reason: string };

export interface PruneResult {
  readonly droppedTasks: readonly string[];
  readonly sizeBytes: number;
  readonly gc: boolean;
}

export interface CheckpointService {
  /** Whether checkpoints can be recorded here (git found, trusted, enabled), with the reason when not. */
  availability(): Promise<Availability>;
  /**
   * Takes a baseline off the critical path (at task start), so the first `before` is incremental. Optional to
   * call; records no step.
   */
  warm(): Promise<void>;
  before(call: StepCall): Promise<BeforeResult>;
  after(step: { readonly taskId: string; readonly stepId: string }): Promise<AfterResult>;
  /** Undefined when nothing was recorded for the task. */
  list(taskId: string): Promise<TaskCheckpoints | undefined>;
  /** What `restore` with the same options would do now (also records nothing). */
  plan(taskId: string, stepId: string, options?: RestoreOptions): Promise<RestorePlan>;
  /** Restores the files to before the step; records a checkpoint first so the restore can be undone. */
  restore(taskId: string, stepId: string, options?: RestoreOptions): Promise<RestoreResult>;
  /**
   * Changes between two points of a task: from before `from` (default: the first step) to before `to`
   * (default: the end of the task — after its last step, or the current files when that is unknown).
   */
  diff(taskId: string, range?: { readonly from?: string; readonly to?: string }): Promise<CheckpointDiff>;
  /**
   * A file's bytes before step `at` (what restoring to it writes), or at the end of the task (`"end"`: after
   * its last step, the file on disk when that is unknown). Undefined when the file did not exist then or the
   * checkpoint did not cover it.
   */
  fileAt(taskId: string, abs: string, at: { readonly before: string } | "end"): Promise<Uint8Array | undefined>;
  /**
   * Drops a task's checkpoints (its history entry was deleted): its record goes, and the shadow stores keep
   * only what other tasks (and the current files' stat cache) still name, so its objects go too.
   */
  forget(taskId: string): Promise<void>;
  /** Drops the oldest tasks past the size cap and compacts the store. Runs by itself now and then. */
  prune(): Promise<PruneResult>;
  /** Releases what keeps the checkpoints cheap (the directory watchers); the service still works after it. */
  dispose?(): void;
}

export class CheckpointError extends Error {}
