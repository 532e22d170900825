/**
 * Restoring from a transcript row, as the editor and the tests do it: review what restoring to before the
 * row's step would undo (and whose edits it would keep), then carry out exactly that choice.
 *
 * Invariant: the person's own edits are overwritten only when they chose so for the files the review showed
 * them; an edit made after the review is kept (it is not in the list the restore is given).
 */
import type { TaskMessage } from "../../shared/messages";
import { restorableStep } from "../../shared/checkpointRows";
import {
  CheckpointError,
  type CheckpointService,
  type PlannedFile,
  type RestorePlan,
  type RestoreResult,
} from "./types";

export interface RestoreReview {
  readonly taskId: string;
  readonly stepId: string;
  readonly plan: RestorePlan;
  /** What restoring changes back (written, recreated or deleted). */
  readonly undone: readonly PlannedFile[];
  /** Files someone else changed after the agent: kept unless the person chooses to overwrite them. */
  readonly personEdits: readonly PlannedFile[];
  /** Left alone for other reasons (not covered, excluded now, a folder in the way). */
  readonly otherKept: readonly PlannedFile[];
}

/** The step a row restores to; a CheckpointError the person can read when it has none. */
export function rowStep(message: TaskMessage | undefined): string {
  const step = message ? restorableStep(message) : undefined;
  if (!step) throw new CheckpointError("This step has no checkpoint to restore.");
  return step.stepId;
}

export async function reviewRestore(
  service: CheckpointService,
  taskId: string,
  stepId: string,
): Promise<RestoreReview> {
  const plan = await service.plan(taskId, stepId);
  return {
    taskId,
    stepId,
    plan,
    undone: plan.files.filter((f) => f.kept === undefined),
    personEdits: plan.files.filter((f) => f.kept === "editedByPerson"),
    otherKept: plan.files.filter((f) => f.kept !== undefined && f.kept !== "editedByPerson"),
  };
}

/** Restores as reviewed; `overwriteEdits` also overwrites the person-edited files the review listed. */
export function restoreReviewed(
  service: CheckpointService,
  review: RestoreReview,
  overwriteEdits: boolean,
): Promise<RestoreResult> {
  return service.restore(
    review.taskId,
    review.stepId,
    overwriteEdits ? { overwrite: review.personEdits.map((f) => f.abs) } : {},
  );
}
