/**
 * Repositories, built with real git, where the hooks the next `git commit` runs live somewhere the fixed
 * protected patterns do not name: each was an escape before the matcher asked git (see gitConfigReader.ts).
 * Shared by the gate's tests and the sandbox's, so both judge the same layouts.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";

export const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, stdio: "pipe", env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1" } }).toString();

export interface HookLayout {
  readonly name: string;
  /** The workspace root. */
  readonly root: string;
  /** The hook `git commit` in `root` runs: relative to `root`, or absolute when it lies outside. */
  readonly hook: string;
}

/** Each layout below `base` (a fresh directory). Hook directories exist; the hooks themselves do not. */
export function hookLayouts(base: string): HookLayout[] {
  const make = (name: string) => {
    const root = path.join(base, name);
    mkdirSync(root, { recursive: true });
    git(root, "init", "-q", ".");
    return root;
  };
  const out: HookLayout[] = [];

  // core.hooksPath continued on the next line with a backslash: git reads `scripts/hooks`.
  const backslash = make("backslash");
  appendFileSync(path.join(backslash, ".git/config"), "[core]\n\thooksPath = scri\\\npts/hooks\n");
  mkdirSync(path.join(backslash, "scripts/hooks"), { recursive: true });
  out.push({
    name: "core.hooksPath continued with a backslash-newline",
    root: backslash,
    hook: "scripts/hooks/pre-commit",
  });

  // core.hooksPath set in a file `include.path` pulls in.
  const included = make("included");
  git(included, "config", "include.path", "../team.gitconfig");
  writeFileSync(path.join(included, "team.gitconfig"), "[core]\n\thooksPath = tools/hooks\n");
  mkdirSync(path.join(included, "tools/hooks"), { recursive: true });
  out.push({ name: "core.hooksPath set in an include.path file", root: included, hook: "tools/hooks/pre-commit" });

  // … and in a file an `includeIf "gitdir:…"` section pulls in.
  const conditional = make("conditional");
  appendFileSync(
    path.join(conditional, ".git/config"),
    `[includeIf "gitdir:${conditional}/"]\n\tpath = ../ci/git.inc\n`,
  );
  mkdirSync(path.join(conditional, "ci/hooks"), { recursive: true });
  writeFileSync(path.join(conditional, "ci/git.inc"), "[core]\n\thooksPath = ci/hooks\n");
  out.push({
    name: 'core.hooksPath set in an includeIf "gitdir:" file',
    root: conditional,
    hook: "ci/hooks/pre-commit",
  });

  // A linked worktree opened as the workspace: the common directory's config says where the hooks are.
  const main = make("main");
  git(main, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
  git(main, "worktree", "add", "-q", path.join(base, "linked"));
  git(main, "config", "core.hooksPath", "githooks");
  const linked = path.join(base, "linked");
  mkdirSync(path.join(linked, "githooks"), { recursive: true });
  out.push({ name: "a linked worktree (hooksPath in the common config)", root: linked, hook: "githooks/pre-commit" });

  // A linked worktree whose hooks are the common directory's own (outside the workspace).
  const main2 = make("main2");
  git(main2, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
  git(main2, "worktree", "add", "-q", path.join(base, "linked2"));
  out.push({
    name: "a linked worktree (the common directory's hooks)",
    root: path.join(base, "linked2"),
    hook: path.join(main2, ".git/hooks/pre-commit"),
  });
  return out;
}

/** Writes an executable hook that leaves `marker`, runs `git commit` in `root`, and says whether it ran. */
export function hookRunsOnCommit(layout: HookLayout, marker: string): boolean {
  const hook = path.resolve(layout.root, layout.hook);
  writeFileSync(hook, `#!/bin/sh\necho ran > '${marker}'\n`);
  chmodSync(hook, 0o755);
  git(layout.root, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "x");
  return existsSync(marker);
}
