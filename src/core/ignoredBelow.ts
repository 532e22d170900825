import { readdirSync, realpathSync, statSync } from "node:fs";
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
  const stack: string[] = [root.relative];
  let seen = 0;
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let entries;
    try {
      entries = readdirSync(nodePath.join(root.root, rel), { withFileTypes: true });
    } catch {
      continue; // unreadable: grep cannot read it either
    }
    for (const e of entries) {
      if (++seen > SCAN_LIMIT) return { kind: "too-many" };
      const child = rel === "" ? e.name : `${rel}/${e.name}`;
      if (ignore.ignores(root.index, child)) return { kind: "ignored", relative: child };
      if (e.isDirectory()) stack.push(child);
      // A reader that does not follow links below its root (`grep -r`, `rg`) reads nothing through them.
      else if (e.isSymbolicLink() && followsLinks) {
        const target = linkTarget(nodePath.join(root.root, child), realRoot);
        if (target === undefined) continue; // dangling: nothing to read
        if (target === "elsewhere") return { kind: "link", relative: child };
        if (ignore.ignores(root.index, target)) return { kind: "ignored", relative: child };
      }
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
