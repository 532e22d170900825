import { chmodSync, existsSync, mkdirSync, realpathSync } from "node:fs";
import * as nodePath from "node:path";
import { isWithin } from "../../core/sandbox/sandboxPolicy";
import { packageCacheDirs, packageCacheRoot } from "../../core/sandbox/packageCaches";

/** Toolchain folders bound read-only into the empty home when they exist (DESIGN, OS sandbox). */
const TOOLCHAIN_DIRS = [".nvm", ".pyenv", ".cargo", ".rustup", ".local", ".bun", ".deno", "go"];
/** So `git commit` finds the person's name, e-mail and settings (credential helpers' stores stay hidden). */
const GIT_CONFIG = [".gitconfig", ".config/git"];

function real(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** Keeps the outermost of nested paths (a bind of `~/.pyenv` already shows `~/.pyenv/shims`). */
function outermost(paths: Iterable<string>): string[] {
  const sorted = [...new Set(paths)].sort((a, b) => a.length - b.length || a.localeCompare(b));
  const out: string[] = [];
  for (const p of sorted) if (!out.some((o) => isWithin(p, o))) out.push(p);
  return out.sort();
}

/**
 * What of the home a sandboxed command sees (read-only): the parent of every PATH entry under the home (the
 * entry itself when its parent is the home: never the whole home), the fixed toolchain folders, the git
 * configuration and the runner's own interpreter folder. Real paths strictly below the real home; a link
 * leading out of the home is not followed into it (the root shows its target read-only anyway).
 */
export function toolchainRoots(home: string, pathVar: string | undefined, execPath: string): string[] {
  const realHome = real(home);
  if (realHome === undefined) return [];
  const below = (p: string | undefined): p is string => p !== undefined && p !== realHome && isWithin(p, realHome);
  const found: string[] = [];
  for (const entry of (pathVar ?? "").split(":")) {
    if (!nodePath.isAbsolute(entry)) continue;
    const r = real(entry);
    if (!below(r)) continue;
    const parent = nodePath.dirname(r);
    found.push(below(parent) ? parent : r);
  }
  for (const rel of [...TOOLCHAIN_DIRS, ...GIT_CONFIG]) {
    const r = real(nodePath.join(home, rel));
    if (below(r)) found.push(r);
  }
  const interp = real(nodePath.dirname(execPath));
  if (below(interp)) found.push(interp);
  return outermost(found);
}

/** Other users' homes: `/home` (and `/Users` on macOS) when they exist. */
export function otherHomesDirs(): string[] {
  return ["/home", "/Users"].filter((d) => existsSync(d)).map((d) => real(d) ?? d);
}

/** Toolgate's package-cache root, created (0700) with a folder per manager. Throws when it cannot be made. */
export function ensurePackageCaches(home: string, xdgCacheHome: string | undefined): string {
  const root = packageCacheRoot(home, xdgCacheHome);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
  for (const d of packageCacheDirs(root)) mkdirSync(d, { recursive: true, mode: 0o700 });
  return realpathSync.native(root);
}
