import { readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import type { Mode } from "../types";
import { grantOf, type SandboxGrant } from "./grant";
import { grantHosts, hostsNamed, needsFacts, type LineHostFacts } from "./namedHosts";

/**
 * The grant a decided command line carries (DESIGN, "The sandbox enforces the verdict"):
 *
 * | the call                                                   | grant             |
 * |------------------------------------------------------------|-------------------|
 * | the analysis judged it safe AND read-only (any mode)       | `read-only`       |
 * | anything in plan mode, clicked or not                      | `read-only`       |
 * | every other line that runs (auto-approved or clicked)      | `workspace-write` |
 *
 * Hosts: the hosts the line names intersected with `toolgate.sandbox.network` (`allowList`); none otherwise.
 * The analysis only ever narrows the grant (a wrong "safe, read-only" yields the tighter grant), never widens it.
 */
export interface GrantInput {
  readonly mode: Mode;
  readonly line: string;
  /** Absent: the line was not analysed (treated as not read-only). */
  readonly analysis?: { readonly verdict: string; readonly readOnly: boolean };
  readonly roots: readonly string[];
  /** `toolgate.sandbox.network`'s hosts; empty when it is "off" or malformed. */
  readonly allowList: readonly string[];
}

export function commandGrant(
  g: GrantInput,
  facts: (roots: readonly string[], need: ReturnType<typeof needsFacts>) => LineHostFacts = workspaceHostFacts,
): SandboxGrant {
  const readOnly = g.mode === "plan" || (g.analysis?.verdict === "safe" && g.analysis.readOnly);
  const kind = readOnly ? "read-only" : "workspace-write";
  if (g.allowList.length === 0) return grantOf(kind);
  const named = hostsNamed(g.line, facts(g.roots, needsFacts(g.line)));
  return grantOf(kind, grantHosts(named, g.allowList));
}

/** Files larger than this are not read for hosts (a configuration file is small; this is not one). */
const MAX_CONFIG_BYTES = 256 * 1024;

function readSmall(file: string): string | undefined {
  try {
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > MAX_CONFIG_BYTES) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** The root's git directory and, for a linked worktree, the common one (where `config` lives). */
function gitConfigFiles(root: string): string[] {
  const dotGit = nodePath.join(root, ".git");
  let gitDir: string | undefined;
  try {
    const st = statSync(dotGit, { throwIfNoEntry: false });
    if (st?.isDirectory()) gitDir = dotGit;
    else if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit) ?? "");
      if (m?.[1]) gitDir = nodePath.resolve(root, m[1]);
    }
  } catch {
    return [];
  }
  if (gitDir === undefined) return [];
  const common = readSmall(nodePath.join(gitDir, "commondir"))?.trim();
  const commonDir = common ? nodePath.resolve(gitDir, common) : gitDir;
  return [nodePath.join(commonDir, "config"), nodePath.join(gitDir, "config.worktree")];
}

/**
 * Remote URLs in a git config text, lexically: every `url`/`pushurl` value, and every `[url "BASE"]` section
 * name (an `insteadOf` rewrite can send a remote there). Over-approximates; the allow list bounds it.
 */
export function gitConfigRemoteUrls(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const section = /^\s*\[\s*url\s+"([^"]*)"\s*\]/i.exec(line);
    if (section?.[1]) out.push(section[1]);
    const kv = /^\s*(url|pushurl)\s*=\s*(.*?)\s*$/i.exec(line);
    if (kv?.[2]) out.push(kv[2].replace(/^"|"$/g, ""));
  }
  return out;
}

/** `registry=` and `@scope:registry=` values of an `.npmrc` text. */
export function npmrcRegistries(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:@[^:=\s]+:)?registry\s*=\s*(.*?)\s*$/i.exec(line);
    if (m?.[1]) out.push(m[1].replace(/^"|"$/g, ""));
  }
  return out;
}

/** What the roots configure, read only when the line could use it. */
export function workspaceHostFacts(roots: readonly string[], need: ReturnType<typeof needsFacts>): LineHostFacts {
  const gitRemotes: string[] = [];
  const npmRegistries: string[] = [];
  for (const root of roots) {
    if (need.git)
      for (const file of gitConfigFiles(root)) gitRemotes.push(...gitConfigRemoteUrls(readSmall(file) ?? ""));
    if (need.npmrc) npmRegistries.push(...npmrcRegistries(readSmall(nodePath.join(root, ".npmrc")) ?? ""));
  }
  return { gitRemotes, npmRegistries };
}
