/**
 * The record of one task's checkpoints: its steps in order, each with the tree of every root before the step
 * and, once known, after it. Written atomically; a record whose task id does not match its file is ignored.
 */
import { readdir, readFile, rm } from "node:fs/promises";
import * as nodePath from "node:path";
import { writeFileAtomic } from "../history/atomicWrite";
import { taskKey } from "./storeLayout";
import type { SkipReason, SkipSummary, StepInfo } from "./types";

export interface RootState {
  readonly before: string;
  after?: string;
  /** Id of the stored list of what the `before` checkpoint left out (see SkippedLists). */
  readonly skipped: string;
}

export interface StepRecord {
  readonly seq: number;
  readonly stepId: string;
  readonly tool: string;
  readonly label: string;
  readonly kind: "tool" | "restore";
  /** Restore steps: the step whose checkpoint the files were restored to. */
  readonly restores?: string;
  at: number;
  /** By root path, as the service was given it. */
  roots: Record<string, RootState>;
  changedFiles?: number;
  skipped: SkipSummary;
}

export interface TaskRecord {
  readonly version: 1;
  readonly taskId: string;
  readonly createdAt: number;
  updatedAt: number;
  readonly steps: StepRecord[];
}

export function stepInfo(s: StepRecord): StepInfo {
  return {
    seq: s.seq,
    stepId: s.stepId,
    tool: s.tool,
    label: s.label,
    kind: s.kind,
    ...(s.restores !== undefined ? { restores: s.restores } : {}),
    at: s.at,
    changedFiles: s.changedFiles,
    skipped: s.skipped,
  };
}

/** The step named by its id, or by its number (as the CLI lists it) when no step has that id. */
export function findStep(record: TaskRecord, step: string): number {
  const byId = record.steps.findIndex((s) => s.stepId === step);
  if (byId >= 0 || !/^\d+$/.test(step)) return byId;
  return record.steps.findIndex((s) => s.seq === Number(step));
}

/**
 * Records are read from disk on every use (under the workspace lock), never cached: another process (the CLI
 * restoring while the editor runs the task) may have added steps since.
 */
export class TaskLog {
  constructor(private readonly dir: string) {}

  private file(taskId: string): string {
    return nodePath.join(this.dir, taskKey(taskId) + ".json");
  }

  async read(taskId: string): Promise<TaskRecord | undefined> {
    let v: TaskRecord;
    try {
      v = JSON.parse(await readFile(this.file(taskId), "utf8")) as TaskRecord;
    } catch {
      return undefined;
    }
    if (v.version !== 1 || v.taskId !== taskId || !Array.isArray(v.steps)) return undefined;
    return v;
  }

  async write(record: TaskRecord): Promise<void> {
    // Not flushed: the trees a record names are loose objects git writes unflushed too, so a flush here would
    // not make a checkpoint survive a power cut; it would only cost every step a disk flush.
    await writeFileAtomic(this.file(record.taskId), JSON.stringify(record), undefined, false);
  }

  async remove(taskId: string): Promise<void> {
    await rm(this.file(taskId), { force: true });
  }

  /** Every record in the folder (for pruning). */
  async all(): Promise<TaskRecord[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const out: TaskRecord[] = [];
    for (const n of names) {
      if (!n.endsWith(".json")) continue;
      try {
        const v = JSON.parse(await readFile(nodePath.join(this.dir, n), "utf8")) as TaskRecord;
        if (v.version === 1 && typeof v.taskId === "string" && taskKey(v.taskId) + ".json" === n) out.push(v);
      } catch {
        // A record that cannot be read holds nothing to keep alive; pruning leaves the file alone.
      }
    }
    return out;
  }
}

/** Merges the per-root summaries of one checkpoint, prefixing example paths with the root's name. */
export function mergeSkips(parts: readonly { prefix: string; summary: SkipSummary }[]): SkipSummary {
  const counts: Partial<Record<SkipReason, number>> = {};
  const examples: { path: string; reason: SkipReason }[] = [];
  for (const { prefix, summary } of parts) {
    for (const [k, n] of Object.entries(summary.counts) as [SkipReason, number][]) counts[k] = (counts[k] ?? 0) + n;
    for (const e of summary.examples) examples.push({ path: prefix + e.path, reason: e.reason });
  }
  return { counts, examples: examples.slice(0, 20) };
}
