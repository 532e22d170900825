import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import * as nodePath from "node:path";

/**
 * Places a workspace repository's own configuration makes as powerful as `.git/hooks` or `.git/config`:
 * the directory `core.hooksPath` names (`scripts/hooks`: git runs what is there on commit) and the files
 * `include.path` / `includeIf.*.path` pull in (a setting written there is a setting in `.git/config`).
 * Writes to them are protected like the fixed patterns. Read from each root's git directory at decision time,
 * cached by the configuration files' size and modification time.
 */

interface Cached {
  readonly key: string;
  readonly targets: readonly string[];
}

const cache = new Map<string, Cached>();

/** Absolute paths (directories or files) the repository of `root` configures as hooks or included config. */
export function configuredTargets(root: string): readonly string[] {
  const gitDir = gitDirOf(root);
  if (!gitDir) return [];
  const files = [nodePath.join(gitDir, "config"), nodePath.join(gitDir, "config.worktree")];
  const key = files.map(stamp).join("|");
  const hit = cache.get(root);
  if (hit && hit.key === key) return hit.targets;
  const targets: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const { section, name, value } of entries(text)) {
      if (section === "core" && name === "hookspath") targets.push(resolveValue(value, root));
      else if ((section === "include" || section.startsWith("includeif")) && name === "path")
        targets.push(resolveValue(value, nodePath.dirname(file)));
    }
  }
  if (cache.size > 64) cache.clear();
  cache.set(root, { key, targets });
  return targets;
}

/** Whether absolute `path` is one of `targets` or inside one. */
export function withinTargets(path: string, targets: readonly string[]): boolean {
  return targets.some((t) => path === t || path.startsWith(t.endsWith(nodePath.sep) ? t : t + nodePath.sep));
}

function stamp(file: string): string {
  try {
    const s = statSync(file, { throwIfNoEntry: false });
    return s ? `${s.size}:${s.mtimeMs}` : "-";
  } catch {
    return "?";
  }
}

/** The root's git directory: `.git` itself, or the one a `.git` file names (`gitdir: …`, worktrees). */
function gitDirOf(root: string): string | undefined {
  const dotGit = nodePath.join(root, ".git");
  try {
    const s = statSync(dotGit, { throwIfNoEntry: false });
    if (!s) return undefined;
    if (s.isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
    return m?.[1] ? nodePath.resolve(root, m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** `~/x` is the home directory's; a relative value is relative to `base`. */
function resolveValue(value: string, base: string): string {
  if (value === "~" || value.startsWith("~/")) return nodePath.join(homedir(), value.slice(1));
  return nodePath.resolve(base, value);
}

/**
 * `section`, lower-cased name and value of each `name = value` line in git's config syntax. Subsections
 * (`[includeIf "gitdir:x"]`) are folded into the section name; quotes and backslash escapes in values are
 * removed; comments after `#` or `;` outside quotes end the value.
 */
function* entries(text: string): Generator<{ section: string; name: string; value: string }> {
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\](.*)$/.exec(line);
    if (head) {
      section = head[1]!.toLowerCase();
      const rest = head[2]!.trim();
      if (rest === "" || rest.startsWith("#") || rest.startsWith(";")) continue;
      const inline = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(rest);
      if (inline) yield { section, name: inline[1]!.toLowerCase(), value: unquote(inline[2]!) };
      continue;
    }
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (m) yield { section, name: m[1]!.toLowerCase(), value: unquote(m[2]!) };
  }
}

function unquote(v: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '"') quoted = !quoted;
    else if (c === "\\" && i + 1 < v.length) out += v[++i];
    else if (!quoted && (c === "#" || c === ";")) break;
    else out += c;
  }
  return out.trim();
}
