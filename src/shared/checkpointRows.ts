/**
 * Which transcript rows offer "Restore files to before this step", and how a checkpoint's left-out files are
 * put in words. Shared so the panel offers exactly what the host accepts.
 */
import type { RowCheckpoint, SkipReason, SkipSummary, TaskMessage } from "./messages";

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
