import { watch, type FSWatcher } from "node:fs";
import * as nodePath from "node:path";
import { FsFacts, type DirWatcher, type FsInvalidation } from "../../core/fsFacts";
import { realpathOr } from "../realpath";

/** Directories watched at most (inotify watches are a per-user resource); past it, facts there are not kept. */
const MAX_WATCHED_DIRS = 4_096;

/**
 * Keeps an `FsFacts` true with Node's `fs.watch`, one non-recursive watch per directory the cache keeps facts
 * in, started on demand before the cache's first system call there (so a change after the call is reported).
 * Only directories a decision looked into are watched — a few dozen for a task, not every directory of the
 * workspace as a recursive watch would be. A watch that reports an error, or the watched directory itself
 * renamed or removed (a dead inotify watch follows the old inode), is dropped and everything below it is
 * forgotten; the next use watches the path again.
 */
export class NodeDirWatcher implements DirWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private closed = false;

  constructor(
    private readonly sink: FsInvalidation,
    private readonly limit = MAX_WATCHED_DIRS,
  ) {}

  get size(): number {
    return this.watchers.size;
  }

  watch(dir: string): boolean {
    if (this.watchers.has(dir)) return true;
    if (this.closed || this.watchers.size >= this.limit) return false;
    const self = nodePath.basename(dir);
    let w: FSWatcher;
    try {
      // Not persistent: a CLI that has answered exits whatever is still watched.
      w = watch(dir, { persistent: false }, (_event, name) => {
        if (name === null || name === self) return this.drop(dir);
        this.sink.changed(nodePath.join(dir, name));
      });
    } catch {
      return false; // ENOSPC (no inotify watches left), EACCES, gone: not kept
    }
    w.on("error", () => this.drop(dir));
    this.watchers.set(dir, w);
    return true;
  }

  private drop(dir: string): void {
    const w = this.watchers.get(dir);
    this.watchers.delete(dir);
    w?.close();
    this.sink.changed(dir);
  }

  close(): void {
    this.closed = true;
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }
}

export interface WatchedFacts {
  readonly facts: FsFacts;
  /** Stops watching; the facts then last one decision each. */
  close(): void;
}

/** File-system facts for the task over `roots`, kept true by `fs.watch` (the CLI's `check` and `run`). */
export function watchedFacts(roots: readonly string[]): WatchedFacts {
  // The watcher reports to the facts it keeps true; the facts ask it to watch.
  const relay: { sink?: FsInvalidation } = {};
  const watcher = new NodeDirWatcher({
    changed: (p) => relay.sink?.changed(p),
    changedAll: () => relay.sink?.changedAll(),
  });
  const facts = new FsFacts(
    roots.map((r) => realpathOr(r)),
    watcher,
  );
  relay.sink = facts;
  return {
    facts,
    close() {
      watcher.close();
      facts.stopWatching();
    },
  };
}
