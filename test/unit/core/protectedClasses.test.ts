/**
 * The protected classes DESIGN step 3 adds, judged by the gate with real git: other agents' configuration;
 * any git directory whatever its name (a bare repository, a renamed `.git`, the one a `gitdir:` file names);
 * and the hooks directory as git itself finds it (a `core.hooksPath` continued with a backslash, one set in an
 * included file, a linked worktree opened as the workspace). A write by a file tool and a command redirect both
 * ask in auto mode; ordinary files beside them stay auto-approved. When git cannot answer, writes ask.
 */
import { chmodSync, chownSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GitConfigReader } from "../../../src/agent/git/gitConfigReader";
import { call, gateWith } from "../../support/gate";
import { git, hookLayouts, hookRunsOnCommit } from "../../support/gitEscapes";
import { tempTree } from "../../support/workspace";

const auto = { "toolgate.mode": "auto" };
const write = (p: string) => call("write_to_file", { path: p, content: "x" });
const redirect = (p: string) => call("execute_command", { command: `echo x > '${p}'` });

async function expectProtected(roots: string[], paths: readonly string[], ordinary: readonly string[], extra = {}) {
  const g = await gateWith(auto, roots, extra);
  for (const p of paths)
    for (const c of [write(p), redirect(p)]) {
      const d = g.decide(c);
      expect({ p, tool: c.tool, d: d.decision }).toEqual({ p, tool: c.tool, d: "ask" });
      expect(d.rule, p).toMatch(/^protected: /);
    }
  for (const p of ordinary)
    for (const c of [write(p), redirect(p)]) expect({ p, d: g.decide(c).decision }).toEqual({ p, d: "allow" });
}

describe("other agents' configuration", () => {
  const t = tempTree({ "w/src/a.ts": "a", "w/.claude/settings.json": "{}" });
  afterAll(() => t.cleanup());

  it("a write asks in auto mode, whether the file exists or is created, at the root or deeper", async () => {
    const paths = [
      ".claude/settings.json",
      ".claude/settings.local.json",
      ".claude/agents/x.md",
      ".mcp.json",
      "pkg/.mcp.json",
      ...[".claude", ".gemini", ".cursor", ".codex", ".continue", ".clinerules", ".roo"].map(
        (d) => `${d}/settings.json`,
      ),
      ".cursor/hooks.json",
      ".codex/config.toml",
      ".continue/config.yaml",
      ".clinerules/hooks/PreToolUse",
      ".clinerules",
      ".roo/mcp.json",
      "sub/.gemini/settings.json",
      "~/.claude/settings.json",
      "~/.gemini/settings.json",
    ];
    await expectProtected([t.path("w")], paths, ["src/b.ts", "claude/settings.json", "docs/cursor.md"]);
  });
});

describe("Toolgate's own state", () => {
  const t = tempTree({ "w/src/a.ts": "a" });
  afterAll(() => t.cleanup());

  it("the hook wrappers, the hooks' taint state, the code cache and the probe memo ask; the package caches do not", async () => {
    const paths = [
      "~/.local/share/toolgate/hooks/claude-code.sh",
      "~/.local/state/toolgate/hooks/taint-x.json",
      "~/.local/state/toolgate",
      "~/.cache/toolgate/code-cache/cli-hook-0123.v8",
      "~/.cache/toolgate/sandbox-probe.json",
    ];
    await expectProtected([t.path("w")], paths, ["src/toolgate/hooks/a.ts", "src/.cache/toolgate/pkg/x"]);
  });
});

describe("any git directory, whatever its name", () => {
  const t = tempTree({ "w/src/a.ts": "a" });
  afterAll(() => t.cleanup());
  const w = t.path("w");

  it("a bare repository inside the workspace: its config and hooks ask; its other files do not", async () => {
    git(w, "init", "-q", "--bare", "vault.git");
    await expectProtected(
      [w],
      ["vault.git/config", "vault.git/hooks/post-update", "vault.git/hooks", "vault.git/info/attributes"],
      ["vault.git/description", "src/config", "src/hooks/x"],
    );
  });

  it("a renamed .git and the git directory a gitdir: file names (inside or outside the workspace)", async () => {
    const r = path.join(w, "renamed");
    mkdirSync(r);
    git(r, "init", "-q", ".");
    renameSync(path.join(r, ".git"), path.join(r, ".dotgit"));
    const far = t.path("elsewhere");
    git(t.dir, "init", "-q", "--separate-git-dir", far, path.join(w, "separate"));
    await expectProtected(
      [w],
      ["renamed/.dotgit/hooks/pre-commit", "renamed/.dotgit/config", `${far}/hooks/pre-commit`, `${far}/config`],
      ["renamed/src.ts", `${t.dir}/other.txt`],
    );
  });
});

describe("the hooks git really runs (core.hooksPath, includes, linked worktrees), read by git", () => {
  const t = tempTree();
  afterAll(() => t.cleanup());
  const layouts = hookLayouts(t.dir);

  for (const layout of layouts)
    it(`${layout.name}: writing the hook asks, and it is the hook the next commit runs`, async () => {
      await expectProtected([layout.root], [layout.hook], ["README.md"]);
      // The premise: without Toolgate, the written file runs on the next commit.
      expect(hookRunsOnCommit(layout, t.path(`${path.basename(layout.root)}.ran`))).toBe(true);
    });

  it("a change to the configuration is seen by the next decision; an unchanged one does not run git again", async () => {
    const reader = new GitConfigReader();
    const root = layouts[0]!.root;
    const g = await gateWith(auto, [root], { gitConfig: reader });
    expect(g.decide(write("other/hooks/pre-commit")).decision).toBe("allow");
    const reads = reader.reads;
    for (let i = 0; i < 20; i++) g.decide(write("src/x.ts"));
    expect(reader.reads).toBe(reads);
    git(root, "config", "--replace-all", "core.hooksPath", "other/hooks");
    expect(g.decide(write("other/hooks/pre-commit")).decision).toBe("ask");
    expect(reader.reads).toBe(reads + 1);
  });
});

describe("when git cannot answer, the repository's writes ask (protected-unknown)", () => {
  const t = tempTree({ "w/src/a.ts": "a", "plain/src/a.ts": "a" });
  afterAll(() => t.cleanup());

  it("no git binary: every write in a repository asks; a folder without .git is unaffected", async () => {
    git(t.path("w"), "init", "-q", ".");
    const noGit = new GitConfigReader({ git: t.path("no-such-git") });
    const g = await gateWith(auto, [t.path("w")], { gitConfig: noGit });
    const d = g.decide(write("src/a.ts"));
    expect(d.decision).toBe("ask");
    expect(d.rule).toBe("protected: git configuration that could not be read");
    expect(g.decide(redirect("scripts/hooks/pre-commit")).decision).toBe("ask");
    const plain = await gateWith(auto, [t.path("plain")], { gitConfig: noGit });
    expect(plain.decide(write("src/a.ts")).decision).toBe("allow");
  });

  it.skipIf(process.getuid?.() !== 0)("dubious ownership (git refuses the repository): writes ask", async () => {
    const d = t.path("dubious");
    mkdirSync(d);
    git(d, "init", "-q", ".");
    writeFileSync(path.join(d, "a.txt"), "a");
    chownSync(d, 65534, 65534);
    chmodSync(d, 0o777);
    const g = await gateWith(auto, [d], { gitConfig: new GitConfigReader() });
    const v = g.decide(write("a.txt"));
    expect(v.decision).toBe("ask");
    expect(v.reason).toMatch(/protected path/);
  });
});
