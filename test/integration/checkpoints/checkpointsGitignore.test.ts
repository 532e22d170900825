/** The walk leaves out exactly what git itself would treat as ignored (git is the oracle). */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { walkRoot } from "../../../src/agent/checkpoints/walk";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { git, tempDir, write } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe("gitignore evaluation", () => {
  it("matches git's own view: nested files, negation, folder-only patterns, anchoring, excluded parents", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const files = {
      ".gitignore": "*.log\n/build/\ntmp\n!important.log\ndocs/*.md\n!docs/keep.md\ncache/\n",
      "a.log": "",
      "important.log": "",
      "src/x.log": "",
      "src/important.log": "",
      "src/.gitignore": "!*.log\ngen/\n*.o\n",
      "src/y.log": "",
      "src/gen/out.ts": "",
      "src/m.o": "",
      "src/deep/z.o": "",
      "src/deep/.gitignore": "!z.o\n",
      "build/a.js": "",
      "lib/build/b.js": "",
      tmp: "",
      "lib/tmp/t.txt": "",
      "docs/a.md": "",
      "docs/keep.md": "",
      "docs/sub/b.md": "",
      "cache/c.txt": "",
      "cache/.gitignore": "!c.txt\n",
      "space name.txt": "",
      "ünï.txt": "",
      "keep/ok.ts": "",
    };
    for (const [p, c] of Object.entries(files)) write(root, p, c);
    git(root, "init", "-q");
    const oracle = git(root, "-c", "core.quotepath=off", "ls-files", "--others", "--exclude-standard", "-z")
      .split("\0")
      .filter(Boolean)
      .sort();
    const walk = await walkRoot({
      root,
      rootIndex: 0,
      ignore: IgnoreRules.empty(".toolgateignore"),
      includeGitignored: false,
      maxFileBytes: 1e9,
      maxFiles: 1e6,
    });
    expect(walk.files).toEqual(oracle);
    expect(oracle).toContain("src/y.log");
    expect(oracle).not.toContain("cache/c.txt");
  });
});
