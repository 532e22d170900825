/**
 * What one root looked like at its last checkpoint, kept true by a change signal (dirWatch.ts), so a
 * checkpoint walks and hashes only what changed — and takes nothing new at all when nothing did: the state
 * after step N is then the state before step N+1.
 *
 * Invariants:
 * - A walk is reused or updated in place only while the signal is trusted and the walk's inputs (the ignore
 *   file's rules, the checkpoint settings, the file cap) are the same values; otherwise the root is walked in
 *   full and git looks at every file, exactly as without a signal.
 * - The signal's period starts before the walk it describes (`take` first), so a change during the walk is
 *   seen at the next checkpoint, never lost.
 * - `unchanged` is only ever the snapshot `remember` was given for the walk just before, with no change since.
 */
import type { IgnoreRules } from "../../core/ignoreFile";
import { DirectoryWatch } from "./dirWatch";
import { RootWalker, type WalkOptions, type WalkResult } from "./walk";

export type TrackedWalk<S> =
  /** Nothing changed since the walk whose snapshot `remember` was given: that snapshot is still the state. */
  { readonly unchanged: S } | { readonly walk: WalkResult };

/** `S` is what the caller made of a walk (its snapshot: tree, skipped list, summary). */
export class RootTracker<S> {
  private walker: RootWalker | undefined;
  private key = "";
  private readonly watch: DirectoryWatch | undefined;
  private last: { readonly walk: WalkResult; readonly snapshot: S } | undefined;

  constructor(
    readonly root: string,
    watchChanges: boolean,
  ) {
    this.watch = watchChanges && DirectoryWatch.supported() ? new DirectoryWatch(root) : undefined;
  }

  private static keyOf(o: WalkOptions): string {
    const ig: IgnoreRules = o.ignore;
    return JSON.stringify([ig.fileName, ig.text(o.rootIndex) ?? null, o.includeGitignored, o.maxFileBytes, o.maxFiles]);
  }

  /**
   * The root's files now. `fresh`: walk everything (restores do, whatever the signal says).
   */
  async walk(o: WalkOptions, fresh = false): Promise<TrackedWalk<S>> {
    const key = RootTracker.keyOf(o);
    const report = this.watch ? await this.watch.take() : undefined;
    const usable = !fresh && report?.trusted === true && this.walker !== undefined && key === this.key;
    if (usable && report.dirty.size === 0 && this.last !== undefined) return { unchanged: this.last.snapshot };
    this.last = undefined;
    let walk = usable ? await this.walker!.update(report.dirty) : undefined;
    if (walk === undefined) {
      this.watch?.reset();
      this.key = key;
      this.walker = new RootWalker(o, (d) => this.watch?.add(d));
      walk = await this.walker.full();
    }
    this.watch?.retain(this.walker!.directories());
    return { walk };
  }

  /** What was recorded for `walk` (the result `walk` returned last). */
  remember(walk: WalkResult, snapshot: S): void {
    this.last = { walk, snapshot };
  }

  /**
   * The remembered snapshot may name data that compaction removed (its skipped list): the next checkpoint
   * records again (the walk itself is still true).
   */
  dropSnapshot(): void {
    this.last = undefined;
  }

  /** Recording failed (a git error): the next walk is a full one, and git looks at every file. */
  forget(): void {
    this.walker = undefined;
    this.last = undefined;
  }

  dispose(): void {
    this.watch?.close();
    this.forget();
  }
}
