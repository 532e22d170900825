import * as nodePath from "node:path";
import { FsFacts } from "./fsFacts";
import { Minimatch } from "minimatch";
import { GLOB_PREFILTER_FLAGS, globPrefilterSource } from "./globPrefilter";
import type { ResolvedPath } from "./paths";
import { noGitConfigSource, withinTargets, type GitConfigSource, type RepoConfigTargets } from "./gitConfigTargets";
import { windowsSpelling } from "./windowsNames";

/**
 * THE definition of protected paths: writes to them always ask, whatever the switches say (DESIGN step 3), the
 * sandbox binds the existing ones read-only (`agent/sandbox/workspaceScan.ts`), and the after-run compare
 * reports the ones a command created or changed (`agent/sandbox/protectedSnapshot.ts`). They configure the
 * editor, the gate itself, git hooks, CI and other agents — places where one silent write turns into code
 * execution or a looser gate later. Three kinds:
 * - fixed patterns, matched case-insensitively (macOS and Windows file systems are), at any depth, on both the
 *   lexical and the real path, and on the name a Windows spelling reaches;
 * - any git directory whatever its name (a folder holding `HEAD` and `objects/` + `refs/`, or `commondir` for a
 *   linked worktree's): its `config`, `config.worktree`, `hooks/`, `info/` and `commondir`;
 * - what each root's repository configuration names (`GitConfigSource`): the hooks directory git really uses
 *   and every included configuration file; a root whose configuration could not be read protects every write
 *   in it (fail closed).
 */

export interface ProtectedHit {
  /** The pattern or class, for the decision's rule (`protected: …`). */
  readonly rule: string;
  /** What it is, in words for the person ("a git hook", "another agent's configuration (.claude)"). */
  readonly what: string;
}

interface Pattern {
  readonly glob: string;
  readonly what: string;
}

const p = (what: string, ...globs: string[]): Pattern[] => globs.map((glob) => ({ glob, what }));

const EDITOR = "editor configuration (.vscode)";
const CI = "a CI configuration";
const DEVCONTAINER = "a dev container configuration";
const MCP = "an MCP configuration";
const HOOK_CONFIG = "git hook configuration";

/** Other agents read these as their settings, hooks, rules or MCP servers: a write there reconfigures them. */
export const AGENT_CONFIG_DIRS = [".claude", ".gemini", ".cursor", ".codex", ".continue", ".clinerules", ".roo"];

const IN_WORKSPACE: readonly Pattern[] = [
  // The directories themselves too: `mv x/.vscode .vscode`, `ln -s x .husky`, `mkdir .vscode` replace or
  // create what is inside them in one write.
  ...p(EDITOR, "**/.vscode", "**/.vscode/*.json", "**/.vscode/*.code-workspace"),
  ...p("editor configuration (a workspace file)", "**/*.code-workspace"),
  ...p("a CI workflow", "**/.github/workflows", "**/.github/workflows/**"),
  ...p("a git hook (husky)", "**/.husky", "**/.husky/**"),
  ...p(DEVCONTAINER, "**/.devcontainer", "**/.devcontainer/**", "**/.devcontainer.json"),
  ...p(MCP, "**/mcp.json", "**/mcp_settings.json", "**/cline_mcp_settings.json"),
  ...p("git metadata", "**/.git", "**/.git/**"),
  ...p("git submodule configuration", "**/.gitmodules"),
  // Hook managers run what these name on `git commit`; a dev container's `initializeCommand` runs on the host
  // when the folder is reopened in it; CI systems run theirs with the repository's secrets.
  ...p(HOOK_CONFIG, "**/.pre-commit-config.yaml", "**/lefthook.yml", "**/.lefthook.yml", "**/lefthook-local.yml"),
  ...p(
    CI,
    "**/.circleci",
    "**/.circleci/**",
    "**/.buildkite",
    "**/.buildkite/**",
    "**/.gitlab-ci.yml",
    "**/.travis.yml",
    "**/azure-pipelines.yml",
    "**/bitbucket-pipelines.yml",
    "**/Jenkinsfile",
  ),
];

/** Anywhere, inside the workspace or not: editor and agent settings, the shell's start-up files. */
const ANYWHERE: readonly Pattern[] = [
  ...p("editor user settings", "**/User/settings.json", "**/User/mcp.json", "**/Machine/settings.json"),
  ...p(MCP, "**/.mcp.json"),
  // Project and user level alike (`~/.claude/settings.json` holds the hooks Toolgate installs).
  ...AGENT_CONFIG_DIRS.flatMap((d) => p(`another agent's configuration (${d})`, `**/${d}`, `**/${d}/**`)),
  ...p(
    "a shell start-up file",
    "**/.bashrc",
    "**/.bash_profile",
    "**/.profile",
    "**/.zshrc",
    "**/.zprofile",
    "**/.zshenv",
    "**/.config/fish",
    "**/.config/fish/**",
  ),
  ...p("SSH configuration", "**/.ssh", "**/.ssh/**"),
  ...p("the git configuration", "**/.gitconfig", "**/.config/git", "**/.config/git/**"),
  // Toolgate's own per-user state at its default places: the hook wrappers agents run, the hooks' taint state,
  // the compiled code the CLI runs and the remembered sandbox probe (not its package caches, which builds write).
  ...p(
    "Toolgate's own state",
    "**/.local/share/toolgate",
    "**/.local/share/toolgate/**",
    "**/.local/state/toolgate",
    "**/.local/state/toolgate/**",
    "**/.cache/toolgate/code-cache",
    "**/.cache/toolgate/code-cache/**",
    "**/.cache/toolgate/sandbox-probe.json",
  ),
];

/** Of a git directory, what git reads as configuration or runs (and `info/`, its exclude and attributes). */
export const GIT_DIR_PARTS = ["config", "config.worktree", "hooks", "info", "commondir"] as const;

/** A component of a path that may be a git directory's protected part (its parent is then checked on disk). */
const GIT_PART = /(?:^|[/\\])(config|config\.worktree|hooks|info|commondir)(?=[/\\]|$)/gi;

/**
 * Whether a directory holding these entries is a git directory, as git's own test has it: `HEAD`, and
 * `objects/` with `refs/`, or the `commondir` of a linked worktree's private directory.
 */
export function looksLikeGitDir(has: (name: string) => "file" | "dir" | undefined): boolean {
  if (has("HEAD") === undefined) return false;
  if (has("commondir") === "file") return true;
  return has("objects") === "dir" && has("refs") === "dir";
}

/** `what` for a part of a git directory (`rest` is the path below it). */
export function gitPartWhat(rest: string): string {
  const parts = rest.split(/[/\\]/).filter((s) => s !== "");
  if (parts.length === 0) return "a git directory";
  const first = parts[0]!.toLowerCase();
  if (first === "hooks") return parts.length > 1 ? "a git hook" : "the git hooks directory";
  if (first.startsWith("config") || first === "commondir") return "the git configuration";
  return "git metadata";
}

const CONFIGURED_HOOKS = "a git hook (a hooks directory the repository's configuration names)";
const CONFIGURED_RULE = "a git hooks directory or config file (core.hooksPath, include.path)";
const GIT_DIR_RULE = "a git directory's config or hooks (a folder holding HEAD, objects/ and refs/)";
const UNKNOWN_RULE = "git configuration that could not be read";

const opts = { dot: true, nocase: true } as const;

const prefilter = (patterns: readonly Pattern[]) =>
  new RegExp(patterns.map((x) => `(?:${globPrefilterSource(x.glob)})`).join("|"), GLOB_PREFILTER_FLAGS);

interface Compiled {
  readonly m: Minimatch;
  readonly hit: ProtectedHit;
}

const compile = (patterns: readonly Pattern[]): Compiled[] =>
  patterns.map((x) => ({ m: new Minimatch(x.glob, opts), hit: { rule: x.glob, what: x.what } }));

export class ProtectedPaths {
  /**
   * The patterns as matchers, compiled on the first path that passes the pre-filter (most decisions never
   * need them; a hook process that answers one read would otherwise compile every pattern to answer it).
   */
  private compiled: { readonly relative: readonly Compiled[]; readonly absolute: readonly Compiled[] } | undefined;
  private readonly relativePatterns: readonly Pattern[];
  /** Sound pre-filter: a path it rejects matches none of the patterns, so most writes skip minimatch. */
  private readonly mayMatch: RegExp;
  /** Every pattern starts with `**` + `/`: a relative spelling passes the pre-filter only where its absolute one does. */
  private readonly floating: boolean;
  /**
   * Pattern verdicts by the path's spellings (a pure function of them). The spellings come from each decision's
   * fresh resolution, so a path that became a link is looked up by its new realpath.
   */
  private readonly memo = new Map<string, ProtectedHit | null>();
  /** Within a decision (see `beginDecision`): each root's configured targets, and which directories are git's. */
  private readonly targets = new Map<number, RepoConfigTargets>();
  /**
   * Roots whose configuration, when last read, named something outside the root (an absolute or `../`
   * hooksPath, a linked worktree's common directory): their targets are looked at for every path. Any other
   * root's only for paths in it (and for paths outside every root), so a decision stats the files of the
   * roots it concerns, not of all of them. Filled by the first decision, which reads every root.
   */
  private reachingOut: Set<number> | undefined;
  private readonly gitDirs = new Map<string, boolean>();
  private inDecision = false;

  constructor(
    ignoreFileName: string,
    /** The roots whose repository configuration counts (every root's, for a path anywhere). */
    private readonly roots: readonly string[] = [],
    private readonly gitConfig: GitConfigSource = noGitConfigSource,
    /** Where `looksLikeGitDir` reads entry kinds (a gate shares its own; alone, one decision's worth). */
    private readonly facts: FsFacts = FsFacts.perDecision(),
  ) {
    const rel = [...IN_WORKSPACE, { glob: `**/${ignoreFileName}`, what: "Toolgate's ignore file" }];
    this.floating = [...rel, ...ANYWHERE].every((x) => x.glob.startsWith("**/"));
    this.relativePatterns = rel;
    this.mayMatch = prefilter([...rel, ...ANYWHERE]);
  }

  private matchers(): { readonly relative: readonly Compiled[]; readonly absolute: readonly Compiled[] } {
    this.compiled ??= { relative: compile(this.relativePatterns), absolute: compile(ANYWHERE) };
    return this.compiled;
  }

  /** The pattern or class a write to `p` hits, or undefined. */
  match(p: ResolvedPath): string | undefined {
    return this.hit(p)?.rule;
  }

  /** What a write to `p` hits, or undefined. */
  hit(p: ResolvedPath): ProtectedHit | undefined {
    return this.patternHit(p) ?? this.onDisk(p);
  }

  /**
   * The fixed patterns alone: a pure function of the spellings, which a walk may cache with a directory
   * listing. The classes that depend on the file system are the walk's to look at (`looksLikeGitDir`,
   * `configuredTargets`).
   */
  patternHit(p: ResolvedPath): ProtectedHit | undefined {
    const realRel = p.realRoot?.relative;
    const lexicalRel = p.lexicalRoot?.relative;
    // NUL is in no path, so the parts cannot run into each other; `u`/`d` tell an absent relative from "".
    const key = `${p.real}\0${p.lexical}\0${realRel ?? ""}\0${lexicalRel ?? ""}\0${realRel === undefined ? "u" : "d"}${lexicalRel === undefined ? "u" : "d"}`;
    let hit = this.memo.get(key);
    if (hit === undefined) {
      hit = this.matchUncached(p) ?? null;
      if (this.memo.size >= 20_000) this.memo.clear();
      this.memo.set(key, hit);
    }
    return hit ?? undefined;
  }

  /**
   * Starts a decision: the repositories' configuration and which directories are git directories are looked
   * at again at their first use (one decision sees one state of them, and a change is seen by the next
   * decision). A walk (the sandbox's scan, the after-run compare) calls it once before it starts.
   */
  beginDecision(): void {
    this.facts.beginDecision();
    this.inDecision = true;
    if (this.targets.size > 0) this.targets.clear();
    if (this.gitDirs.size > 0) this.gitDirs.clear();
  }

  /** Every root's configured targets as this decision sees them (a walk's view). */
  configuredTargets(): readonly RepoConfigTargets[] {
    return this.targetsOf(this.roots.map((_, i) => i));
  }

  /** The targets of the roots at `indices` (same order), read once per decision. */
  private targetsOf(indices: readonly number[]): readonly RepoConfigTargets[] {
    if (!this.inDecision) this.targets.clear();
    const missing = indices.filter((i) => !this.targets.has(i));
    if (missing.length > 0) {
      const read = this.gitConfig.targets(missing.map((i) => this.roots[i]!));
      missing.forEach((i, k) => {
        const t = read[k]!;
        this.targets.set(i, t);
        const root = this.roots[i]!;
        const out = t.kind === "known" && t.targets.some((x) => !withinTargets(x, [root]));
        this.reachingOut ??= new Set();
        if (out) this.reachingOut.add(i);
        else this.reachingOut.delete(i);
      });
    }
    return indices.map((i) => this.targets.get(i)!);
  }

  /** The roots whose configuration can protect `p`: its own, those reaching out, every root for an outside path. */
  private concerned(p: ResolvedPath): readonly number[] {
    if (this.reachingOut === undefined || (p.realRoot === undefined && p.lexicalRoot === undefined))
      return this.roots.map((_, i) => i);
    const out = new Set(this.reachingOut);
    if (p.realRoot) out.add(p.realRoot.index);
    if (p.lexicalRoot) out.add(p.lexicalRoot.index);
    return [...out];
  }

  /** Whether directory `dir` is a git directory (see `looksLikeGitDir`), once per decision. */
  isGitDir(dir: string): boolean {
    let v = this.inDecision ? this.gitDirs.get(dir) : undefined;
    if (v === undefined) {
      // Outside a decision every answer is fresh.
      if (!this.inDecision) this.facts.beginDecision();
      v = looksLikeGitDir((name) => kindOf(this.facts, nodePath.join(dir, name)));
      if (this.inDecision) this.gitDirs.set(dir, v);
    }
    return v;
  }

  /** The classes that depend on the file system (not memoised by spelling). */
  private onDisk(p: ResolvedPath): ProtectedHit | undefined {
    for (const abs of p.real === p.lexical ? [p.real] : [p.real, p.lexical]) {
      const inGitDir = this.gitDirPart(abs) ?? this.gitDirPart(windowsSpelling(abs));
      if (inGitDir) return inGitDir;
    }
    if (this.roots.length === 0) return undefined;
    const indices = this.concerned(p);
    const targets = this.targetsOf(indices);
    for (let k = 0; k < targets.length; k++) {
      const t = targets[k]!;
      const i = indices[k]!;
      if (t.kind === "known") {
        if (withinTargets(p.real, t.targets) || withinTargets(p.lexical, t.targets))
          return { rule: CONFIGURED_RULE, what: /hook/i.test(p.real) ? CONFIGURED_HOOKS : "the git configuration" };
      } else if (t.kind === "unknown" && (p.realRoot?.index === i || p.lexicalRoot?.index === i))
        return {
          rule: UNKNOWN_RULE,
          what: `a file in a repository whose git configuration could not be read (${t.reason}): it could be a hook`,
        };
    }
    return undefined;
  }

  /** A git directory's protected part that `abs` is or lies in, whatever the directory's name. */
  private gitDirPart(abs: string | undefined): ProtectedHit | undefined {
    if (abs === undefined) return undefined;
    GIT_PART.lastIndex = 0;
    for (let m = GIT_PART.exec(abs); m !== null; m = GIT_PART.exec(abs)) {
      const sep = m[0].startsWith("/") || m[0].startsWith("\\") ? 1 : 0;
      const dir = abs.slice(0, m.index) || nodePath.parse(abs).root;
      if (dir !== "" && this.isGitDir(dir)) return { rule: GIT_DIR_RULE, what: gitPartWhat(abs.slice(m.index + sep)) };
    }
    return undefined;
  }

  private matchUncached(p: ResolvedPath): ProtectedHit | undefined {
    const direct = this.matchSpelling(p);
    if (direct !== undefined) return direct;
    // The spellings Windows reads as another name (see windowsNames.ts) are matched as that name too.
    const spellings = [p.real, p.lexical, p.realRoot?.relative, p.lexicalRoot?.relative].map((s) =>
      s === undefined ? undefined : windowsSpelling(s),
    );
    if (spellings.every((s) => s === undefined)) return undefined;
    const [real, lexical, realRel, lexicalRel] = spellings;
    return this.matchSpelling({
      ...p,
      real: real ?? p.real,
      lexical: lexical ?? p.lexical,
      ...(p.realRoot ? { realRoot: { ...p.realRoot, relative: realRel ?? p.realRoot.relative } } : {}),
      ...(p.lexicalRoot ? { lexicalRoot: { ...p.lexicalRoot, relative: lexicalRel ?? p.lexicalRoot.relative } } : {}),
    });
  }

  private matchSpelling(p: ResolvedPath): ProtectedHit | undefined {
    const real = strip(p.real);
    const lexical = p.lexical === p.real ? real : strip(p.lexical);
    const maybe = (f: string | undefined) => f !== undefined && f !== "" && this.mayMatch.test(f);
    if (
      !maybe(real) &&
      (lexical === real || !maybe(lexical)) &&
      (this.floating || (!maybe(p.realRoot?.relative) && !maybe(p.lexicalRoot?.relative)))
    )
      return undefined;
    for (const rel of [p.realRoot?.relative, p.lexicalRoot?.relative]) {
      if (rel === undefined || rel === "") continue;
      const c = this.matchers().relative.find((x) => x.m.match(rel));
      if (c) return refine(c.hit, rel);
    }
    for (const posix of [real, lexical]) {
      const c = this.matchers().absolute.find((x) => x.m.match(posix));
      if (c) return c.hit;
    }
    return undefined;
  }
}

/** A `.git` hit says which part of git's directory it is. */
function refine(hit: ProtectedHit, rel: string): ProtectedHit {
  if (hit.rule !== "**/.git" && hit.rule !== "**/.git/**") return hit;
  const parts = rel.split("/");
  let i = parts.length - 1;
  while (i >= 0 && parts[i]!.toLowerCase() !== ".git") i--;
  return i < 0 ? hit : { rule: hit.rule, what: gitPartWhat(parts.slice(i + 1).join("/")) };
}

/** Describes an absolute protected path without a root (the after-run compare's entries below an added one). */
export function describeProtected(abs: string): string {
  const posix = strip(abs);
  describeAll ??= compile([...IN_WORKSPACE, ...ANYWHERE]);
  for (const c of describeAll) if (c.m.match(posix)) return refine(c.hit, posix).what;
  return "a protected file";
}

/** Compiled on first use (the sandbox's after-run compare): nothing else needs it. */
let describeAll: readonly Compiled[] | undefined;

/** What `abs` leads to for `looksLikeGitDir`: a dangling link still counts as an entry (a file). */
function kindOf(facts: FsFacts, abs: string): "file" | "dir" | undefined {
  const k = facts.stat(abs);
  return k === "dir" ? "dir" : k === "missing" ? undefined : "file";
}

/** An absolute path as the patterns see it: `/`-separated, without its root (`/`, `C:\\`). */
function strip(abs: string): string {
  return (abs.includes("\\") ? abs.replace(/\\/g, "/") : abs).replace(/^([A-Za-z]:)?\/+/, "");
}
