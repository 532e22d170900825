/**
 * Path helpers shared by the file tools: resolution that matches the gate's (so the file the gate approved
 * is the file touched), and ignore-file filtering of listed or searched entries.
 */
import * as nodePath from "node:path";
import { homedir } from "node:os";
import type { IgnoreRules } from "../../core/ignoreFile";

export function resolveLike(gateBase: string, input: string): string {
  let p = input;
  if (p === "~" || p.startsWith("~/")) p = homedir() + p.slice(1);
  return nodePath.resolve(gateBase, p);
}

/** Directories no listing or search walks into. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

export class IgnoreFilter {
  constructor(
    private readonly roots: readonly string[],
    private readonly rules: IgnoreRules,
  ) {}

  /** Whether an absolute path is excluded by its root's ignore file. Paths outside every root are not. */
  ignored(abs: string, isDir = false): boolean {
    for (let i = 0; i < this.roots.length; i++) {
      const rel = nodePath.relative(this.roots[i]!, abs);
      if (rel === "" || rel === ".." || rel.startsWith(".." + nodePath.sep) || nodePath.isAbsolute(rel)) continue;
      const posix = rel.split(nodePath.sep).join("/");
      return this.rules.ignores(i, isDir ? posix + "/" : posix) || this.rules.ignores(i, posix);
    }
    return false;
  }
}

export function isBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8000);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export function relativeForDisplay(roots: readonly string[], abs: string): string {
  for (const r of roots) {
    const rel = nodePath.relative(r, abs);
    if (rel !== ".." && !rel.startsWith(".." + nodePath.sep) && !nodePath.isAbsolute(rel))
      return rel === "" ? "." : rel.split(nodePath.sep).join("/");
  }
  return abs;
}
