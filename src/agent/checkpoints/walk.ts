/**
 * Which files of one root a checkpoint covers. The walk only lists directories and stats entries; the file
 * list it returns is the only thing git is allowed to read, so anything skipped here is never read into the
 * store.
 *
 * `RootWalker` keeps what each directory held at the last walk, so a later walk can re-list only the
 * directories a trustworthy change signal named (`update`) and tell git which paths to look at (`touched`).
 *
 * Invariants:
 * - `.git` (directory or gitfile) is skipped at every depth, so a nested repository or submodule is recorded
 *   as its plain files and its git data is never read or written.
 * - Links are recorded as links (lstat); the walk never follows one.
 * - A skipped directory is never entered: its contents are neither listed nor counted.
 * - `skippedPaths` lists every skipped entry (directories with a trailing `/`) unless `truncated`; restore
 *   relies on it to never delete a file the checkpoint did not cover.
 * - `update(dirty)` gives the same result as a full walk provided every directory whose entries changed is in
 *   `dirty`; whenever it cannot be sure (a capped walk, a directory that vanished or cannot be read, a
 *   `.gitignore` that changed) it walks the affected part in full or returns undefined so the caller does.
 * - `onDirectory` is told about a directory before it is listed, so a watcher started there misses nothing
 *   that happens after the listing.
 */
import { lstatSync, readdirSync, readFileSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import type { IgnoreRules } from "../../core/ignoreFile";
import { GitignoreStack } from "./gitignoreStack";
import type { SkipReason } from "./types";

/** Dependency, environment and cache folders: large, regenerated, and never what an undo is for. */
export const HEAVY_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules",
  "bower_components",
  "jspm_packages",
  ".venv",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  ".gradle",
  ".next",
  ".nuxt",
  ".turbo",
  ".parcel-cache",
  ".yarn/cache",
]);

const YIELD_EVERY = 2000;

export interface WalkOptions {
  readonly root: string;
  readonly rootIndex: number;
  readonly ignore: IgnoreRules;
  readonly includeGitignored: boolean;
  readonly maxFileBytes: number;
  readonly maxFiles: number;
  /** Cap on `skippedPaths` (the summary counts everything). */
  readonly maxSkippedPaths?: number;
}

export interface WalkResult {
  /** Root-relative, `/`-separated, sorted. */
  readonly files: string[];
  readonly counts: Partial<Record<SkipReason, number>>;
  readonly skippedPaths: { readonly path: string; readonly reason: SkipReason }[];
  /** More entries were skipped than `skippedPaths` holds. */
  readonly truncated: boolean;
  /**
   * Set by `update`: the covered paths git must look at again (everything else is unchanged since the last
   * walk). Absent: look at every file.
   */
  readonly touched?: readonly string[];
}

interface Skip {
  readonly path: string;
  readonly reason: SkipReason;
}

/** One directory as the last walk saw it. */
interface DirRecord {
  /**
   * The directory's inode and change time when it was listed. A folder removed and made again under the same
   * name is a different directory (its watcher watched the old one), and even when the inode number is reused
   * its change time differs: a parent re-listing its sub-directories walks such a one again in full.
   */
  readonly stamp: string;
  /** The stack this directory's entries are judged with (after its own .gitignore). */
  readonly stack: GitignoreStack;
  /** Its .gitignore text at the walk (undefined: none, or gitignored files are included). */
  readonly gitignore: string | undefined;
  readonly files: string[];
  readonly skipped: Skip[];
  /** Sub-directories that were entered (`a/b/`). */
  readonly subdirs: string[];
  /** Files with more than one hard link: a write through another name changes them without an event here. */
  readonly linked: string[];
}

export class RootWalker {
  private dirs = new Map<string, DirRecord>();
  /** The last walk hit the file cap or the directory could not be listed: `update` is not possible. */
  private partial = true;
  private sinceYield = 0;

  constructor(
    private readonly o: WalkOptions,
    private readonly onDirectory: (dirRel: string) => void = () => undefined,
  ) {}

  /** The directories the last walk entered ("" is the root). */
  directories(): IterableIterator<string> {
    return this.dirs.keys();
  }

  /** Walks the whole root. */
  async full(): Promise<WalkResult> {
    this.dirs = new Map();
    const cap = { files: 0, truncatedRoot: false };
    await this.visit("", GitignoreStack.empty(), cap);
    this.partial = cap.truncatedRoot || cap.files >= this.o.maxFiles;
    return this.result(undefined);
  }

  /**
   * Re-lists the directories in `dirty` (root-relative, `a/b/`, "" for the root) and keeps the rest as the last
   * walk saw them. Undefined when that cannot be trusted to equal a full walk.
   */
  async update(dirty: ReadonlySet<string>): Promise<WalkResult | undefined> {
    if (this.partial) return undefined;
    const touched = new Set<string>();
    const order = [...dirty].sort((a, b) => a.split("/").length - b.split("/").length || (a < b ? -1 : 1));
    const cap = { files: 0, truncatedRoot: false };
    for (const d of order) {
      const old = this.dirs.get(d);
      if (old === undefined) continue; // not covered (skipped, or dropped with an ancestor re-listed just now)
      const parentStack = this.parentStackOf(d);
      if (parentStack === undefined) return undefined;
      const fresh = await this.listDir(d, parentStack, cap);
      if (fresh === undefined) return undefined; // vanished or unreadable: let a full walk record it
      if (fresh.gitignore !== old.gitignore) {
        // Its rules changed for the whole subtree: walk the subtree again.
        const before = this.filesUnder(d);
        this.drop(d);
        await this.visit(d, parentStack, cap);
        for (const f of this.filesUnder(d)) touched.add(f);
        for (const f of before) touched.add(f);
        continue;
      }
      for (const f of old.files) touched.add(f);
      for (const f of fresh.files) touched.add(f);
      this.dirs.set(d, fresh);
      for (const sub of old.subdirs)
        if (!fresh.subdirs.includes(sub)) {
          for (const f of this.filesUnder(sub)) touched.add(f);
          this.drop(sub);
        }
      for (const sub of fresh.subdirs) {
        const known = this.dirs.get(sub);
        if (known !== undefined && known.stamp !== this.stampOf(sub)) {
          for (const f of this.filesUnder(sub)) touched.add(f);
          this.drop(sub);
        }
        if (!this.dirs.has(sub)) {
          await this.visit(sub, fresh.stack, cap);
          for (const f of this.filesUnder(sub)) touched.add(f);
        }
      }
    }
    // A sub-directory that vanished while it was walked, or the cap: only a full walk records that right.
    if (cap.truncatedRoot || this.countFiles() >= this.o.maxFiles) return undefined;
    for (const r of this.dirs.values()) for (const f of r.linked) touched.add(f);
    return this.result([...touched]);
  }

  private parentStackOf(d: string): GitignoreStack | undefined {
    if (d === "") return GitignoreStack.empty();
    const parent = d.slice(0, d.lastIndexOf("/", d.length - 2) + 1);
    return this.dirs.get(parent)?.stack;
  }

  private stampOf(dirRel: string): string | undefined {
    const abs = dirRel === "" ? this.o.root : nodePath.join(this.o.root, dirRel);
    const st = lstatSync(abs, { bigint: true, throwIfNoEntry: false });
    return st?.isDirectory() ? `${st.ino}:${st.ctimeNs}` : undefined;
  }

  private countFiles(): number {
    let n = 0;
    for (const r of this.dirs.values()) n += r.files.length;
    return n;
  }

  private filesUnder(d: string): string[] {
    const out: string[] = [];
    const rec = this.dirs.get(d);
    if (!rec) return out;
    out.push(...rec.files);
    for (const s of rec.subdirs) out.push(...this.filesUnder(s));
    return out;
  }

  private drop(d: string): void {
    const rec = this.dirs.get(d);
    if (!rec) return;
    this.dirs.delete(d);
    for (const s of rec.subdirs) this.drop(s);
  }

  private async breather(): Promise<void> {
    if (++this.sinceYield < YIELD_EVERY) return;
    this.sinceYield = 0;
    // Synchronous calls are several times cheaper than promise-based ones per entry; yielding between slices
    // keeps the event loop (the extension host) responsive while a large tree is walked.
    await new Promise<void>((r) => setImmediate(r));
  }

  /** Lists one directory (not its sub-directories). Undefined when it cannot be listed. */
  private async listDir(
    dirRel: string,
    parentStack: GitignoreStack,
    cap: { files: number; truncatedRoot: boolean },
  ): Promise<DirRecord | undefined> {
    const o = this.o;
    const abs = dirRel === "" ? o.root : nodePath.join(o.root, dirRel);
    this.onDirectory(dirRel);
    // Taken before the listing: a change after it moves the change time, so a later compare errs towards
    // walking again.
    const stamp = this.stampOf(dirRel);
    if (stamp === undefined) return undefined;
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return undefined;
    }
    let stack = parentStack;
    let gitignore: string | undefined;
    if (!o.includeGitignored && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      try {
        gitignore = readFileSync(nodePath.join(abs, ".gitignore"), "utf8");
      } catch {
        gitignore = undefined;
      }
      stack = stack.enter(dirRel, gitignore);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const rec: DirRecord = { stamp, stack, gitignore, files: [], skipped: [], subdirs: [], linked: [] };
    const skip = (path: string, reason: SkipReason) => rec.skipped.push({ path, reason });
    for (const e of entries) {
      await this.breather();
      if (e.name === ".git") continue;
      const rel = dirRel + e.name;
      const isDir = e.isDirectory();
      if (o.ignore.ignores(o.rootIndex, rel)) skip(isDir ? rel + "/" : rel, "ignoreFile");
      else if (isDir && (HEAVY_FOLDERS.has(e.name) || HEAVY_FOLDERS.has(rel))) skip(rel + "/", "heavyFolder");
      else if (!o.includeGitignored && stack.ignores(rel, isDir)) skip(isDir ? rel + "/" : rel, "gitignored");
      else if (isDir) rec.subdirs.push(rel + "/");
      else if (e.isFile() || e.isSymbolicLink()) {
        const st = lstatSync(nodePath.join(o.root, rel), { throwIfNoEntry: false });
        if (!st) skip(rel, "unreadable");
        if (!st || (!st.isFile() && !st.isSymbolicLink())) continue;
        if (st.size > o.maxFileBytes) skip(rel, "tooLarge");
        else if (cap.files >= o.maxFiles) skip(rel, "fileCap");
        else {
          cap.files++;
          rec.files.push(rel);
          if (st.isFile() && st.nlink > 1) rec.linked.push(rel);
        }
      } else skip(rel, "special");
    }
    return rec;
  }

  /** Lists `dirRel` and everything below it that is covered. */
  private async visit(
    dirRel: string,
    parentStack: GitignoreStack,
    cap: { files: number; truncatedRoot: boolean },
  ): Promise<void> {
    const rec = await this.listDir(dirRel, parentStack, cap);
    if (rec === undefined) {
      // Unreadable (or vanished since it was listed): nothing below it is recorded, and saying so keeps a
      // later restore from taking its files for ones created after this checkpoint. It is recorded in its
      // parent's skips; the walk then cannot be updated in place (`partial`).
      if (dirRel === "") cap.truncatedRoot = true;
      else {
        const parent = dirRel.slice(0, dirRel.lastIndexOf("/", dirRel.length - 2) + 1);
        const p = this.dirs.get(parent);
        p?.subdirs.splice(p.subdirs.indexOf(dirRel), 1);
        p?.skipped.push({ path: dirRel, reason: "unreadable" });
        cap.truncatedRoot = true;
      }
      return;
    }
    this.dirs.set(dirRel, rec);
    for (const d of [...rec.subdirs]) {
      if (cap.files >= this.o.maxFiles) {
        rec.subdirs.splice(rec.subdirs.indexOf(d), 1);
        rec.skipped.push({ path: d, reason: "fileCap" });
      } else await this.visit(d, rec.stack, cap);
    }
  }

  private result(touched: string[] | undefined): WalkResult {
    const files: string[] = [];
    const counts: Partial<Record<SkipReason, number>> = {};
    const skippedPaths: Skip[] = [];
    const maxSkipped = this.o.maxSkippedPaths ?? 10_000;
    let truncated = false;
    const collect = (d: string): void => {
      const rec = this.dirs.get(d);
      if (!rec) return;
      for (const f of rec.files) files.push(f);
      for (const s of rec.skipped) {
        counts[s.reason] = (counts[s.reason] ?? 0) + 1;
        if (skippedPaths.length < maxSkipped) skippedPaths.push(s);
        else truncated = true;
      }
      for (const s of rec.subdirs) collect(s);
    };
    collect("");
    if (!this.dirs.has("")) truncated = true;
    files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { files, counts, skippedPaths, truncated, ...(touched ? { touched } : {}) };
  }
}

/** One full walk of a root. */
export async function walkRoot(o: WalkOptions): Promise<WalkResult> {
  return new RootWalker(o).full();
}
