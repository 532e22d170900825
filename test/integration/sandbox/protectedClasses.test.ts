/**
 * The protected classes under the workspace-write sandbox (real bubblewrap), from the same matcher as the gate:
 * existing ones are read-only inside, new ones are reported by the after-run compare. Each attempt also runs
 * unsandboxed and succeeds there, so a test fails if the sandbox stops containing it.
 */
import { execSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { git, hookLayouts } from "../../support/gitEscapes";
import { probe, run, varTmpDir } from "./sandboxHarness";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function session(root: string): SandboxSession {
  const home = varTmpDir("toolgate-home-");
  cleanups.push(home.cleanup);
  return new SandboxSession(
    { roots: [root], ignoreFileName: ".toolgateignore", network: { kind: "off" }, home: home.dir },
    probe,
  );
}

/** A workspace outside /tmp (private inside the sandbox), so what lies beside it meets the read-only root. */
function workspace(files: Record<string, string> = {}): string {
  const base = varTmpDir("toolgate-ws-");
  cleanups.push(base.cleanup);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base.dir, rel)), { recursive: true });
    writeFileSync(path.join(base.dir, rel), content);
  }
  return base.dir;
}

const plant = (file: string) => `mkdir -p '${path.dirname(file)}' && printf '#!/bin/sh\\necho pwned\\n' > '${file}'`;

describe.skipIf(!probe.available)("protected classes inside the sandbox (real bubblewrap)", () => {
  // Hook layouts whose hooks directory lies in the workspace (the common directory's own hooks lie outside it,
  // where the read-only root already holds them). Layouts are built per test, so each test has fresh ones.
  const NAMES = ["backslash", "include.path", "includeIf", "hooksPath in the common config"];
  const layout = (i: number) => hookLayouts(workspace()).filter((l) => !path.isAbsolute(l.hook))[i]!;

  NAMES.forEach((name, i) => {
    it(`${name}: the hooks directory git really uses is read-only`, async () => {
      const l = layout(i);
      const s = session(l.root);
      const hook = path.join(l.root, l.hook);
      const inside = await run(s, plant(hook), true);
      expect(inside.out).toMatch(/Read-only/);
      expect(existsSync(hook)).toBe(false);
      expect((await run(s, plant(hook), false)).status).toBe(0);
      expect(readFileSync(hook, "utf8")).toContain("pwned");
    });

    it(`${name}: a hooks directory that does not exist yet is reported when a command creates it`, async () => {
      const l = layout(i);
      const hooksDir = path.dirname(path.join(l.root, l.hook));
      rmSync(hooksDir, { recursive: true });
      const r = await run(session(l.root), plant(path.join(l.root, l.hook)), true);
      expect(r.status).toBe(0);
      expect((r.report?.protectedChanges ?? []).map((c) => [c.kind, c.path])).toEqual([["added", hooksDir]]);
    });
  });

  it("a hooksPath set after the session's scan is read-only from the next command on", async () => {
    const root = workspace({ "tools/hooks/.keep": "", "src/a.txt": "a\n" });
    git(root, "init", "-q", ".");
    const s = session(root);
    expect((await run(s, "echo ok > src/b.txt", true)).status).toBe(0); // the scan is cached now
    git(root, "config", "core.hooksPath", "tools/hooks");
    const inside = await run(s, plant(path.join(root, "tools/hooks/pre-commit")), true);
    expect(inside.out).toMatch(/Read-only/);
    expect(existsSync(path.join(root, "tools/hooks/pre-commit"))).toBe(false);
    expect((await run(s, plant(path.join(root, "tools/hooks/pre-commit")), false)).status).toBe(0);
  });

  it("other agents' configuration: existing is read-only, new is reported, at any depth", async () => {
    const root = workspace({ ".claude/settings.json": "{}\n", ".cursor/mcp.json": "{}\n", "src/a.txt": "a\n" });
    const s = session(root);
    const attempts = [
      `echo '{"hooks":{}}' > .claude/settings.json`,
      "echo '{}' > .claude/settings.local.json",
      "echo '{}' > .cursor/hooks.json",
    ];
    for (const line of attempts) {
      const r = await run(s, line, true);
      expect(r.out, line).toMatch(/Read-only/);
    }
    expect(readFileSync(path.join(root, ".claude/settings.json"), "utf8")).toBe("{}\n");
    expect(existsSync(path.join(root, ".claude/settings.local.json"))).toBe(false);
    const created = [
      ".mcp.json",
      ".gemini/settings.json",
      ".codex/config.toml",
      ".continue/config.yaml",
      ".clinerules",
      ".roo/mcp.json",
      "a/b/c/d/.claude/settings.json",
    ];
    const line = created
      .map((f) => `mkdir -p '${path.dirname(f)}' && echo x > '${f}'`)
      .concat("echo ok > src/b.txt")
      .join(" && ");
    const r = await run(s, line, true);
    expect(r.status).toBe(0);
    const added = (r.report?.protectedChanges ?? []).map((c) => [c.kind, path.relative(root, c.path)]);
    expect(added.sort()).toEqual(
      [".mcp.json", ".gemini", ".codex", ".continue", ".clinerules", ".roo", "a/b/c/d/.claude"]
        .map((p) => ["added", p])
        .sort(),
    );
    expect(r.report?.protectedChanges.find((c) => c.path.endsWith(".gemini"))?.what).toMatch(/another agent/);
    for (const l of attempts) expect((await run(s, l, false)).status, l).toBe(0);
  });

  it("any git directory: a bare repository, a renamed .git, the one a gitdir: file names", async () => {
    const root = workspace({ "src/a.txt": "a\n" });
    git(root, "init", "-q", "--bare", "vault.git");
    git(root, "init", "-q", "renamed");
    renameSync(path.join(root, "renamed/.git"), path.join(root, "renamed/.dotgit"));
    mkdirSync(path.join(root, "gitdirs"));
    git(root, "init", "-q", "--separate-git-dir", path.join(root, "gitdirs/sep"), path.join(root, "separate"));
    const s = session(root);
    const attempts = [
      "echo evil > vault.git/hooks/post-update",
      "git config -f vault.git/config core.fsmonitor ./x",
      "echo evil > renamed/.dotgit/hooks/pre-commit",
      "echo '[core]' >> renamed/.dotgit/config",
      "echo evil > gitdirs/sep/hooks/pre-commit",
    ];
    const state = () =>
      ["vault.git/config", "renamed/.dotgit/config"].map((f) => readFileSync(path.join(root, f), "utf8")).join("|") +
      ["vault.git/hooks/post-update", "renamed/.dotgit/hooks/pre-commit", "gitdirs/sep/hooks/pre-commit"]
        .map((f) => String(existsSync(path.join(root, f))))
        .join("|");
    const before = state();
    for (const line of attempts) {
      const r = await run(s, line, true);
      expect(r.status, line).not.toBe(0);
    }
    expect(state()).toBe(before);
    // Git's own data stays writable: a commit in the repository with the gitdir: file works.
    const commit = await run(
      s,
      "cd separate && echo b > b.txt && git add b.txt && git -c user.email=t@t -c user.name=t commit -q -m b && echo done",
      true,
    );
    expect(commit.out).toContain("done");
    for (const line of attempts) expect((await run(s, line, false)).status, line).toBe(0);
    expect(state()).not.toBe(before);
  });

  it("a new git directory whatever its name is reported by the after-run compare", async () => {
    const root = workspace({ "src/a.txt": "a\n" });
    execSync("git init -q .", { cwd: root });
    const r = await run(session(root), "git init -q --bare deep/er/store && echo evil > deep/er/store/hooks/x", true);
    expect(r.status).toBe(0);
    const changes = r.report?.protectedChanges ?? [];
    expect(changes.map((c) => [c.kind, path.relative(root, c.path), c.what])).toEqual([
      ["added", "deep/er/store", "a git directory"],
    ]);
  });
});
