/**
 * At the seam (real gate, real files, real git): git run against a repository other than the workspace's
 * own, contents from git's objects when the repository tracks an ignored file, recursive readers that do
 * not follow links, configuration reads, and file names with a colon.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { indexPaths } from "../../../src/core/gitRepository";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const t = tempTree(
  {
    "ws/src/a.ts": "a",
    "ws/README.md": "r",
    "ws/.env": "SECRET=1",
    "ws/secrets/k": "k",
    "ws/.toolgateignore": ".env\nsecrets/\n",
    "ws/planted/HEAD": "ref: refs/heads/main\n",
    "ws/planted/objects/": "",
    "ws/planted/refs/": "",
    "ws/nested/x.txt": "x",
    "ws/ab:c.txt": "colon",
    "ws/lib/b.ts": "b",
    "outside/o.txt": "o",
  },
  { "ws/lib/out-link": "outside", "ws/lib/env-link": "ws/.env" },
);
afterAll(() => t.cleanup());
const ws = t.path("ws");
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" });
git(ws, "init", "-q", ".");
git(ws, "add", "src", "README.md", ".toolgateignore");
git(ws, "commit", "-qm", "init");
mkdirSync(t.path("ws/nested/.git"), { recursive: true });
writeFileSync(t.path("ws/nested/.git/config"), "[core]\n\tfsmonitor = touch /tmp/pwned\n");

const cmd = (command: string) => call("execute_command", { command });

describe("git against another repository", () => {
  it.each([
    "git -C planted status",
    "cd planted && git status",
    "git -C nested status",
    "cd nested && git log",
    "cd nested && git config --list",
    `git -C ${t.path("outside")} status`,
  ])("%s asks", async (line) => {
    const g = await gateWith({ "toolgate.commands.allow": ["git"] }, [ws]);
    expect(g.decide(cmd(line)).decision).toBe("ask");
  });

  it("the workspace's own repository runs, from any directory inside it", async () => {
    const g = await gateWith({}, [ws]);
    for (const line of ["git status", "git -C src log --oneline -5", "cd src && git diff --stat", "git log -p"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });
});

describe("contents from git's objects", () => {
  it("ask once the repository tracks a file the ignore file excludes", async () => {
    const tt = tempTree({ "w/a.ts": "a", "w/.env": "SECRET=1", "w/.toolgateignore": ".env\n" });
    try {
      const w = tt.path("w");
      git(w, "init", "-q", ".");
      git(w, "add", "a.ts", ".toolgateignore");
      git(w, "commit", "-qm", "init");
      const before = await gateWith({}, [w]);
      expect(before.decide(cmd("git show HEAD")).decision).toBe("allow");
      git(w, "add", "-f", ".env");
      git(w, "commit", "-qm", "secret");
      const g = await gateWith({}, [w]);
      for (const line of ["git show HEAD", "git log -p", "git grep SECRET", "git diff HEAD~1", "git cat-file -p HEAD"])
        expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
      expect(g.decide(cmd("git show HEAD")).reason).toContain(".env");
      // Names and statistics only: nothing of the file comes out.
      for (const line of ["git log --oneline -5", "git diff --stat HEAD~1", "git status", "git ls-files"])
        expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
    } finally {
      tt.cleanup();
    }
  });

  it("reads the entries of a real index", () => {
    const out = execFileSync("git", ["ls-files"], { cwd: ws }).toString().trim().split("\n");
    expect(indexPaths(readFileSync(t.path("ws/.git/index")))).toEqual(out);
  });
});

describe("configuration reads", () => {
  it.each(["git config user.name", "git config --get user.name", "git config --list", "git config -l"])(
    "%s runs under the defaults",
    async (line) => {
      const g = await gateWith({}, [ws]);
      expect(g.decide(cmd(line)).decision).toBe("allow");
    },
  );
});

describe("recursive readers and links below the directory", () => {
  it("a reader that does not follow links is not asked about them; one that follows is", async () => {
    const g = await gateWith({}, [ws]);
    for (const line of ["grep -rn x lib", "rg x lib", "git diff -- lib"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
    for (const line of ["grep -Rn x lib", "rg -L x lib", "rg --follow x lib"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
  });
});

describe("file names with a colon", () => {
  it("read_file('ab:c.txt') reads a file; real URLs are still refused", async () => {
    const g = await gateWith({}, [ws]);
    expect(g.decide(call("read_file", { path: "ab:c.txt" })).decision).toBe("allow");
    expect(g.decide(call("read_file", { path: "https://example.com/x" })).decision).toBe("deny");
    expect(g.decide(call("read_file", { path: "file:///etc/passwd" })).decision).toBe("deny");
  });
});
