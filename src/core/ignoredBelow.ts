import * as nodePath from "node:path";
import type { DirEntry, FsFacts } from "./fsFacts";
import type { IgnoreRules } from "./ignoreFile";
import type { ResolvedPath } from "./paths";

/** Entries a recursive-read check looks at before it gives up (and the read asks). */
export const SCAN_LIMIT = 5_000;

export type BelowResult =
  | { readonly kind: "clean" }
  | { readonly kind: "ignored"; readonly relative: string }
  | { readonly kind: "link"; readonly relative: string }
  | { readonly kind: "too-many" };

/** A small id per ignore-rules object: a cached walk is only reused with the rules it was judged by. */
const ruleIds = new WeakMap<IgnoreRules, number>();
let nextRuleId = 0;
export function rulesId(ignore: IgnoreRules): number {
  let id = ruleIds.get(ignore);
  if (id === undefined) ruleIds.set(ignore, (id = nextRuleId++));
  return id;
}

/**
 * Files below a directory that its reader provably does not read (its options select files by name, see
 * readFilter.ts): `skipped` gets a path relative to the root. `key` names the selection, for the cache.
 */
export interface Skips {
  readonly key: string;
  skipped(relative: string): boolean;
}

/**
 * Whether a directory read recursively (`grep -r x dir`, `rg x dir`) would read a file the ignore file
 * excludes. With `skips`, an ignored file the reader leaves out does not count: the walk then goes into
 * ignored directories (everything below one is ignored) and judges each file in them; any other ignored
 * entry (a link, a device) still counts. Walks the real directory, stops at the first ignored entry, and gives up past SCAN_LIMIT entries.
 * A symlink below it is followed by some readers (`grep -R`): one to a file is checked by where it points; one
 * to a directory, or out of the workspace root, is reported as `link`. Any result but `clean` makes the caller
 * ask, never allow. The result is kept by `facts` while nothing in the tree changes, unless the walk followed
 * a link (where it leads can change where no watcher looks).
 */
export function ignoredBelow(
  dir: ResolvedPath,
  ignore: IgnoreRules,
  facts: FsFacts,
  followsLinks = true,
  skips?: Skips,
): BelowResult {
  const root = dir.realRoot;
  if (!root || !ignore.hasRules(root.index)) return { kind: "clean" };
  if (facts.stat(dir.real) !== "dir") return { kind: "clean" };
  const start = root.relative === "" ? root.root : nodePath.join(root.root, root.relative);
  const key = `ignored\0${rulesId(ignore)}\0${followsLinks}${skips ? `\0${skips.key}` : ""}`;
  return facts.tree(start, key, () => {
    // The root's realpath, once per scan: links below it are compared with it.
    const realRoot = facts.realpath(root.root) ?? root.root;
    let followed = false;
    const ignoredDirs = new Set<string>();
    const value = walkBelow(root.root, root.relative, facts, (child, e) => {
      const slash = child.lastIndexOf("/");
      if ((slash > 0 && ignoredDirs.has(child.slice(0, slash))) || ignore.ignores(root.index, child)) {
        if (!skips) return { kind: "ignored", relative: child };
        if (e.kind === "dir") {
          ignoredDirs.add(child);
          return "descend";
        }
        return e.kind === "file" && skips.skipped(child) ? "next" : { kind: "ignored", relative: child };
      }
      if (e.kind === "dir") return "descend";
      // A reader that does not follow links below its root (`grep -r`, `rg`) reads nothing through them.
      if (e.kind === "link" && followsLinks) {
        followed = true;
        const target = linkTarget(nodePath.join(root.root, child), realRoot, facts);
        if (target === "elsewhere") return { kind: "link", relative: child };
        if (target !== undefined && ignore.ignores(root.index, target)) return { kind: "ignored", relative: child };
      }
      return "next";
    });
    return { value, cacheable: !followed };
  });
}

/**
 * Walks the real directory `start` (relative to `rootDir`) depth first, listing through `facts`. `visit` sees
 * each entry once and says whether to look inside it, go on, or stop with a result; past SCAN_LIMIT entries the
 * walk stops with `too-many`. An unreadable directory is passed over: no reader can read it either.
 */
export function walkBelow(
  rootDir: string,
  start: string,
  facts: FsFacts,
  visit: (child: string, entry: DirEntry) => BelowResult | "descend" | "next",
): BelowResult {
  const stack: string[] = [start];
  let seen = 0;
  while (stack.length > 0) {
    const rel = stack.pop()!;
    const entries = facts.list(rel === "" ? rootDir : nodePath.join(rootDir, rel));
    if (entries === undefined) continue;
    for (const e of entries) {
      if (++seen > SCAN_LIMIT) return { kind: "too-many" };
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      const next = visit(child, e);
      if (next === "descend") stack.push(child);
      else if (next !== "next") return next;
    }
  }
  return { kind: "clean" };
}

/** Where a link below a root leads: a file inside the root (its relative path), "elsewhere", or undefined if dangling. */
function linkTarget(full: string, realRoot: string, facts: FsFacts): string | "elsewhere" | undefined {
  const real = facts.realpath(full);
  if (real === undefined) return undefined;
  const kind = facts.stat(real);
  if (kind === "dir") return "elsewhere";
  if (kind === "missing") return undefined;
  const rel = nodePath.relative(realRoot, real);
  if (rel === "" || rel.startsWith("..") || nodePath.isAbsolute(rel)) return "elsewhere";
  return rel.split(nodePath.sep).join("/");
}
