import { readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import * as nodePath from "node:path";
import type { IgnoreRules } from "./ignoreFile";
import type { ResolvedPath } from "./paths";

/** Entries a recursive-read check looks at before it gives up (and the read asks). */
export const SCAN_LIMIT = 5_000;

export type BelowResult =
  | { readonly kind: "clean" }
  | { readonly kind: "ignored"; readonly relative: string }
  | { readonly kind: "link"; readonly relative: string }
  | { readonly kind: "too-many" };

/**
 * Whether a directory read recursively (`grep -r x dir`, `rg x dir`) would read a file the ignore file
 * excludes. Walks the real directory, stops at the first ignored entry, and gives up past SCAN_LIMIT entries.
 * A symlink below it is followed by some readers (`grep -R`): one to a file is checked by where it points; one
 * to a directory, or out of the workspace root, is reported as `link`. Any result but `clean` makes the caller
 * ask, never allow. Results are cached per directory by the caller.
 */
export function ignoredBelow(dir: ResolvedPath, ignore: IgnoreRules, followsLinks = true): BelowResult {
  const root = dir.realRoot;
  if (!root || !ignore.hasRules(root.index)) return { kind: "clean" };
  let isDir = false;
  try {
    isDir = statSync(dir.real).isDirectory();
  } catch {
    return { kind: "clean" };
  }
  if (!isDir) return { kind: "clean" };
  // The root's realpath, once per scan: links below it are compared with it.
  let realRoot = root.root;
  try {
    realRoot = realpathSync(root.root);
  } catch {
    /* keep the root as given */
  }
  return walkBelow(root.root, root.relative, (child, e) => {
    if (ignore.ignores(root.index, child)) return { kind: "ignored", relative: child };
    if (e.isDirectory()) return "descend";
    // A reader that does not follow links below its root (`grep -r`, `rg`) reads nothing through them.
    if (e.isSymbolicLink() && followsLinks) {
      const target = linkTarget(nodePath.join(root.root, child), realRoot);
      if (target === "elsewhere") return { kind: "link", relative: child };
      if (target !== undefined && ignore.ignores(root.index, target)) return { kind: "ignored", relative: child };
    }
    return "next";
  });
}

/**
 * Walks the real directory `start` (relative to `rootDir`) depth first. `visit` sees each entry once and says
 * whether to look inside it, go on, or stop with a result; past SCAN_LIMIT entries the walk stops with
 * `too-many`. An unreadable directory is passed over: no reader can read it either.
 */
export function walkBelow(
  rootDir: string,
  start: string,
  visit: (child: string, entry: Dirent) => BelowResult | "descend" | "next",
): BelowResult {
  const stack: string[] = [start];
  let seen = 0;
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(nodePath.join(rootDir, rel), { withFileTypes: true });
    } catch {
      continue;
    }
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
function linkTarget(full: string, realRoot: string): string | "elsewhere" | undefined {
  let real: string;
  try {
    real = realpathSync(full);
    if (statSync(real).isDirectory()) return "elsewhere";
  } catch {
    return undefined;
  }
  const rel = nodePath.relative(realRoot, real);
  if (rel === "" || rel.startsWith("..") || nodePath.isAbsolute(rel)) return "elsewhere";
  return rel.split(nodePath.sep).join("/");
}
