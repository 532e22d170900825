/**
 * A repository's own configuration can move its hooks (`core.hooksPath`) or pull settings from a file in the
 * work tree (`include.path`, `includeIf.*.path`): with real git, writes there ask like writes to `.git/hooks` and
 * `.git/config`, in auto mode too, for file tools and command redirects alike; other files stay auto-approved.
 * A change to the configuration is seen by the next decision.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "pipe" }).toString();

describe("hooks and included config named by the repository's configuration", () => {
  const t = tempTree({ "w/src/a.ts": "a", "w/scripts/build.sh": "b" });
  afterAll(() => t.cleanup());
  const w = t.path("w");
  git(w, "init", "-q", ".");
  const auto = { "toolgate.mode": "auto" };
  const write = (path: string) => call("write_to_file", { path, content: "x" });
  const run = (command: string) => call("execute_command", { command });

  it("core.hooksPath: the directory it names is protected, once it is set", async () => {
    const before = await gateWith(auto, [w]);
    expect(before.decide(write("scripts/hooks/pre-commit")).decision).toBe("allow");
    git(w, "config", "core.hooksPath", "scripts/hooks");
    mkdirSync(t.path("w/scripts/hooks"), { recursive: true });
    // The same gate: the configuration is read at decision time.
    for (const g of [before, await gateWith(auto, [w])]) {
      const d = g.decide(write("scripts/hooks/pre-commit"));
      expect(d.decision).toBe("ask");
      expect(d.reason).toMatch(/protected path/);
      expect(g.decide(run("echo 'rm -rf ~' > scripts/hooks/pre-commit")).decision).toBe("ask");
      expect(g.decide(write("scripts/build.sh")).decision).toBe("allow");
    }
  });

  it("include.path and includeIf paths: the files they pull in are protected", async () => {
    git(w, "config", "include.path", "../team.gitconfig");
    git(w, "config", "includeIf.gitdir:/.path", "local/extra.gitconfig");
    const g = await gateWith(auto, [w]);
    for (const path of ["team.gitconfig", ".git/local/extra.gitconfig"])
      expect({ path, d: g.decide(write(path)).decision }).toEqual({ path, d: "ask" });
    expect(g.decide(run("cp src/a.ts team.gitconfig")).decision).toBe("ask");
    expect(g.decide(write("src/b.ts")).decision).toBe("allow");
  });
});
