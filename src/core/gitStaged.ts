import ignore, { type Ignore } from "ignore";
import { readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import type { IgnoreRules } from "./ignoreFile";
import { walkBelow, type BelowResult } from "./ignoredBelow";

/**
 * Whether staging the directory `start` of a root (`git add .`, `git add -A`, `git stash -u`) would copy a file the ignore file
 * excludes into git's objects, from where `git push`, `bundle` or `show` carry it on. git skips what its own
 * exclude files name, so they are honoured: the `.gitignore` of the root and of every directory below it,
 * and `.git/info/exclude` of the root. `forced` (`git add -f`, `git stash -a`) honours none of them.
 *
 * Exclude files above the root and the person's global one are not read: a file they exclude is taken as
 * staged, which can only make the command ask where git would have skipped the file, never the reverse.
 * Any result but `clean` makes the caller ask.
 */
export function stagedIgnored(
  root: { readonly root: string; readonly index: number },
  start: string,
  ignoreRules: IgnoreRules,
  forced: boolean,
): BelowResult {
  if (!ignoreRules.hasRules(root.index)) return { kind: "clean" };
  try {
    if (!statSync(nodePath.join(root.root, start)).isDirectory()) return { kind: "clean" };
  } catch {
    return { kind: "clean" };
  }
  const excludes = forced ? undefined : new GitExcludes(root.root);
  // git reads the exclude files of the directories above the one staged, too: one of them may exclude it.
  if (excludes && start !== "") {
    const parts = start.split("/");
    for (let i = 1; i <= parts.length; i++)
      if (excludes.excluded(parts.slice(0, i).join("/"), true)) return { kind: "clean" };
  }
  return walkBelow(root.root, start, (child, e) => {
    // git never stages a repository's own directory; what it skips as excluded is not looked into.
    if (e.name === ".git") return "next";
    const isDir = e.isDirectory();
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

  constructor(private readonly root: string) {
    this.info = rules(nodePath.join(root, ".git", "info", "exclude"));
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
      ig = rules(nodePath.join(this.root, dir, ".gitignore"));
      this.perDir.set(dir, ig);
    }
    return ig;
  }
}

/** An exclude file's rules; null when it is missing or unreadable (nothing excluded by it). */
function rules(file: string): Ignore | null {
  try {
    return ignore().add(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}
