/**
 * The checkpoint engine: shadow git stores per root (shadowRepo.ts), the walk that decides what is covered
 * (walk.ts), one record per task (taskLog.ts), and restore planning (restorePlan.ts, restoreApply.ts).
 *
 * Invariants:
 * - Operations of one service run one at a time, in call order, and hold the workspace lock across
 *   processes; `before` therefore always sees the state its caller left, and `after` of a step lands before
 *   the next step's `before`.
 * - Nothing is recorded or restored unless `trusted()` says so at that moment, and nothing is recorded
 *   automatically unless the settings enable it (restoring what was recorded stays possible when disabled).
 * - Restoring records the current files first (a "restore" step), so restoring to that step undoes it.
 */
import { mkdir, readFile } from "node:fs/promises";
import * as nodePath from "node:path";
import type { CheckpointSettings } from "../../core/checkpointSettings";
import type { IgnoreRules } from "../../core/ignoreFile";
import { writeFileAtomic } from "../history/atomicWrite";
import { createGit, GitFailure, versionAtLeast, type Git } from "./git";
import { compactStore, pruneStore } from "./pruning";
import { applyRootPlan } from "./restoreApply";
import { planRoot, type RootPlan } from "./restorePlan";
import { MAX_PATCH_BYTES, ShadowRepo } from "./shadowRepo";
import { SkippedLists } from "./skippedLists";
import { rootKey, workspaceKey } from "./storeLayout";
import { findStep, mergeSkips, stepInfo, TaskLog, type RootState, type StepRecord, type TaskRecord } from "./taskLog";
import {
  CheckpointError,
  type AfterResult,
  type Availability,
  type BeforeResult,
  type ChangedFile,
  type CheckpointDiff,
  type CheckpointService,
  type PruneResult,
  type RestoreOptions,
  type RestorePlan,
  type RestoreResult,
  type SkipSummary,
  type StepCall,
  type TaskCheckpoints,
} from "./types";
import { RootTracker } from "./rootTracker";
import { withWorkspaceLock } from "./workspaceLock";

export const MIN_GIT_VERSION = "2.25";

export interface CheckpointServiceOptions {
  /** The store (the extension's global storage folder + `/checkpoints`; the CLI's default: storeLayout.ts). */
  readonly storageDir: string;
  /** The workspace roots, in the gate's order (the ignore rules are indexed by it). */
  readonly roots: readonly string[];
  /** Workspace trust, asked at every operation. */
  readonly trusted: () => boolean;
  readonly settings: () => CheckpointSettings;
  /** The gate's ignore rules for these roots (reloaded by the caller when the ignore file changes). */
  readonly ignore: () => IgnoreRules;
  readonly gitPath?: string;
  /** Files per root a checkpoint covers at most (default 100,000); the rest is reported as skipped. */
  readonly maxFilesPerRoot?: number;
  /** `prune()` runs by itself after this many recorded checkpoints (default 50). */
  readonly pruneEvery?: number;
  readonly now?: () => number;
  /**
   * Watch the walked directories (Linux) so a checkpoint re-reads only what changed and reuses the last one
   * when nothing did (default true). Off, or where no watcher can be trusted, every checkpoint walks the root.
   */
  readonly watchChanges?: boolean;
}

interface Snapshot {
  readonly tree: string;
  readonly skipped: string;
  readonly summary: SkipSummary;
}

export class GitCheckpointService implements CheckpointService {
  private readonly git: Git;
  readonly workspaceDir: string;
  private readonly repos: ShadowRepo[];
  private readonly trackers: RootTracker<Snapshot>[];
  private readonly log: TaskLog;
  private readonly skippedLists: SkippedLists;
  private readonly prefixes: string[];
  private chain: Promise<unknown> = Promise.resolve();
  private sincePrune = 0;
  private wroteInfo = false;

  constructor(private readonly o: CheckpointServiceOptions) {
    this.git = createGit(o.gitPath, nodePath.join(o.storageDir, "home"));
    this.workspaceDir = nodePath.join(o.storageDir, workspaceKey(o.roots));
    this.repos = o.roots.map((r) => new ShadowRepo(this.git, r, nodePath.join(this.workspaceDir, "roots", rootKey(r))));
    this.trackers = o.roots.map((r) => new RootTracker<Snapshot>(r, o.watchChanges ?? true));
    this.log = new TaskLog(nodePath.join(this.workspaceDir, "tasks"));
    this.skippedLists = new SkippedLists(nodePath.join(this.workspaceDir, "skipped"));
    const names = o.roots.map((r) => nodePath.basename(r) || "root");
    this.prefixes =
      o.roots.length === 1 ? [""] : names.map((n, i) => (names.indexOf(n) === i ? n : `${n}-${i + 1}`) + "/");
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  // ---- availability --------------------------------------------------------------------------------------

  private async gitProblem(): Promise<string | undefined> {
    const v = await this.git.version();
    if (v === undefined) return `git was not found; checkpoints need git ${MIN_GIT_VERSION} or later.`;
    if (!versionAtLeast(v, MIN_GIT_VERSION))
      return `git ${v} is too old; checkpoints need ${MIN_GIT_VERSION} or later.`;
    return undefined;
  }

  private async usable(recording: boolean): Promise<string | undefined> {
    if (recording && !this.o.settings().enabled) return "Checkpoints are turned off (toolgate.checkpoints.enabled).";
    if (!this.o.trusted()) return "Restricted Mode: nothing is recorded or restored until the workspace is trusted.";
    if (this.o.roots.length === 0) return "No workspace folder is open.";
    return this.gitProblem();
  }

  async availability(): Promise<Availability> {
    const reason = await this.usable(true);
    return reason === undefined ? { available: true } : { available: false, reason };
  }

  private async mustRestore(): Promise<void> {
    const reason = await this.usable(false);
    if (reason !== undefined) throw new CheckpointError(reason);
  }

  // ---- serialisation -------------------------------------------------------------------------------------

  /** Runs `f` after every earlier operation, holding the workspace lock. */
  private serial<T>(f: () => Promise<T>): Promise<T> {
    const run = this.chain.then(async () => {
      await mkdir(this.workspaceDir, { recursive: true });
      return withWorkspaceLock(nodePath.join(this.workspaceDir, "lock"), f);
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  // ---- recording -----------------------------------------------------------------------------------------

  /**
   * One root's state now: the last snapshot when the change signal says nothing changed since, else a walk
   * (only the changed directories while the signal is trusted) and git told only the paths that may differ.
   * `fresh`: walk everything and let git look at every file (restores).
   */
  private async snapshotRoot(i: number, fresh: boolean): Promise<Snapshot> {
    const settings = this.o.settings();
    const repo = this.repos[i]!;
    const tracker = this.trackers[i]!;
    for (let attempt = 0; ; attempt++) {
      const tracked = await tracker.walk(
        {
          root: repo.root,
          rootIndex: i,
          ignore: this.o.ignore(),
          includeGitignored: settings.includeGitignored,
          maxFileBytes: settings.maxFileSizeMB * 1024 * 1024,
          maxFiles: this.o.maxFilesPerRoot ?? 100_000,
        },
        fresh || attempt > 0,
      );
      if ("unchanged" in tracked) return tracked.unchanged;
      const walk = tracked.walk;
      try {
        const tree = await repo.snapshot(walk.files, fresh || attempt > 0 ? undefined : walk.touched);
        const skipped = await this.skippedLists.save({
          paths: walk.skippedPaths.map((s) => s.path),
          truncated: walk.truncated,
        });
        const examples: { path: string; reason: (typeof walk.skippedPaths)[number]["reason"] }[] = [];
        const perReason = new Map<string, number>();
        for (const s of walk.skippedPaths) {
          const n = perReason.get(s.reason) ?? 0;
          if (n < 5) examples.push(s);
          perReason.set(s.reason, n + 1);
        }
        const snap = { tree, skipped, summary: { counts: walk.counts, examples } };
        tracker.remember(walk, snap);
        return snap;
      } catch (e) {
        tracker.forget();
        // A file turned into a folder (or back) between the walk and git: walk again, once.
        if (attempt > 0 || !(e instanceof GitFailure)) throw e;
      }
    }
  }

  private async snapshotAll(fresh = false): Promise<Snapshot[]> {
    if (!this.wroteInfo) {
      await writeFileAtomic(
        nodePath.join(this.workspaceDir, "workspace.json"),
        JSON.stringify({ version: 1, roots: this.o.roots }),
      );
      this.wroteInfo = true;
    }
    const out: Snapshot[] = [];
    for (let i = 0; i < this.repos.length; i++) out.push(await this.snapshotRoot(i, fresh));
    return out;
  }

  /** Stops watching the roots (the service is no longer used). Later calls still work, walking in full. */
  dispose(): void {
    for (const t of this.trackers) t.dispose();
  }

  private summary(snaps: readonly Snapshot[]): SkipSummary {
    return mergeSkips(snaps.map((s, i) => ({ prefix: this.prefixes[i]!, summary: s.summary })));
  }

  private async recordStep(
    taskId: string,
    step: { stepId: string; tool: string; label: string; kind: StepRecord["kind"]; restores?: string },
    snaps: readonly Snapshot[],
    known?: TaskRecord,
  ): Promise<StepRecord> {
    const at = this.now();
    const record: TaskRecord = known ??
      (await this.log.read(taskId)) ?? {
        version: 1,
        taskId,
        createdAt: at,
        updatedAt: at,
        steps: [],
      };
    const roots: Record<string, RootState> = {};
    snaps.forEach((s, i) => (roots[this.o.roots[i]!] = { before: s.tree, skipped: s.skipped }));
    const skipped = this.summary(snaps);
    let rec = record.steps.find((s) => s.stepId === step.stepId);
    if (rec) {
      // The same call checkpointed again (re-run after a reload): the newer state is what it starts from.
      Object.assign(rec, { at, roots, skipped });
      delete rec.changedFiles;
    } else {
      rec = { seq: (record.steps[record.steps.length - 1]?.seq ?? 0) + 1, ...step, at, roots, skipped };
      record.steps.push(rec);
    }
    record.updatedAt = at;
    await this.log.write(record);
    return rec;
  }

  async warm(): Promise<void> {
    if ((await this.usable(true)) !== undefined) return;
    await this.serial(async () => {
      await this.snapshotAll();
    });
  }

  async before(call: StepCall): Promise<BeforeResult> {
    if (!call.mayChange) return { recorded: false, reason: "This call cannot change files." };
    const problem = await this.usable(true);
    if (problem !== undefined) return { recorded: false, reason: problem };
    const started = this.now();
    try {
      const rec = await this.serial(async () => {
        if (!this.o.trusted()) throw new CheckpointError("Restricted Mode: nothing is recorded.");
        const snaps = await this.snapshotAll();
        return this.recordStep(
          call.taskId,
          { stepId: call.stepId, tool: call.tool, label: call.label ?? call.tool, kind: "tool" },
          snaps,
        );
      });
      this.afterRecording();
      return { recorded: true, seq: rec.seq, stepId: rec.stepId, skipped: rec.skipped, ms: this.now() - started };
    } catch (e) {
      return { recorded: false, reason: `No checkpoint: ${(e as Error).message}` };
    }
  }

  async after(step: { readonly taskId: string; readonly stepId: string }): Promise<AfterResult> {
    const problem = await this.usable(true);
    if (problem !== undefined) return { recorded: false, reason: problem };
    try {
      return await this.serial(async () => {
        if (!this.o.trusted()) throw new CheckpointError("Restricted Mode: nothing is recorded.");
        const record = await this.log.read(step.taskId);
        const rec = record?.steps.find((s) => s.stepId === step.stepId);
        if (!record || !rec) return { recorded: false as const, reason: "No checkpoint was taken before this step." };
        const changedFiles = await this.recordAfter(record, rec, await this.snapshotAll());
        return { recorded: true as const, changedFiles };
      });
    } catch (e) {
      return { recorded: false, reason: `No checkpoint: ${(e as Error).message}` };
    }
  }

  private async recordAfter(record: TaskRecord, rec: StepRecord, snaps: readonly Snapshot[]): Promise<number> {
    let changedFiles = 0;
    for (let i = 0; i < this.repos.length; i++) {
      const state = rec.roots[this.o.roots[i]!];
      if (!state) continue;
      state.after = snaps[i]!.tree;
      changedFiles += (await this.repos[i]!.changes(state.before, state.after)).length;
    }
    rec.changedFiles = changedFiles;
    record.updatedAt = this.now();
    await this.log.write(record);
    return changedFiles;
  }

  private afterRecording(): void {
    if (++this.sincePrune < (this.o.pruneEvery ?? 50)) return;
    this.sincePrune = 0;
    void this.prune().catch(() => undefined);
  }

  // ---- reading -------------------------------------------------------------------------------------------

  async list(taskId: string): Promise<TaskCheckpoints | undefined> {
    const record = await this.serial(() => this.log.read(taskId));
    return record ? { taskId, steps: record.steps.map(stepInfo) } : undefined;
  }

  private async stepOf(taskId: string, stepId: string): Promise<{ record: TaskRecord; index: number }> {
    const record = await this.log.read(taskId);
    if (!record) throw new CheckpointError(`No checkpoints were recorded for task ${taskId}.`);
    const index = findStep(record, stepId);
    if (index < 0) throw new CheckpointError(`Task ${taskId} has no checkpoint for step ${stepId}.`);
    return { record, index };
  }

  /** Joins per-root patches, cutting at the cap. */
  private joinPatches(parts: readonly string[]): { patch: string; truncated: boolean } {
    let patch = "";
    for (const p of parts) {
      if (patch.length + p.length > MAX_PATCH_BYTES) {
        return { patch: patch + p.slice(0, Math.max(0, MAX_PATCH_BYTES - patch.length)), truncated: true };
      }
      patch += p;
    }
    return { patch, truncated: false };
  }

  async diff(taskId: string, range: { readonly from?: string; readonly to?: string } = {}): Promise<CheckpointDiff> {
    await this.mustRestore();
    return this.serial(async () => {
      const record = (await this.log.read(taskId)) ?? undefined;
      if (!record || record.steps.length === 0)
        throw new CheckpointError(`No checkpoints were recorded for task ${taskId}.`);
      const from = range.from !== undefined ? (await this.stepOf(taskId, range.from)).index : 0;
      const toIndex = range.to !== undefined ? (await this.stepOf(taskId, range.to)).index : undefined;
      const last = record.steps[record.steps.length - 1]!;
      const endKnown = this.o.roots.every((r) => !last.roots[r] || last.roots[r].after !== undefined);
      const now = toIndex === undefined && !endKnown ? await this.snapshotAll() : undefined;
      const files: ChangedFile[] = [];
      const patches: string[] = [];
      for (let i = 0; i < this.repos.length; i++) {
        const root = this.o.roots[i]!;
        const a = record.steps[from]!.roots[root]?.before;
        const b =
          toIndex !== undefined
            ? record.steps[toIndex]!.roots[root]?.before
            : (now?.[i]?.tree ?? last.roots[root]?.after);
        if (a === undefined || b === undefined) continue;
        const repo = this.repos[i]!;
        for (const c of await repo.changes(a, b))
          files.push({
            abs: nodePath.join(root, c.path),
            path: c.path,
            root,
            status: c.status === "A" ? "added" : c.status === "D" ? "deleted" : "modified",
          });
        patches.push(await repo.patch(a, b, this.prefixes[i]!));
      }
      return { files, ...this.joinPatches(patches) };
    });
  }

  async fileAt(taskId: string, abs: string, at: { readonly before: string } | "end"): Promise<Uint8Array | undefined> {
    await this.mustRestore();
    return this.serial(async () => {
      const i = this.o.roots.findIndex(
        (r) => abs === r || abs.startsWith(r.endsWith(nodePath.sep) ? r : r + nodePath.sep),
      );
      if (i < 0) throw new CheckpointError(`${abs} is not in the workspace.`);
      const root = this.o.roots[i]!;
      const record = await this.log.read(taskId);
      if (!record || record.steps.length === 0)
        throw new CheckpointError(`No checkpoints were recorded for task ${taskId}.`);
      const step =
        at === "end"
          ? record.steps[record.steps.length - 1]!
          : record.steps[(await this.stepOf(taskId, at.before)).index]!;
      const tree = at === "end" ? step.roots[root]?.after : step.roots[root]?.before;
      if (tree === undefined) {
        if (at !== "end") return undefined;
        return readFile(abs).catch(() => undefined);
      }
      return this.repos[i]!.blob(tree, nodePath.relative(root, abs).split(nodePath.sep).join("/"));
    });
  }

  // ---- restoring -----------------------------------------------------------------------------------------

  private async planAll(
    record: TaskRecord,
    index: number,
    current: readonly Snapshot[],
    options: RestoreOptions,
  ): Promise<{ plan: RestorePlan; roots: RootPlan[] }> {
    const steps = record.steps.slice(index);
    const roots: RootPlan[] = [];
    const patches: string[] = [];
    for (let i = 0; i < this.repos.length; i++) {
      const root = this.o.roots[i]!;
      const state = steps[0]!.roots[root];
      if (!state) continue;
      const p = await planRoot({
        repo: this.repos[i]!,
        root,
        steps,
        current: current[i]!.tree,
        skippedAtTarget: await this.skippedLists.load(state.skipped),
        options,
      });
      if (!p) continue;
      roots.push(p);
      patches.push(await this.repos[i]!.patch(p.current, p.result, this.prefixes[i]!));
    }
    const plan: RestorePlan = {
      taskId: record.taskId,
      step: stepInfo(steps[0]!),
      files: roots.flatMap((r) => r.files),
      ...this.joinPatches(patches),
    };
    return { plan, roots };
  }

  async plan(taskId: string, stepId: string, options: RestoreOptions = {}): Promise<RestorePlan> {
    await this.mustRestore();
    return this.serial(async () => {
      await this.mustRestore();
      const { record, index } = await this.stepOf(taskId, stepId);
      return (await this.planAll(record, index, await this.snapshotAll(true), options)).plan;
    });
  }

  async restore(taskId: string, stepId: string, options: RestoreOptions = {}): Promise<RestoreResult> {
    await this.mustRestore();
    return this.serial(async () => {
      await this.mustRestore();
      const { record, index } = await this.stepOf(taskId, stepId);
      const target = record.steps[index]!;
      // A restore decides what to overwrite from the current files: read them all, whatever the signal says.
      const current = await this.snapshotAll(true);
      const { plan, roots } = await this.planAll(record, index, current, options);
      const undoStep = await this.recordStep(
        taskId,
        {
          stepId: `restore-${(record.steps[record.steps.length - 1]?.seq ?? 0) + 1}`,
          tool: "restore",
          label: `Before restoring to step ${target.seq} (${target.label})`,
          kind: "restore",
          restores: target.stepId,
        },
        current,
        record,
      );
      const changed: string[] = [];
      const kept: { abs: string; reason: NonNullable<RestorePlan["files"][number]["kept"]> }[] = [];
      for (const r of roots) {
        const applied = await applyRootPlan(this.repos[this.o.roots.indexOf(r.root)]!, r);
        changed.push(...applied.changed);
        kept.push(...applied.kept);
      }
      await this.recordAfter(record, undoStep, await this.snapshotAll(true));
      return { plan, changed, kept, undo: { seq: undoStep.seq, stepId: undoStep.stepId } };
    });
  }

  // ---- pruning -------------------------------------------------------------------------------------------

  async forget(taskId: string): Promise<void> {
    await this.serial(async () => {
      if ((await this.log.read(taskId)) === undefined) return;
      await this.log.remove(taskId);
      for (const t of this.trackers) t.dropSnapshot();
      await compactStore(
        { log: this.log, repos: this.repos, skippedLists: this.skippedLists, roots: this.o.roots },
        await this.log.all(),
      );
    });
  }

  prune(): Promise<PruneResult> {
    return this.serial(async () => {
      for (const t of this.trackers) t.dropSnapshot();
      return pruneStore({
        geometricRepack: versionAtLeast((await this.git.version()) ?? "0", "2.33"),
        log: this.log,
        repos: this.repos,
        skippedLists: this.skippedLists,
        roots: this.o.roots,
        workspaceDir: this.workspaceDir,
        maxBytes: this.o.settings().maxSizeMB * 1024 * 1024,
      });
    });
  }
}
