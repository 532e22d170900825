import { readdirSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import type { IgnoreRules } from "./ignoreFile";
import type { ResolvedPath } from "./paths";

/** Entries a recursive-read check looks at before it gives up (and the read asks). */
export const SCAN_LIMIT = 5_000;

export type BelowResult = { readonly kind: "clean" } | { readonly kind: "ignored"; readonly relative: string } | { readonly kind: "too-many" };

/**
 * Whether a directory read recursively (`grep -r x dir`, `rg x dir`) would read a file the ignore file
 * excludes. Walks the real directory (without following links below it, as `grep -r` does not; a link is
 * reported as ignored-or-not by its own name), stops at the first ignored entry, and gives up past
 * SCAN_LIMIT entries — the caller then asks, never allows. Results are cached per directory by the caller.
 */
export function ignoredBelow(dir: ResolvedPath, ignore: IgnoreRules): BelowResult {
  const root = dir.realRoot;
  if (!root || !ignore.hasRules(root.index)) return { kind: "clean" };
  let isDir = false;
  try {
    isDir = statSync(dir.real).isDirectory();
  } catch {
    return { kind: "clean" };
  }
  if (!isDir) return { kind: "clean" };
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
    }
  }
  return { kind: "clean" };
}
