/**
 * "Restore files to before this step" and "Show all changes of this task" in the editor: the diff of what a
 * restore undoes opens first, then a modal lists the files (and the person's own edits, kept unless they choose
 * "Overwrite my edits too"); after restoring, "Undo restore" goes back (the engine recorded the files first).
 *
 * Invariant: nothing is written before the person confirmed in the modal, and what is restored is exactly the
 * reviewed plan's choice (rowRestore.ts); a person's edit made after the review is kept.
 */
import * as vscode from "vscode";
import { reviewRestore, restoreReviewed, type RestoreReview } from "../agent/checkpoints/rowRestore";
import type { CheckpointService, PlannedFile } from "../agent/checkpoints/types";
import { restorableStep, restoreMarks, rowOffer } from "../shared/checkpointRows";
import type { RestoreMarks, TaskMessage } from "../shared/messages";
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

function undoWords(seq: number): ReviewWords {
  return {
    diffTitle: t("now ↔ before the restore"),
    question: () => t("Undo the restore of the files to before step {0}?", seq),
    confirm: t("Undo restore"),
    undoable: false,
    nothing: t("Nothing to undo: the files are as they were before the restore."),
    done: (n) => t("Undid the restore ({0} file(s)).", n),
  };
}

/** The words of one review: restoring to before a row's step, or undoing the restore that did so. */
interface ReviewWords {
  readonly diffTitle: string;
  readonly question: (label: string) => string;
  readonly confirm: string;
  /** Whether the notification after it offers "Undo restore" (not after an undo: that would redo). */
  readonly undoable: boolean;
  readonly nothing: string;
  readonly done: (files: number) => string;
}

export class CheckpointActions implements CheckpointHost {
  private readonly listeners = new Set<(taskId: string) => void>();

  constructor(
    private readonly serviceFor: (taskId: string) => CheckpointService | undefined,
    private readonly diffs: CheckpointDiffs,
  ) {}

  onDidRestore(listener: (taskId: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async marks(taskId: string): Promise<RestoreMarks> {
    const list = await this.serviceFor(taskId)
      ?.list(taskId)
      .catch(() => undefined);
    return list ? restoreMarks(list.steps) : {};
  }

  /** What the row offers now, read afresh from the record: the host accepts exactly what the panel shows. */
  private async offer(service: CheckpointService, taskId: string, message: TaskMessage) {
    const list = await service.list(taskId);
    return rowOffer(message, list ? restoreMarks(list.steps) : {});
  }

  async restore(taskId: string, message: TaskMessage): Promise<string | undefined> {
    const service = this.serviceFor(taskId);
    if (!service) return t("Checkpoints are not available for this task.");
    try {
      const offer = await this.offer(service, taskId, message);
      if (!offer.restore)
        return offer.undo
          ? t("The files were just restored to before this step; undo that restore instead.")
          : t("This step has no checkpoint to restore.");
      const seq = offer.restore.seq;
      return await this.review(service, taskId, offer.restore.stepId, {
        diffTitle: t("now ↔ before step {0}", seq),
        question: (label) => t("Restore the files to before step {0} ({1})?", seq, label),
        confirm: t("Restore files"),
        undoable: true,
        nothing: t("Nothing to restore: the files are as they were before step {0}.", seq),
        done: (n) => t("Restored {0} file(s) to before step {1}.", n, seq),
      });
    } catch (e) {
      return (e as Error).message;
    }
  }

  async undoRestore(taskId: string, message: TaskMessage): Promise<string | undefined> {
    const service = this.serviceFor(taskId);
    if (!service) return t("Checkpoints are not available for this task.");
    try {
      const offer = await this.offer(service, taskId, message);
      if (!offer.undo)
        return offer.mark && !offer.mark.undone
          ? t("This restore can no longer be undone by itself: more was recorded after it.")
          : t("There is no restore to undo on this step.");
      return await this.review(service, taskId, offer.undo.stepId, undoWords(restorableStep(message)!.seq));
    } catch (e) {
      return (e as Error).message;
    }
  }

  /**
   * The diff of what restoring to `stepId` changes opens first, then the modal; only a confirmation writes.
   * Restoring records the current files first, so the notification offers to undo it.
   */
  private async review(
    service: CheckpointService,
    taskId: string,
    stepId: string,
    words: ReviewWords,
  ): Promise<string | undefined> {
    const review = await reviewRestore(service, taskId, stepId);
    if (review.undone.length === 0 && review.personEdits.length === 0) {
      void vscode.window.showInformationMessage(words.nothing);
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
    await this.diffs.open(words.diffTitle, files);
    const overwrite = t("Overwrite my edits too");
    const choice = await vscode.window.showWarningMessage(
      words.question(review.plan.step.label),
      { modal: true, detail: confirmDetail(review) },
      ...(review.undone.length > 0 ? [words.confirm] : []),
      ...(review.personEdits.length > 0 ? [overwrite] : []),
    );
    if (choice === undefined) return undefined;
    const result = await restoreReviewed(service, review, choice === overwrite);
    for (const l of this.listeners) l(taskId);
    const undo = t("Undo restore");
    const undoStep = words.undoable ? result.undo : undefined;
    void vscode.window
      .showInformationMessage(words.done(result.changed.length), ...(undoStep ? [undo] : []))
      .then(async (c) => {
        if (c !== undo || !undoStep) return;
        const error = await this.undoFromNotification(service, taskId, undoStep.stepId, review.plan.step.seq).catch(
          (e: unknown) => (e as Error).message,
        );
        if (error) void vscode.window.showErrorMessage(error);
      });
    return undefined;
  }

  /** The notification's "Undo restore": the same rule as the row's (only while nothing came after it). */
  private async undoFromNotification(
    service: CheckpointService,
    taskId: string,
    undoStepId: string,
    seq: number,
  ): Promise<string | undefined> {
    const list = await service.list(taskId);
    const mark = Object.values(list ? restoreMarks(list.steps) : {}).find((m) => m.undoStepId === undoStepId);
    if (!mark || mark.undone) return t("There is no restore to undo on this step.");
    if (!mark.latest) return t("This restore can no longer be undone by itself: more was recorded after it.");
    return this.review(service, taskId, undoStepId, undoWords(seq));
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
