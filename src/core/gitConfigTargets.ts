import { lstatSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * Places a workspace repository's own configuration makes as powerful as `.git/hooks` or `.git/config`: the
 * hooks directory git really uses (`core.hooksPath`, however it is spelt or wherever it is set), every file git
 * reads as configuration (`include.path`, `includeIf.*.path`, the common directory's `config` of a linked
 * worktree), and the common directory's hooks. Writes to them are protected like the fixed patterns.
 *
 * The core does not run processes: the gate is handed a `GitConfigSource` (the agent layer's reader asks git
 * itself, `src/agent/git/gitConfigReader.ts`). Without one, a root inside a repository counts as unknown, so
 * every write in it asks (fail closed).
 */

/** What one root's repository configuration makes protected. */
export type RepoConfigTargets =
  /** The root is in no repository: its configuration names nothing. */
  | { readonly kind: "none" }
  /** Absolute paths (directories or files): a write to one of them, or below one, is protected. */
  | { readonly kind: "known"; readonly targets: readonly string[] }
  /** The configuration could not be read (no git, dubious ownership, a timeout): every write in the root asks. */
  | { readonly kind: "unknown"; readonly reason: string };

export interface GitConfigSource {
  /**
   * The targets of each root (same order). Called at most once per decision with all roots; must be cheap
   * when nothing changed (a cache validated by the stat of the files git named), never one git run per call.
   */
  targets(roots: readonly string[]): readonly RepoConfigTargets[];
}

/** Whether absolute `path` is one of `targets` or inside one. */
export function withinTargets(path: string, targets: readonly string[]): boolean {
  return targets.some((t) => path === t || path.startsWith(t.endsWith(nodePath.sep) ? t : t + nodePath.sep));
}

/** Whether `dir` or one of its ancestors holds a `.git` entry (a repository git would find from `dir`). */
export function insideRepository(dir: string): boolean {
  for (let d = nodePath.resolve(dir); ; d = nodePath.dirname(d)) {
    if (lstatSync(nodePath.join(d, ".git"), { throwIfNoEntry: false })) return true;
    if (nodePath.dirname(d) === d) return false;
  }
}

/** The source a gate uses when it is given none: no way to ask git, so a root in a repository is unknown. */
export const noGitConfigSource: GitConfigSource = {
  targets: (roots) =>
    roots.map((r) =>
      insideRepository(r)
        ? { kind: "unknown", reason: "no git configuration reader was given to the gate" }
        : { kind: "none" },
    ),
};
