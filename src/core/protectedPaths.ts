import { Minimatch } from "minimatch";
import { GLOB_PREFILTER_FLAGS, globPrefilterSource } from "./globPrefilter";
import type { ResolvedPath } from "./paths";
import { configuredTargets, withinTargets } from "./gitConfigTargets";
import { windowsSpelling } from "./windowsNames";

/**
 * Writes to these paths always ask, whatever the switches say: they configure the editor, the gate itself,
 * git hooks and CI — places where one silent write turns into code execution or a looser gate later.
 * Matched case-insensitively (macOS and Windows file systems are), at any depth, on both the lexical and the
 * real path.
 */
const IN_WORKSPACE = [
  // The directories themselves too: `mv x/.vscode .vscode`, `ln -s x .husky`, `mkdir .vscode` replace or
  // create what is inside them in one write.
  "**/.vscode",
  "**/.github/workflows",
  "**/.husky",
  "**/.devcontainer",
  "**/.circleci",
  "**/.buildkite",
  "**/.vscode/*.json",
  "**/.vscode/*.code-workspace",
  "**/*.code-workspace",
  "**/.mcp.json",
  "**/mcp.json",
  "**/mcp_settings.json",
  "**/cline_mcp_settings.json",
  "**/.git",
  "**/.git/**",
  "**/.github/workflows/**",
  "**/.husky/**",
  "**/.gitmodules",
  // Hook managers run what these name on `git commit`; a dev container's `initializeCommand` runs on the host
  // when the folder is reopened in it; CI systems run theirs with the repository's secrets.
  "**/.pre-commit-config.yaml",
  "**/lefthook.yml",
  "**/.lefthook.yml",
  "**/lefthook-local.yml",
  "**/.devcontainer/**",
  "**/.devcontainer.json",
  "**/.gitlab-ci.yml",
  "**/.circleci/**",
  "**/.travis.yml",
  "**/.buildkite/**",
  "**/azure-pipelines.yml",
  "**/bitbucket-pipelines.yml",
  "**/Jenkinsfile",
];

/** Outside the workspace: editor settings and the shell's start-up files. */
const ANYWHERE = [
  "**/User/settings.json",
  "**/User/mcp.json",
  "**/Machine/settings.json",
  "**/.bashrc",
  "**/.bash_profile",
  "**/.profile",
  "**/.zshrc",
  "**/.zprofile",
  "**/.zshenv",
  "**/.config/fish",
  "**/.config/fish/**",
  "**/.ssh",
  "**/.ssh/**",
  "**/.gitconfig",
  "**/.config/git",
  "**/.config/git/**",
];

/** What `match` names for a path the repository's configuration makes a hooks directory or a config file. */
const CONFIGURED = "a git hooks directory or config file (core.hooksPath, include.path)";

const opts = { dot: true, nocase: true } as const;

const prefilter = (patterns: readonly string[]) =>
  new RegExp(patterns.map((p) => `(?:${globPrefilterSource(p)})`).join("|"), GLOB_PREFILTER_FLAGS);

export class ProtectedPaths {
  private readonly relative: readonly Minimatch[];
  private readonly absolute: readonly Minimatch[];
  /** Sound pre-filter: a path it rejects matches none of the patterns, so most writes skip minimatch. */
  private readonly mayMatch: RegExp;
  /** Every pattern starts with `**` + `/`: a relative spelling passes the pre-filter only where its absolute one does. */
  private readonly floating: boolean;
  /**
   * Verdicts by the path's spellings (a pure function of them). The spellings come from each decision's fresh
   * resolution, so a path that became a link is looked up by its new realpath.
   */
  private readonly memo = new Map<string, string | null>();
  /** Within a decision (see `beginDecision`): the configured targets of each root. */
  private targets: Map<string, readonly string[]> | undefined;

  constructor(ignoreFileName: string) {
    const rel = [...IN_WORKSPACE, `**/${ignoreFileName}`];
    this.floating = [...rel, ...ANYWHERE].every((g) => g.startsWith("**/"));
    this.relative = rel.map((p) => new Minimatch(p, opts));
    this.absolute = ANYWHERE.map((p) => new Minimatch(p, opts));
    this.mayMatch = prefilter([...rel, ...ANYWHERE]);
  }

  /** The pattern a write to `p` hits, or undefined. */
  match(p: ResolvedPath): string | undefined {
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
    return hit ?? this.configured(p);
  }

  /**
   * Starts a decision: the repositories' configuration is read again at its first use (one decision sees one
   * state of it, and a change is seen by the next decision). Without decisions (the sandbox's scan), it is read
   * at every use.
   */
  beginDecision(): void {
    this.targets = new Map();
  }

  /** The repository's own hooks directory or included configuration (not memoised by spelling). */
  private configured(p: ResolvedPath): string | undefined {
    const real = p.realRoot && this.targetsOf(p.realRoot.root);
    if (real && withinTargets(p.real, real)) return CONFIGURED;
    const lexical = p.lexicalRoot && this.targetsOf(p.lexicalRoot.root);
    return lexical && withinTargets(p.lexical, lexical) ? CONFIGURED : undefined;
  }

  private targetsOf(root: string): readonly string[] {
    if (!this.targets) return configuredTargets(root);
    let t = this.targets.get(root);
    if (t === undefined) {
      t = configuredTargets(root);
      this.targets.set(root, t);
    }
    return t;
  }

  private matchUncached(p: ResolvedPath): string | undefined {
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

  private matchSpelling(p: ResolvedPath): string | undefined {
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
      const hit = this.relative.find((m) => m.match(rel));
      if (hit) return hit.pattern;
    }
    for (const posix of [real, lexical]) {
      const hit = this.absolute.find((m) => m.match(posix));
      if (hit) return hit.pattern;
    }
    return undefined;
  }
}

/** An absolute path as the patterns see it: `/`-separated, without its root (`/`, `C:\\`). */
function strip(abs: string): string {
  return (abs.includes("\\") ? abs.replace(/\\/g, "/") : abs).replace(/^([A-Za-z]:)?\/+/, "");
}
