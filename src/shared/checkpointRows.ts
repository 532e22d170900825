/**
 * Which transcript rows offer "Restore files to before this step", and how a checkpoint's left-out files are
 * put in words. Shared so the panel offers exactly what the host accepts.
 */
import type { RestoreMark, RestoreMarks, RowCheckpoint, SkipReason, SkipSummary, TaskMessage } from "./messages";

/** Statuses in which the call can no longer change anything: restoring to before it is meaningful. */
const SETTLED = new Set(["done", "error", "interrupted", "denied", "rejected"]);

/**
 * The checkpoint a row can restore to: recorded, the call finished, and it changed something (or it is not
 * known whether it did, e.g. the editor closed while it ran).
 */
export function restorableStep(m: TaskMessage): { readonly stepId: string; readonly seq: number } | undefined {
  const c = m.tool?.checkpoint;
  if (c?.state !== "recorded" || !SETTLED.has(m.tool!.status)) return undefined;
  if (c.changedFiles === 0) return undefined;
  return { stepId: c.stepId, seq: c.seq };
}

/** What a recorded step tells about restores (the checkpoint engine's step list has these fields). */
export interface MarkStep {
  readonly stepId: string;
  readonly seq: number;
  readonly kind: "tool" | "restore";
  /** Restore steps: the step the files were restored to. */
  readonly restores?: string;
  readonly changedFiles?: number | undefined;
}

/**
 * Which rows were restored to, read from a task's steps in order. A restore step restoring to another
 * restore step is that restore's undo. Only the latest restore of a row counts; it is `latest` when it is
 * the last step recorded (so undoing it changes back exactly what it changed).
 */
export function restoreMarks(steps: readonly MarkStep[]): RestoreMarks {
  const marks = new Map<string, RestoreMark>();
  const rowOfRestore = new Map<string, string>();
  for (const s of steps) {
    if (s.kind !== "restore" || s.restores === undefined) continue;
    const row = rowOfRestore.get(s.restores);
    if (row !== undefined) {
      const m = marks.get(row);
      if (m?.undoStepId === s.restores) marks.set(row, { ...m, undone: true });
      continue;
    }
    marks.set(s.restores, {
      undoStepId: s.stepId,
      undoSeq: s.seq,
      ...(s.changedFiles !== undefined ? { files: s.changedFiles } : {}),
      undone: false,
      latest: false,
    });
    rowOfRestore.set(s.stepId, s.restores);
  }
  const last = steps[steps.length - 1];
  const row = last ? rowOfRestore.get(last.stepId) : undefined;
  const m = row !== undefined ? marks.get(row) : undefined;
  if (row !== undefined && m?.undoStepId === last!.stepId) marks.set(row, { ...m, latest: true });
  return Object.fromEntries(marks);
}

/** What a row offers: restoring to before its step, or undoing the restore that just did so; and its mark. */
export interface RowOffer {
  readonly restore?: { readonly stepId: string; readonly seq: number };
  readonly undo?: { readonly stepId: string; readonly seq: number };
  readonly mark?: RestoreMark;
}

/**
 * The one rule the panel shows and the host accepts. Right after a restore to before the row's step, the
 * files are as they were then: the row offers undoing that restore instead of restoring again. Once the
 * restore was undone, or something was recorded after it, the row offers the restore again.
 */
export function rowOffer(m: TaskMessage, marks: RestoreMarks = {}): RowOffer {
  const step = restorableStep(m);
  if (!step) return {};
  const mark = Object.prototype.hasOwnProperty.call(marks, step.stepId) ? marks[step.stepId] : undefined;
  if (mark && !mark.undone && mark.latest) return { undo: { stepId: mark.undoStepId, seq: mark.undoSeq }, mark };
  return { restore: step, ...(mark ? { mark } : {}) };
}

const REASON_WORDS: Readonly<Record<SkipReason, string>> = {
  ignoreFile: "matched by the ignore file",
  gitignored: "excluded by .gitignore",
  heavyFolder: "in dependency or cache folders",
  tooLarge: "over the size cap",
  fileCap: "past the file count cap",
  special: "not regular files",
  unreadable: "unreadable",
};

/** "Not in checkpoints: 2 excluded by .gitignore (dist/, .env), 1 in dependency or cache folders (node_modules/)". */
export function skippedText(s: SkipSummary): string | undefined {
  const parts: string[] = [];
  for (const [reason, words] of Object.entries(REASON_WORDS) as [SkipReason, string][]) {
    const n = s.counts[reason];
    if (!n) continue;
    const examples = s.examples
      .filter((e) => e.reason === reason)
      .slice(0, 2)
      .map((e) => e.path);
    parts.push(`${n} ${words}${examples.length ? ` (${examples.join(", ")}${n > examples.length ? ", …" : ""})` : ""}`);
  }
  return parts.length ? `Not in checkpoints: ${parts.join("; ")}` : undefined;
}

/** The task's checkpoint situation in one place: the first reason none could be taken, and the latest left-out summary. */
export function taskCheckpoints(messages: readonly TaskMessage[]): {
  readonly unavailable?: string;
  readonly skipped?: SkipSummary;
  readonly recorded: number;
  /** Recorded steps that changed files (or may have: not known yet). */
  readonly changing: number;
} {
  let unavailable: string | undefined;
  let skipped: SkipSummary | undefined;
  let recorded = 0;
  let changing = 0;
  for (const m of messages) {
    const c: RowCheckpoint | undefined = m.tool?.checkpoint;
    if (!c) continue;
    if (c.state === "unavailable") unavailable ??= c.reason;
    else {
      recorded++;
      if (c.changedFiles !== 0) changing++;
      skipped = c.skipped;
    }
  }
  return { ...(unavailable !== undefined ? { unavailable } : {}), ...(skipped ? { skipped } : {}), recorded, changing };
}
