/**
 * Tasks persisted in a directory (the host passes the extension's global storage):
 *   <dir>/tasks/<id>.json   one TaskSnapshot per task
 *   <dir>/index.json        the list shown in the history view
 * Writes are atomic and batched: a task's changes are written at most once per `debounceMs` after the
 * first unsaved change, never per token; `flush()` writes at once (the task calls it
 * when an ask becomes pending and when it ends). Writes of one file are serialised.
 */
import { readFile, rm } from "node:fs/promises";
import * as nodePath from "node:path";
import type { TaskHeader, TaskPersistence, TaskSnapshot } from "../task/snapshot";
import { writeFileAtomic, type WriteCounter } from "./atomicWrite";

export interface TaskIndexEntry extends TaskHeader {
  readonly costUsd: number;
}

/** When a batched write happens: real timers by default; tests pass a clock they advance themselves. */
export interface HistoryTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimer: HistoryTimer = {
  set: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface HistoryOptions {
  readonly debounceMs?: number;
  readonly timer?: HistoryTimer;
}

const ID = /^[A-Za-z0-9_-]{1,100}$/;

function checkId(id: string): string {
  if (!ID.test(id)) throw new Error(`invalid task id ${JSON.stringify(id)}`);
  return id;
}

export class TaskHistory {
  readonly counter: WriteCounter = { writes: 0, bytes: 0, byFile: {} };
  private index: Map<string, TaskIndexEntry> | undefined;
  private indexChain: Promise<void> = Promise.resolve();
  private readonly debounceMs: number;
  private readonly timer: HistoryTimer;

  constructor(
    readonly dir: string,
    opts: HistoryOptions = {},
  ) {
    this.debounceMs = opts.debounceMs ?? 1000;
    this.timer = opts.timer ?? realTimer;
  }

  private taskPath(id: string): string {
    return nodePath.join(this.dir, "tasks", `${checkId(id)}.json`);
  }

  private async loadIndex(): Promise<Map<string, TaskIndexEntry>> {
    if (this.index) return this.index;
    let entries: TaskIndexEntry[] = [];
    try {
      entries = JSON.parse(await readFile(nodePath.join(this.dir, "index.json"), "utf8")) as TaskIndexEntry[];
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") entries = []; // unreadable index: rebuilt as tasks are written
    }
    this.index ??= new Map(entries.map((e) => [e.id, e]));
    return this.index;
  }

  async list(): Promise<TaskIndexEntry[]> {
    return [...(await this.loadIndex()).values()].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async load(id: string): Promise<TaskSnapshot | undefined> {
    try {
      const snap = JSON.parse(await readFile(this.taskPath(id), "utf8")) as TaskSnapshot;
      return snap.version === 1 ? snap : undefined;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  async delete(id: string): Promise<void> {
    await rm(this.taskPath(id), { force: true });
    const index = await this.loadIndex();
    if (index.delete(id)) await this.writeIndex();
  }

  private writeIndex(): Promise<void> {
    if (this.indexTimer !== undefined) this.timer.clear(this.indexTimer);
    this.indexTimer = undefined;
    const run = this.indexChain.then(async () => {
      const entries = [...(await this.loadIndex()).values()];
      await writeFileAtomic(nodePath.join(this.dir, "index.json"), JSON.stringify(entries), this.counter);
    });
    this.indexChain = run.catch(() => undefined);
    return run;
  }

  /** Writes one snapshot now (and the index when the entry changed in a way the list shows). */
  async save(snap: TaskSnapshot): Promise<void> {
    await writeFileAtomic(this.taskPath(snap.id), JSON.stringify(snap), this.counter);
    const index = await this.loadIndex();
    const prev = index.get(snap.id);
    const entry: TaskIndexEntry = {
      id: snap.id,
      ...(snap.parentId ? { parentId: snap.parentId } : {}),
      title: snap.title,
      createdAt: snap.createdAt,
      updatedAt: snap.updatedAt,
      state: snap.state,
      costUsd: snap.usage.costUsd,
    };
    index.set(snap.id, entry);
    if (prev && prev.state === entry.state && prev.title === entry.title && prev.costUsd === entry.costUsd) return;
    // A new task and a task waiting on the person must be findable at once: a window reload right after an
    // ask appears restores the task from the index. Other changes (cost, title) are batched.
    if (
      !prev ||
      entry.state === "waiting" ||
      entry.state === "completed" ||
      entry.state === "cancelled" ||
      entry.state === "failed"
    )
      await this.writeIndex();
    else {
      this.indexTimer ??= this.timer.set(() => void this.writeIndex(), this.debounceMs);
    }
  }

  private indexTimer: unknown;

  /** The batched writer a task reports its changes to. */
  writer(snapshot: () => TaskSnapshot): TaskPersistence {
    let timer: unknown;
    let dirty = false;
    let chain: Promise<void> = Promise.resolve();
    const write = (): Promise<void> => {
      if (timer !== undefined) this.timer.clear(timer);
      timer = undefined;
      if (!dirty) return chain;
      dirty = false;
      const snap = snapshot();
      chain = chain.then(() => this.save(snap)).catch(() => undefined);
      return chain;
    };
    return {
      // Called for every change (every streamed chunk): arming a timer once per batch keeps it O(1).
      changed: () => {
        dirty = true;
        timer ??= this.timer.set(() => void write(), this.debounceMs);
      },
      flush: () => {
        dirty = true;
        return write();
      },
    };
  }
}
