import { lstatSync, readdirSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { nodeFsProbe, type FsProbe } from "./paths";

/**
 * The file-system facts a decision needs — realpaths, existence, file kinds, link targets, directory listings,
 * and results derived from whole trees (a recursive read's ignored-file walk, what `git add` would stage) —
 * cached across decisions and kept true by file-system watching, instead of fresh system calls every decision.
 *
 * Invariants (why a cached fact is as good as a fresh one):
 * - A fact about path P is kept only while the directory holding P is watched (`DirWatcher.watch`, asked
 *   BEFORE the system call, so no change after the call can go unreported) and that directory is itself a
 *   kept, link-free fact: inductively every directory from the root down to P is watched and no link lies on
 *   the way. Facts that involve a symlink (where it leads can change where no watcher looks), or a path outside
 *   every root, are fetched afresh each time. The roots' own realpaths are fixed per task, as before.
 * - A reported change at X forgets every fact about X and below it, and every tree-derived result (and listing)
 *   of X's directory and its ancestors. Changes are applied at the next `beginDecision`; more than MAX_PENDING
 *   of them, a watcher error or an unknown change forget everything. A tree-derived result is kept only when
 *   every fact it was computed from could be kept.
 * - A decision is therefore judged on the file system as the watcher last reported it. The gap to the truth is
 *   the watcher's delivery delay, which is no wider than the gap that already exists between a decision and
 *   its run: handlers re-check each path's realpath right before their own I/O (no-follow writes) and decide
 *   again when it changed, and commands run inside the verdict's sandbox grant, so a stale fact cannot make a
 *   call do more than its verdict allows at run time.
 * - Without a watcher (`FsFacts.perDecision`), every fact is forgotten at every `beginDecision`: one decision
 *   sees one state, the next sees the file system afresh.
 */

export type EntryKind = "missing" | "file" | "dir" | "link" | "other";

export interface DirEntry {
  readonly name: string;
  /** The entry itself (a symlink is `link`, never followed). */
  readonly kind: EntryKind;
}

/** Where a tree-derived result (`tree`) may be kept: `cacheable: false` when it met a link or left the root. */
export interface Derived<T> {
  readonly value: T;
  readonly cacheable: boolean;
}

/** What a file-system watcher tells the cache. The host and the CLI drive it; the core only listens. */
export interface FsInvalidation {
  /** Something at `path` (absolute) was created, changed, removed or renamed. */
  changed(path: string): void;
  /** Anything may have changed (a watcher overflow or error, a root added). */
  changedAll(): void;
}

/** The system calls behind the facts (replaceable in tests). */
export interface FsCalls {
  realpath(path: string): string | undefined;
  lstat(path: string): EntryKind;
  stat(path: string): EntryKind;
  readlink(path: string): string | undefined;
  list(dir: string): readonly DirEntry[] | undefined;
}

const kindOf = (st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryKind =>
  st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFile() ? "file" : "other";

export const nodeFsCalls: FsCalls = {
  realpath: (path) => nodeFsProbe.realpath(path),
  lstat(path) {
    try {
      const st = lstatSync(path, { throwIfNoEntry: false });
      return st === undefined ? "missing" : kindOf(st);
    } catch {
      // ENOTDIR and friends: nothing can exist below a file.
      return "missing";
    }
  },
  stat(path) {
    try {
      const st = statSync(path, { throwIfNoEntry: false });
      return st === undefined ? "missing" : kindOf(st);
    } catch {
      // Unreadable (EACCES, a loop): something may be there; callers that must fail closed treat it as present.
      return "other";
    }
  },
  readlink: (path) => nodeFsProbe.readlink(path),
  list(dir) {
    try {
      return readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, kind: kindOf(e) }));
    } catch {
      return undefined;
    }
  },
};

/** Changes kept one by one before the cache forgets everything instead (forgetting is one `clear` per map). */
const MAX_PENDING = 32;
/** Facts kept in all (a bound on memory: past it the cache starts again empty). */
const MAX_FACTS = 50_000;
const MISSING = "\0missing";

/** Watches directories for the cache: after `watch(dir)` returned true, every change to an entry of `dir`
 * (created, removed, renamed, its content or metadata changed) is reported through `FsInvalidation`. */
export interface DirWatcher {
  /** Starts (or keeps) watching `dir`; false when it cannot (then nothing in `dir` is kept). Synchronous. */
  watch(dir: string): boolean;
}

export class FsFacts implements FsProbe, FsInvalidation {
  private readonly roots: readonly string[];
  private readonly prefixes: readonly string[];
  private readonly reals = new Map<string, string>();
  private readonly lstats = new Map<string, EntryKind>();
  private readonly links = new Map<string, string | null>();
  /** Listings and tree-derived results, by directory then tag. */
  private readonly trees = new Map<string, Map<string, unknown>>();
  private pending: string[] | "all" = [];
  private size = 0;
  /**
   * Facts fetched and not kept since the cache began: a result computed over one of them (a tree, a resolved
   * path) is not kept either.
   */
  private fresh = 0;
  /** Moves whenever anything kept is forgotten: a result derived from kept facts holds while it stays. */
  private forgotten = 0;
  private watcher: DirWatcher | undefined;
  /** Counters for tests and benchmarks: system calls made, changes applied. */
  readonly stats = { calls: 0, invalidations: 0 };

  /**
   * @param roots the roots (absolute and real) inside which facts may be kept.
   * @param watcher what keeps the facts true; without one every fact lasts one decision.
   */
  constructor(
    roots: readonly string[],
    watcher: DirWatcher | undefined,
    private readonly calls: FsCalls = nodeFsCalls,
  ) {
    this.roots = roots.map((r) => nodePath.resolve(r));
    this.prefixes = this.roots.map((r) => (r.endsWith(nodePath.sep) ? r : r + nodePath.sep));
    this.watcher = watcher;
  }

  /** A cache that forgets at every decision: for callers with no watcher (a hook that decides once). */
  static perDecision(calls: FsCalls = nodeFsCalls): FsFacts {
    return new FsFacts([], undefined, calls);
  }

  get watched(): boolean {
    return this.watcher !== undefined;
  }

  /**
   * For results derived from facts (WorkspacePaths' resolutions): undefined without a watcher (nothing lasts
   * past a decision); otherwise a stamp that changes whenever a kept fact is forgotten, and a count of facts
   * fetched without being kept. A result derived while the count stayed put holds while the stamp does.
   */
  stability(): { readonly stamp: number; readonly fresh: number } | undefined {
    return this.watcher ? { stamp: this.forgotten, fresh: this.fresh } : undefined;
  }

  /** The watcher failed: from now on every fact lasts one decision. */
  stopWatching(): void {
    this.watcher = undefined;
    this.pending = "all";
  }

  changed(path: string): void {
    if (this.pending === "all") return;
    if (this.pending.length >= MAX_PENDING) this.pending = "all";
    else this.pending.push(nodePath.resolve(path));
  }

  changedAll(): void {
    this.pending = "all";
  }

  /** Applies the changes reported since the last decision (or, unwatched, forgets everything). */
  beginDecision(): void {
    if (!this.watcher || this.pending === "all" || this.size > MAX_FACTS) {
      if (this.pending === "all") this.stats.invalidations++;
      this.clear();
      this.pending = [];
      return;
    }
    if (this.pending.length === 0) return;
    const changed = this.pending;
    this.pending = [];
    this.forgotten++;
    this.stats.invalidations += changed.length;
    const below = changed.map((c) => c + nodePath.sep);
    const hit = (key: string) => changed.some((c, i) => key === c || key.startsWith(below[i]!));
    for (const m of [this.reals, this.lstats, this.links] as Map<string, unknown>[])
      for (const k of m.keys()) if (hit(k)) m.delete(k);
    for (const k of this.trees.keys()) if (hit(k)) this.trees.delete(k);
    // A tree result of an ancestor covered the changed path; a listing of its parent named it.
    for (const c of changed)
      for (let at = c, d = nodePath.dirname(c); d !== at && this.inScope(d); at = d, d = nodePath.dirname(d))
        this.trees.delete(d);
  }

  private clear(): void {
    this.forgotten++;
    if (this.size === 0) return;
    this.reals.clear();
    this.lstats.clear();
    this.links.clear();
    this.trees.clear();
    this.size = 0;
  }

  /** Inside a root (the root itself included). */
  private inScope(p: string): boolean {
    for (let i = 0; i < this.roots.length; i++) if (p === this.roots[i] || p.startsWith(this.prefixes[i]!)) return true;
    return false;
  }

  private isRoot(p: string): boolean {
    return this.roots.includes(p);
  }

  /**
   * Whether facts about the entries of directory `dir` can be kept: `dir` is a kept, link-free fact and is
   * watched from now on (unwatched: anything, kept for this decision only). Asked before the system call.
   */
  private keepsBelow(dir: string): boolean {
    if (!this.watcher) return true;
    if (!this.inScope(dir) || this.realpath(dir) !== dir || !this.reals.has(dir)) return false;
    if (this.watcher.watch(dir)) return true;
    this.fresh++;
    return false;
  }

  /** Whether a fact about `p` itself can be kept (its directory keeps facts; a root is fixed per task). */
  private keeps(p: string): boolean {
    if (!this.watcher) return true;
    if (this.isRoot(p)) return true;
    const parent = nodePath.dirname(p);
    return parent !== p && this.inScope(parent) && this.keepsBelow(parent);
  }

  private keep<K, V>(m: Map<K, V>, k: K, v: V): void {
    // Bounded within a decision too (a walk over a large tree): past the bound, start again empty.
    if (this.size >= MAX_FACTS) this.clear();
    m.set(k, v);
    this.size++;
  }

  /**
   * Below a directory kept as missing nothing exists: its creation would be reported by the watch on its own
   * directory, which forgets everything below it. No system call needed.
   */
  private belowMissing(path: string): boolean {
    if (!this.watcher) return false;
    const parent = nodePath.dirname(path);
    return parent !== path && this.reals.get(parent) === MISSING;
  }

  realpath(path: string): string | undefined {
    const hit = this.reals.get(path);
    if (hit !== undefined) return hit === MISSING ? undefined : hit;
    // Asking whether the directory keeps facts may find it missing: then so is this path.
    const keep = this.keeps(path);
    if (this.belowMissing(path)) {
      this.keep(this.reals, path, MISSING);
      return undefined;
    }
    this.stats.calls++;
    const real = this.calls.realpath(path);
    if (!keep) {
      this.fresh++;
      return real;
    }
    if (real === path) this.keep(this.reals, path, real);
    else if (real === undefined && this.keptMissing(path)) this.keep(this.reals, path, MISSING);
    // A path reached through a link is not kept: its target can change where no watcher looks.
    else if (this.watcher) this.fresh++;
    else this.keep(this.reals, path, real ?? MISSING);
    return real;
  }

  /** Missing, and decided so by a kept fact: nothing at `p`, in a watched, link-free (or missing) directory. */
  private keptMissing(p: string): boolean {
    return this.lstat(p) === "missing" && this.lstats.has(p);
  }

  /** What is at `path` itself, not following a final link. */
  lstat(path: string): EntryKind {
    const hit = this.lstats.get(path);
    if (hit !== undefined) return hit;
    const keep = this.keeps(path);
    if (this.belowMissing(path)) {
      this.keep(this.lstats, path, "missing");
      return "missing";
    }
    this.stats.calls++;
    const kind = this.calls.lstat(path);
    if (keep) this.keep(this.lstats, path, kind);
    else this.fresh++;
    return kind;
  }

  /** What `path` leads to, following links (`other` when it cannot be read: something may be there). */
  stat(path: string): EntryKind {
    const own = this.lstat(path);
    if (own !== "link") return own;
    this.stats.calls++;
    this.fresh++;
    return this.calls.stat(path);
  }

  /** FsProbe: `link` / `other` / `missing` for the path resolution. */
  entry(path: string): "missing" | "link" | "other" {
    const k = this.lstat(path);
    return k === "missing" || k === "link" ? k : "other";
  }

  readlink(path: string): string | undefined {
    const hit = this.links.get(path);
    if (hit !== undefined) return hit ?? undefined;
    const keep = this.keeps(path);
    this.stats.calls++;
    const target = this.calls.readlink(path);
    if (keep) this.keep(this.links, path, target ?? null);
    else this.fresh++;
    return target;
  }

  /** The entries of directory `dir` (undefined when it cannot be listed). Kept for a watched, link-free `dir`. */
  list(dir: string): readonly DirEntry[] | undefined {
    const at = this.trees.get(dir);
    if (at?.has(LIST)) return at.get(LIST) as readonly DirEntry[] | undefined;
    const keep = this.keepsBelow(dir);
    this.stats.calls++;
    const entries = this.calls.list(dir);
    if (!keep) {
      this.fresh++;
      return entries;
    }
    this.keepTree(dir, LIST, entries);
    // A listing says what each entry is: the lstat of each is known too.
    if (entries)
      for (const e of entries) {
        const child = nodePath.join(dir, e.name);
        if (!this.lstats.has(child)) this.keep(this.lstats, child, e.kind);
      }
    return entries;
  }

  /**
   * A result computed from the tree at `dir` (`tag` names the computation and its inputs), kept while nothing
   * at, below or above `dir` changes — when `dir` keeps facts, every fact `compute` used could be kept, and
   * `compute` says it may be (it followed no link, read no file through one).
   */
  tree<T>(dir: string, tag: string, compute: () => Derived<T>): T {
    const at = this.trees.get(dir);
    if (at?.has(tag)) return at.get(tag) as T;
    const keep = this.keepsBelow(dir);
    const freshBefore = this.fresh;
    const r = compute();
    if (keep && (!this.watcher || (r.cacheable && this.fresh === freshBefore))) this.keepTree(dir, tag, r.value);
    return r.value;
  }

  private keepTree(dir: string, tag: string, value: unknown): void {
    if (this.size >= MAX_FACTS) this.clear();
    let m = this.trees.get(dir);
    if (!m) this.trees.set(dir, (m = new Map()));
    m.set(tag, value);
    this.size++;
  }
}

const LIST = "\0list";
