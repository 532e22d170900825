import { readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import type { PathVerdict } from "./commands/types";
import type { FsFacts } from "./fsFacts";
import type { IgnoreRules } from "./ignoreFile";
import type { ResolvedPath } from "./paths";

/**
 * File-system questions about git repositories inside a workspace root, asked at decision time like the
 * path gate's own (the executor runs the command right after).
 *
 * - `foreignRepository`: git, started in a directory, finds its repository by walking up: at each level a
 *   `.git` entry, or the directory itself when it has the shape of a git directory (`HEAD` with `objects`,
 *   `refs` or `commondir`). A repository other than the root's own top-level `.git` has a configuration the
 *   agent may have written (`core.fsmonitor` runs a program on `git status`).
 * - `trackedIgnored`: whether the repository's index lists a path the ignore file excludes, so that
 *   `git show`, `log -p` or `grep` would print it from git's objects. Decided from the index only (the
 *   current tree): a file removed from the index but still in older commits is not seen.
 */

/** Unreadable counts as present (`other`): assume something is there (fail closed). */
const exists = (facts: FsFacts, path: string): boolean => facts.stat(path) !== "missing";

function looksLikeGitDir(dir: string, facts: FsFacts): boolean {
  if (!exists(facts, nodePath.join(dir, "HEAD"))) return false;
  return ["objects", "refs", "commondir"].some((n) => exists(facts, nodePath.join(dir, n)));
}

/**
 * The repository git would use when started in `dir` (a real path inside the real `root`), when it is not
 * the root's own `.git`: its path, or undefined. A root without `.git` lets git look above the root, where
 * the agent cannot write.
 */
export function foreignRepository(dir: string, root: string, facts: FsFacts): string | undefined {
  let d = dir;
  for (;;) {
    const dotGit = nodePath.join(d, ".git");
    if (d === root) {
      if (exists(facts, dotGit)) return undefined;
      return looksLikeGitDir(d, facts) ? d : undefined;
    }
    if (exists(facts, dotGit)) return dotGit;
    if (looksLikeGitDir(d, facts)) return d;
    const up = nodePath.dirname(d);
    if (up === d || !d.startsWith(root)) return dir; // not inside the root after all: fail closed
    d = up;
  }
}

interface IndexPaths {
  readonly key: string;
  /** Paths relative to the repository's top, or a reason the index could not be read. */
  readonly paths: readonly string[] | { readonly problem: string };
}

const indexCache = new Map<string, IndexPaths>();
const resultCache = new WeakMap<IgnoreRules, Map<string, string | null>>();

/** The git directory and top of the repository that contains `dir`, if any. */
function findRepository(dir: string, facts: FsFacts): { gitDir: string; top: string } | undefined {
  let d = dir;
  for (;;) {
    const dotGit = nodePath.join(d, ".git");
    const st = facts.stat(dotGit);
    if (st === "dir") return { gitDir: dotGit, top: d };
    if (st === "file") {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
      if (m) return { gitDir: nodePath.resolve(d, m[1]!), top: d };
    }
    const up = nodePath.dirname(d);
    if (up === d) return undefined;
    d = up;
  }
}

/** Entry paths of a git index (versions 2–4). */
export function indexPaths(buf: Buffer): readonly string[] | { readonly problem: string } {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return { problem: "the git index is not readable" };
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return { problem: `git index version ${version} is not one Toolgate reads` };
  const count = buf.readUInt32BE(8);
  const paths: string[] = [];
  let at = 12;
  let previous = "";
  for (let n = 0; n < count; n++) {
    if (at + 62 > buf.length) return { problem: "the git index is truncated" };
    const flags = buf.readUInt16BE(at + 60);
    let p = at + 62 + (version >= 3 && flags & 0x4000 ? 2 : 0);
    let path: string;
    if (version === 4) {
      let c = buf[p++] ?? 0;
      let strip = c & 127;
      while (c & 128) {
        c = buf[p++] ?? 0;
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const end = buf.indexOf(0, p);
      if (end < 0 || strip > previous.length) return { problem: "the git index is truncated" };
      path = previous.slice(0, previous.length - strip) + buf.toString("utf8", p, end);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, p);
      if (end < 0) return { problem: "the git index is truncated" };
      path = buf.toString("utf8", p, end);
      // Entries are padded with NULs to a multiple of 8 bytes.
      at += (end - at + 8) & ~7;
    }
    paths.push(path);
    previous = path;
  }
  // Extensions: a split index keeps entries in another file this reader does not follow.
  while (at + 8 <= buf.length - 20) {
    const sig = buf.toString("latin1", at, at + 4);
    if (sig === "link") return { problem: "the git index is split" };
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return paths;
}

/**
 * A path of the repository containing `dir` that the index tracks and the ignore file of root
 * `rootIndex` (real path `root`) excludes, root-relative; or a reason the index could not be checked; or
 * undefined when there is none.
 */
export function trackedIgnored(
  dir: string,
  root: string,
  rootIndex: number,
  ignore: IgnoreRules,
  facts: FsFacts,
): string | undefined {
  if (!ignore.hasRules(rootIndex)) return undefined;
  const repo = findRepository(dir, facts);
  if (!repo) return undefined;
  const indexFile = nodePath.join(repo.gitDir, "index");
  let st;
  try {
    st = statSync(indexFile, { throwIfNoEntry: false });
  } catch {
    return "the git index (it cannot be read)";
  }
  if (!st) return undefined; // nothing tracked yet
  const key = `${indexFile}\0${st.mtimeMs}\0${st.size}\0${st.ino}`;
  let byKey = resultCache.get(ignore);
  if (!byKey) resultCache.set(ignore, (byKey = new Map()));
  const cached = byKey.get(`${key}\0${rootIndex}`);
  if (cached !== undefined) return cached ?? undefined;

  let entry = indexCache.get(indexFile);
  if (!entry || entry.key !== key) {
    let paths: IndexPaths["paths"];
    try {
      paths = indexPaths(readFileSync(indexFile));
    } catch {
      paths = { problem: "the git index cannot be read" };
    }
    entry = { key, paths };
    if (indexCache.size > 64) indexCache.clear();
    indexCache.set(indexFile, entry);
  }
  let found: string | undefined;
  if ("problem" in entry.paths) found = entry.paths.problem;
  else {
    // Repository paths as root-relative paths (the repository may sit above or below the root).
    const topRel = nodePath.relative(root, repo.top).split(nodePath.sep).join("/");
    const above = topRel.startsWith("..");
    const rootFromTop = above ? nodePath.relative(repo.top, root).split(nodePath.sep).join("/") + "/" : "";
    for (const p of entry.paths) {
      let rel: string;
      if (above) {
        if (!p.startsWith(rootFromTop)) continue;
        rel = p.slice(rootFromTop.length);
      } else rel = topRel === "" ? p : `${topRel}/${p}`;
      if (ignore.ignores(rootIndex, rel)) {
        found = rel;
        break;
      }
    }
  }
  if (byKey.size > 256) byKey.clear();
  byKey.set(`${key}\0${rootIndex}`, found ?? null);
  return found;
}

/** The path gate's answer for git's two kinds of reads (see catalogue/effects.ts). */
export function gitCheck(
  p: ResolvedPath,
  path: string,
  kind: "git-repository" | "git-history",
  ignore: IgnoreRules,
  facts: FsFacts,
): PathVerdict {
  const root = p.realRoot;
  if (!root) {
    if (kind === "git-history") return { ok: true };
    return {
      ok: false,
      reason: `git runs in \`${path}\`, outside the workspace, and reads the configuration of the repository there`,
      rule: "git:other-repository",
    };
  }
  const dir = root.relative === "" ? root.root : nodePath.join(root.root, root.relative);
  if (kind === "git-repository") {
    const other = foreignRepository(dir, root.root, facts);
    if (other === undefined) return { ok: true };
    const shown = nodePath.relative(root.root, other) || ".";
    return {
      ok: false,
      reason: `git run in \`${path}\` uses the repository at \`${shown}\`, not the workspace's own; its configuration can run programs`,
      rule: "git:other-repository",
    };
  }
  const tracked = trackedIgnored(dir, root.root, root.index, ignore, facts);
  if (tracked === undefined) return { ok: true };
  return {
    ok: false,
    reason: `git prints file contents from its history, and the repository tracks \`${tracked}\`, which ${ignore.fileName} excludes`,
    rule: `ignoreFile: ${ignore.fileName}`,
  };
}
