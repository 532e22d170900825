/**
 * "Restore files to before this step" and "Show all changes of this task" in the editor: the diff of what a
 * restore undoes opens first, then a modal lists the files (and the person's own edits, kept unless they choose
 * "Overwrite my edits too"); after restoring, "Undo restore" goes back (the engine recorded the files first).
 *
 * Invariant: nothing is written before the person confirmed in the modal, and what is restored is exactly the
 * reviewed plan's choice (rowRestore.ts); a person's edit made after the review is kept.
 */
import * as vscode from "vscode";
import { reviewRestore, restoreReviewed, rowStep, type RestoreReview } from "../agent/checkpoints/rowRestore";
import type { CheckpointService, PlannedFile } from "../agent/checkpoints/types";
import type { TaskMessage } from "../shared/messages";
import type { CheckpointHost } from "./checkpointHost";
import { relPath, type CheckpointDiffs, type CheckpointFileDiff } from "./diffView";

const t = vscode.l10n.t;
const MAX_LISTED = 12;

function rel(abs: string): string {
  return relPath(abs);
}

function listed(files: readonly PlannedFile[], line: (f: PlannedFile) => string): string {
  const shown = files.slice(0, MAX_LISTED).map((f) => `  ${line(f)}`);
  if (files.length > MAX_LISTED) shown.push(`  ${t("… and {0} more", files.length - MAX_LISTED)}`);
  return shown.join("\n");
}

function actionText(f: PlannedFile): string {
  if (f.action === "delete") return t("{0}: delete (created after the checkpoint)", rel(f.abs));
  if (f.action === "recreate") return t("{0}: recreate (deleted after the checkpoint)", rel(f.abs));
  return t("{0}: restore its earlier content", rel(f.abs));
}

function keptText(f: PlannedFile): string {
  const why =
    f.kept === "notCovered"
      ? t("not covered by the checkpoint")
      : f.kept === "excludedNow"
        ? t("excluded from checkpoints now")
        : t("a folder or link is in the way");
  return `${rel(f.abs)} (${why})`;
}

/** The modal's detail: what is undone, whose edits are kept, what is left alone. */
export function confirmDetail(review: RestoreReview): string {
  const parts: string[] = [];
  if (review.undone.length) parts.push(t("Restoring changes:") + "\n" + listed(review.undone, actionText));
  if (review.personEdits.length)
    parts.push(
      t("Changed by you after the agent, kept unless you choose “Overwrite my edits too”:") +
        "\n" +
        listed(review.personEdits, (f) => rel(f.abs)),
    );
  if (review.otherKept.length) parts.push(t("Left as they are:") + "\n" + listed(review.otherKept, keptText));
  parts.push(t("Restoring records the current files first, so it can be undone."));
  return parts.join("\n\n");
}

export class CheckpointActions implements CheckpointHost {
  constructor(
    private readonly serviceFor: (taskId: string) => CheckpointService | undefined,
    private readonly diffs: CheckpointDiffs,
  ) {}

  async restore(taskId: string, message: TaskMessage): Promise<string | undefined> {
    const service = this.serviceFor(taskId);
    if (!service) return t("Checkpoints are not available for this task.");
    try {
      const stepId = rowStep(message);
      const review = await reviewRestore(service, taskId, stepId);
      const seq = review.plan.step.seq;
      if (review.undone.length === 0 && review.personEdits.length === 0) {
        void vscode.window.showInformationMessage(
          t("Nothing to restore: the files are as they were before step {0}.", seq),
        );
        return undefined;
      }
      const shown = review.undone.length > 0 ? review.undone : review.personEdits;
      const files: CheckpointFileDiff[] = await Promise.all(
        shown.map(async (f) => ({
          abs: f.abs,
          left: f.action === "recreate" ? undefined : ("disk" as const),
          right: f.action === "delete" ? undefined : await service.fileAt(taskId, f.abs, { before: stepId }),
        })),
      );
      await this.diffs.open(t("now ↔ before step {0}", seq), files);
      const restore = t("Restore files");
      const overwrite = t("Overwrite my edits too");
      const choice = await vscode.window.showWarningMessage(
        t("Restore the files to before step {0} ({1})?", seq, review.plan.step.label),
        { modal: true, detail: confirmDetail(review) },
        ...(review.undone.length > 0 ? [restore] : []),
        ...(review.personEdits.length > 0 ? [overwrite] : []),
      );
      if (choice === undefined) return undefined;
      const result = await restoreReviewed(service, review, choice === overwrite);
      const undo = t("Undo restore");
      void vscode.window
        .showInformationMessage(t("Restored {0} file(s) to before step {1}.", result.changed.length, seq), undo)
        .then(async (c) => {
          if (c !== undo || !result.undo) return;
          try {
            const back = await service.restore(taskId, result.undo.stepId);
            void vscode.window.showInformationMessage(t("Undid the restore ({0} file(s)).", back.changed.length));
          } catch (e) {
            void vscode.window.showErrorMessage((e as Error).message);
          }
        });
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }

  async showTaskChanges(taskId: string): Promise<string | undefined> {
    const service = this.serviceFor(taskId);
    if (!service) return t("Checkpoints are not available for this task.");
    try {
      const first = (await service.list(taskId))?.steps[0];
      if (!first) return t("No checkpoints were recorded for this task.");
      const diff = await service.diff(taskId);
      if (diff.files.length === 0) {
        void vscode.window.showInformationMessage(t("This task changed no files."));
        return undefined;
      }
      const files = await Promise.all(
        diff.files.map(async (f) => ({
          abs: f.abs,
          left: f.status === "added" ? undefined : await service.fileAt(taskId, f.abs, { before: first.stepId }),
          right: f.status === "deleted" ? undefined : await service.fileAt(taskId, f.abs, "end"),
        })),
      );
      await this.diffs.open(t("All changes of this task"), files);
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  }
}
