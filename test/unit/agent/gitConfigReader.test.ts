/**
 * The git configuration reader asks real git, with an environment no repository or host variable can steer:
 * nothing a repository configures runs while it reads, the host's `GIT_DIR` does not redirect it, the home's own
 * configuration counts (a global relative `core.hooksPath` names a folder in every repository), and a file that
 * appears later in the home is noticed by its stamp.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { GitConfigReader } from "../../../src/agent/git/gitConfigReader";
import { scanWorkspace } from "../../../src/agent/sandbox/workspaceScan";
import type { RepoConfigTargets } from "../../../src/core/gitConfigTargets";
import { git } from "../../support/gitEscapes";
import { tempTree } from "../../support/workspace";

const known = (t: RepoConfigTargets | undefined) => (t?.kind === "known" ? t.targets : []);

describe("GitConfigReader", () => {
  const t = tempTree({ "home/.keep": "", "w/src/a.ts": "a", "other/x": "" });
  afterAll(() => t.cleanup());
  const w = t.path("w");
  git(w, "init", "-q", ".");
  git(t.path("other"), "init", "-q", ".");
  const saved = process.env.GIT_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.GIT_DIR;
    else process.env.GIT_DIR = saved;
  });

  it("runs nothing a repository configures (fsmonitor, pagers) and ignores the host's GIT_DIR", () => {
    const marker = t.path("ran");
    const script = t.path("w/mon.sh");
    writeFileSync(script, `#!/bin/sh\ntouch '${marker}'\n`);
    chmodSync(script, 0o755);
    for (const [k, v] of [
      ["core.fsmonitor", script],
      ["core.pager", script],
      ["pager.config", script],
      ["pager.rev-parse", script],
      ["core.hooksPath", "hooks-here"],
    ])
      git(w, "config", k!, v!);
    process.env.GIT_DIR = path.join(t.path("other"), ".git");
    const [r] = new GitConfigReader({ home: t.path("home") }).targets([w]);
    expect(existsSync(marker)).toBe(false);
    expect(known(r)).toContain(path.join(w, "hooks-here"));
    expect(known(r)).toContain(path.join(w, ".git/config"));
    expect(known(r).some((x) => x.startsWith(t.path("other")))).toBe(false);
  });

  it("the home's configuration counts, also when it appears after the first read", () => {
    const home = t.path("home2");
    mkdirSync(home);
    const plain = t.path("plain");
    mkdirSync(plain);
    git(plain, "init", "-q", ".");
    const reader = new GitConfigReader({ home });
    expect(known(reader.targets([plain])[0])).not.toContain(path.join(plain, ".githooks"));
    writeFileSync(path.join(home, ".gitconfig"), "[core]\n\thooksPath = .githooks\n");
    expect(known(reader.targets([plain])[0])).toContain(path.join(plain, ".githooks"));
    const reads = reader.reads;
    reader.targets([plain]);
    expect(reader.reads).toBe(reads);
  });

  it("outside any repository: none; a root the reader cannot read makes the sandbox bind it read-only whole", () => {
    const outside = tempTree({ "a.txt": "" });
    try {
      expect(new GitConfigReader().targets([outside.dir])).toEqual([{ kind: "none" }]);
    } finally {
      outside.cleanup();
    }
    const noGit = new GitConfigReader({ git: t.path("no-such-git") });
    expect(noGit.targets([w])[0]?.kind).toBe("unknown");
    const scan = scanWorkspace([w], ".toolgateignore", undefined, noGit);
    expect(scan.readOnly).toContain(w);
  });
});
