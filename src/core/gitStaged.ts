import ignore, { type Ignore } from "ignore";
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { FsFacts } from "./fsFacts";
import type { IgnoreRules } from "./ignoreFile";
import { rulesId, walkBelow, type BelowResult } from "./ignoredBelow";

/**
 * Whether staging the directory `start` of a root (`git add .`, `git add -A`, `git stash -u`) would copy a file the ignore file
 * excludes into git's objects, from where `git push`, `bundle` or `show` carry it on. git skips what its own
 * exclude files name, so they are honoured: the `.gitignore` of the root and of every directory below it,
 * and `.git/info/exclude` of the root. `forced` (`git add -f`, `git stash -a`) honours none of them.
 *
 * Exclude files above the root and the person's global one are not read: a file they exclude is taken as
 * staged, which can only make the command ask where git would have skipped the file, never the reverse.
 * Any result but `clean` makes the caller ask. The result is kept by `facts` while nothing in the root changes
 * (the exclude files of the directories above `start`, and `.git/info/exclude`, count too).
 */
export function stagedIgnored(
  root: { readonly root: string; readonly index: number },
  start: string,
  ignoreRules: IgnoreRules,
  forced: boolean,
  facts: FsFacts,
): BelowResult {
  if (!ignoreRules.hasRules(root.index)) return { kind: "clean" };
  if (facts.stat(nodePath.join(root.root, start)) !== "dir") return { kind: "clean" };
  const tag = `staged\0${rulesId(ignoreRules)}\0${forced}\0${start}`;
  return facts.tree(root.root, tag, () => {
    const excludes = forced ? undefined : new GitExcludes(root.root, facts);
    const value = walkStaged(root, start, ignoreRules, excludes, facts);
    // An exclude file reached through a link can change where no watcher looks.
    return { value, cacheable: !excludes?.throughLink };
  });
}

function walkStaged(
  root: { readonly root: string; readonly index: number },
  start: string,
  ignoreRules: IgnoreRules,
  excludes: GitExcludes | undefined,
  facts: FsFacts,
): BelowResult {
  // git reads the exclude files of the directories above the one staged, too: one of them may exclude it.
  if (excludes && start !== "") {
    const parts = start.split("/");
    for (let i = 1; i <= parts.length; i++)
      if (excludes.excluded(parts.slice(0, i).join("/"), true)) return { kind: "clean" };
  }
  return walkBelow(root.root, start, facts, (child, e) => {
    // git never stages a repository's own directory; what it skips as excluded is not looked into.
    if (e.name === ".git") return "next";
    const isDir = e.kind === "dir";
    if (excludes?.excluded(child, isDir)) return "next";
    // git stages a link as a link (its target's name), never what it points to.
    if (ignoreRules.ignores(root.index, child)) return { kind: "ignored", relative: child };
    return isDir ? "descend" : "next";
  });
}

/** git's exclude files under one root, each read once per scan. */
class GitExcludes {
  private readonly perDir = new Map<string, Ignore | null>();
  private readonly info: Ignore | null;
  /** Some exclude file read is, or lies below, a link (`.git` itself may be one). */
  throughLink = false;

  constructor(
    private readonly root: string,
    private readonly facts: FsFacts,
  ) {
    const dotGit = nodePath.join(root, ".git");
    const kind = facts.lstat(dotGit);
    if (kind !== "dir" && kind !== "missing") this.throughLink = true;
    this.info = this.rules(nodePath.join(dotGit, "info", "exclude"));
  }

  /**
   * git's verdict for `relative` (`/`-separated): the deepest exclude file with a matching pattern decides,
   * then `.git/info/exclude`. The caller checks directories before descending, so a path below an excluded
   * directory is never asked about.
   */
  excluded(relative: string, isDir: boolean): boolean {
    const parts = relative.split("/");
    const name = isDir ? `${relative}/` : relative;
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const dir = parts.slice(0, depth).join("/");
      const ig = this.at(dir);
      if (!ig) continue;
      const verdict = ig.test(dir === "" ? name : name.slice(dir.length + 1));
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return this.info?.ignores(name) ?? false;
  }

  private at(dir: string): Ignore | null {
    let ig = this.perDir.get(dir);
    if (ig === undefined) {
      ig = this.rules(nodePath.join(this.root, dir, ".gitignore"));
      this.perDir.set(dir, ig);
    }
    return ig;
  }

  /** An exclude file's rules; null when it is missing or unreadable (nothing excluded by it). */
  private rules(file: string): Ignore | null {
    const kind = this.facts.lstat(file);
    if (kind === "missing") return null;
    if (kind === "link") this.throughLink = true;
    try {
      return ignore().add(readFileSync(file, "utf8"));
    } catch {
      return null;
    }
  }
}
