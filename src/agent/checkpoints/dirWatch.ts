/**
 * The change signal that lets a checkpoint skip what did not change: one non-recursive `fs.watch` per directory
 * the last walk entered (inotify on Linux), collecting which directories had any entry created, removed,
 * renamed, written or re-moded since the last `take()`.
 *
 * Why trust it, and when not:
 * - inotify queues an event in the kernel when the change happens; libuv reads the whole queue in one poll
 *   phase, and `take()` waits for one (a `setImmediate` turn) before it answers, so a change finished before
 *   `take()` was called is in its answer. Other platforms' watchers (FSEvents, ReadDirectoryChangesW) deliver
 *   late and coalesce: `supported()` is false there, and the checkpoint walks everything.
 * - Not trusted (`trusted: false`) when any watcher failed or could not start (inotify limits), when more
 *   directories are walked than `maxDirectories`, or when so many events arrived (`maxEvents`) that the kernel
 *   queue may have overflowed and dropped some. The caller then walks everything.
 * - What inotify cannot see — a write through a hard link in another directory, a write by memory map, a
 *   change made on another machine of a network file system — the walk covers in part (files with several
 *   links are looked at every time) and the rest is the stated limit of this signal.
 */
import { watch, type FSWatcher } from "node:fs";
import * as nodePath from "node:path";

export interface ChangeReport {
  /** False: the set below may be incomplete; walk everything. */
  readonly trusted: boolean;
  /** Root-relative directories (`a/b/`, "" for the root) with any change since the last report. */
  readonly dirty: ReadonlySet<string>;
}

export interface DirectoryWatchOptions {
  readonly maxDirectories?: number;
  readonly maxEvents?: number;
}

export class DirectoryWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private dirty = new Set<string>();
  private events = 0;
  private broken = false;
  private closed = false;
  private readonly maxDirectories: number;
  private readonly maxEvents: number;

  constructor(
    private readonly root: string,
    o: DirectoryWatchOptions = {},
  ) {
    this.maxDirectories = o.maxDirectories ?? 20_000;
    this.maxEvents = o.maxEvents ?? 4_000;
  }

  static supported(): boolean {
    return process.platform === "linux";
  }

  /**
   * Starts watching `dirRel` (before it is listed, so nothing after the listing is missed). A watcher already
   * there is replaced: the folder of that name may be a new one, and a watch follows the old directory.
   */
  add(dirRel: string): void {
    if (this.closed) return;
    this.remove(dirRel);
    if (this.watchers.size >= this.maxDirectories) {
      this.broken = true;
      return;
    }
    const abs = dirRel === "" ? this.root : nodePath.join(this.root, dirRel);
    try {
      const w = watch(abs, { persistent: false }, () => {
        this.events++;
        this.dirty.add(dirRel);
      });
      w.on("error", () => {
        // The directory went away (its parent has an event too) or the watch broke: trust nothing.
        this.broken = true;
        this.dirty.add(dirRel);
        this.remove(dirRel);
      });
      this.watchers.set(dirRel, w);
    } catch {
      this.broken = true;
    }
  }

  /** Keeps watching exactly `dirs` (the directories the walk entered). */
  retain(dirs: Iterable<string>): void {
    const keep = new Set(dirs);
    for (const d of [...this.watchers.keys()]) if (!keep.has(d)) this.remove(d);
  }

  private remove(dirRel: string): void {
    const w = this.watchers.get(dirRel);
    this.watchers.delete(dirRel);
    w?.close();
  }

  /** What changed since the last call (waiting for queued events first); starts a new period. */
  async take(): Promise<ChangeReport> {
    await new Promise<void>((r) => setImmediate(r));
    const report = { trusted: !this.broken && !this.closed && this.events <= this.maxEvents, dirty: this.dirty };
    this.dirty = new Set();
    this.events = 0;
    return report;
  }

  /** The next `take()` reports untrusted: a full walk follows, which re-adds every directory. */
  reset(): void {
    this.broken = false;
  }

  close(): void {
    this.closed = true;
    for (const d of [...this.watchers.keys()]) this.remove(d);
  }
}
