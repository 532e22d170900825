/**
 * Files that run code later: the one reviewed list. A sandboxed command may write them freely (they are not
 * protected paths, and `npm pkg set` or a code generator has good reasons to), but what it wrote runs the next
 * time someone types `npm test`, `make`, `pytest` or opens a shell with direnv — outside the sandbox, perhaps
 * with a person's credentials. So the after-run compare (`agent/sandbox/protectedSnapshot.ts`) snapshots them
 * before each sandboxed command and a change that means something is the person's keep-or-undo.
 *
 * Invariants: a pure function of the workspace-relative path (case folded: macOS and Windows fold it); a
 * meaning extractor that cannot read the content returns undefined, and then every byte counts (fail closed).
 */

/** How a change to the file is judged: any byte, or only what its tool runs (`meaningOf`). */
export type RunCodeMeaning = "bytes" | "package-json" | "go-mod";

export interface RunCodeFile {
  /** For the person: what the file is and what runs it. */
  readonly what: string;
  readonly meaning: RunCodeMeaning;
}

const bytes = (what: string): RunCodeFile => ({ what, meaning: "bytes" });

/** Exact file names (lower case), at any depth: monorepos have one per package, pytest loads every conftest.py. */
const NAMES: ReadonlyMap<string, RunCodeFile> = new Map<string, RunCodeFile>([
  ["package.json", { what: "package.json scripts (run by npm, pnpm, yarn)", meaning: "package-json" }],
  [".npmrc", bytes("npm configuration (can name a script shell, hooks and registries)")],
  [".yarnrc", bytes("yarn configuration")],
  [".yarnrc.yml", bytes("yarn configuration (can name the yarn binary and plugins to run)")],
  [".pnpmfile.cjs", bytes("a pnpm hook file (runs on install)")],
  ["makefile", bytes("a Makefile (run by make)")],
  ["gnumakefile", bytes("a Makefile (run by make)")],
  ["pyproject.toml", bytes("Python project configuration (build backend, tool hooks)")],
  ["setup.py", bytes("a Python setup script (runs on install and build)")],
  ["setup.cfg", bytes("Python setup configuration")],
  ["tox.ini", bytes("tox configuration (commands it runs)")],
  ["noxfile.py", bytes("a nox file (sessions it runs)")],
  ["conftest.py", bytes("a pytest conftest (runs with the tests)")],
  ["cargo.toml", bytes("a Cargo manifest (build scripts, runners)")],
  ["build.rs", bytes("a Cargo build script (runs on build)")],
  ["go.mod", { what: "go.mod replace and toolchain lines (what go builds and runs)", meaning: "go-mod" }],
  ["dockerfile", bytes("a Dockerfile (runs on docker build)")],
  ["containerfile", bytes("a Containerfile (runs on build)")],
  [".envrc", bytes("a direnv file (runs when a shell enters the folder)")],
  ["mise.toml", bytes("mise configuration (tasks and hooks it runs)")],
  [".mise.toml", bytes("mise configuration (tasks and hooks it runs)")],
  [".gitlab-ci.yml", bytes("CI configuration (GitLab)")],
  [".travis.yml", bytes("CI configuration (Travis)")],
  ["azure-pipelines.yml", bytes("CI configuration (Azure Pipelines)")],
  ["bitbucket-pipelines.yml", bytes("CI configuration (Bitbucket)")],
  [".drone.yml", bytes("CI configuration (Drone)")],
  ["appveyor.yml", bytes("CI configuration (AppVeyor)")],
  [".appveyor.yml", bytes("CI configuration (AppVeyor)")],
  ["jenkinsfile", bytes("CI configuration (Jenkins)")],
  [".pre-commit-config.yaml", bytes("hook-manager configuration (pre-commit)")],
  ["lefthook.yml", bytes("hook-manager configuration (lefthook)")],
  [".lefthook.yml", bytes("hook-manager configuration (lefthook)")],
  ["lefthook-local.yml", bytes("hook-manager configuration (lefthook)")],
  [".simple-git-hooks.json", bytes("hook-manager configuration (simple-git-hooks)")],
  [".simple-git-hooks.cjs", bytes("hook-manager configuration (simple-git-hooks)")],
  [".simple-git-hooks.js", bytes("hook-manager configuration (simple-git-hooks)")],
  [".overcommit.yml", bytes("hook-manager configuration (overcommit)")],
]);

/** Folders whose every file is CI or container configuration (the workflows folder is a protected path). */
const FOLDERS: readonly (readonly [string, RunCodeFile])[] = [
  [".circleci/", bytes("CI configuration (CircleCI)")],
  [".buildkite/", bytes("CI configuration (Buildkite)")],
  [".github/actions/", bytes("a GitHub Actions action (run by workflows)")],
  [".devcontainer/", bytes("dev container configuration (runs when the folder opens in a container)")],
];

const LINT_STAGED = /^(?:\.lintstagedrc(?:\.[a-z]+)?|lint-staged\.config\.[a-z]+)$/;

/** The file at this workspace-relative path (`/`-separated) runs code later: what it is, or undefined. */
export function runCodeFile(relative: string): RunCodeFile | undefined {
  const rel = relative.toLowerCase();
  const slash = rel.lastIndexOf("/");
  const name = rel.slice(slash + 1);
  const named = NAMES.get(name);
  if (named) return named;
  if (name.endsWith(".mk")) return bytes("a make include file (run by make)");
  if (name.startsWith("dockerfile.") || name.endsWith(".dockerfile"))
    return bytes("a Dockerfile (runs on docker build)");
  if (LINT_STAGED.test(name)) return bytes("hook-manager configuration (lint-staged)");
  const padded = `/${rel}`;
  for (const [folder, file] of FOLDERS) if (padded.includes(`/${folder}`)) return file;
  return undefined;
}

/**
 * package.json fields that decide what runs: `scripts` holds every lifecycle script (`preinstall`, `prepare`,
 * `test`…); `bin` and `directories.bin` put programs on the `PATH` of every script; `gypfile` makes install run
 * node-gyp; `packageManager` makes corepack fetch and run another package manager; and the hook managers that
 * read package.json (`husky` v4, `simple-git-hooks`, `pre-commit`, `lint-staged`) run what they name on commit.
 */
const PACKAGE_JSON_FIELDS = [
  "scripts",
  "bin",
  "directories",
  "gypfile",
  "packageManager",
  "husky",
  "simple-git-hooks",
  "pre-commit",
  "lint-staged",
] as const;

/** A JSON value with object keys sorted, so reformatting or reordering keys does not change it. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v) ?? "undefined";
}

function packageJsonMeaning(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const o = parsed as Record<string, unknown>;
  // `directories` counts only for its `bin`; a field that is absent and one that is missing read the same.
  const picked = PACKAGE_JSON_FIELDS.map((k) => [k, k === "directories" ? pickBin(o[k]) : o[k]] as const);
  return canonical(Object.fromEntries(picked.filter(([, v]) => v !== undefined)));
}

function pickBin(directories: unknown): unknown {
  if (directories === null || typeof directories !== "object" || Array.isArray(directories)) return directories;
  return (directories as Record<string, unknown>).bin;
}

/**
 * go.mod directives that change what `go` builds and runs: `replace` (single lines and blocks) points a module
 * at other code; `toolchain` and `go` can make the go command fetch and run another toolchain. Comments and
 * blank lines dropped, whitespace runs folded, so `go mod tidy` reformatting does not count.
 */
function goModMeaning(text: string): string {
  const kept: string[] = [];
  let inReplace = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw
      .replace(/\/\/.*$/, "")
      .trim()
      .replace(/\s+/g, " ");
    if (line === "") continue;
    if (inReplace) {
      if (line === ")") inReplace = false;
      else kept.push(`replace ${line}`);
    } else if (/^replace ?\($/.test(line)) inReplace = true;
    else if (/^(?:replace|toolchain|go) /.test(line)) kept.push(line);
  }
  return kept.join("\n");
}

/**
 * What counts in the file's content for a change to mean something; undefined: every byte counts (the
 * meaning is `bytes`, or the content could not be read as its tool reads it — a package.json that is not
 * JSON any more is a change).
 */
export function meaningOf(meaning: RunCodeMeaning, content: string): string | undefined {
  if (meaning === "package-json") return packageJsonMeaning(content);
  if (meaning === "go-mod") return goModMeaning(content);
  return undefined;
}
