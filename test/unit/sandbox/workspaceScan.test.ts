import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { compareSnapshots, takeSnapshot } from "../../../src/agent/sandbox/protectedSnapshot";
import { applyUndo, undoData } from "../../../src/agent/sandbox/protectedUndo";
import { MOUNT_LIMIT, scanWorkspace, ScanTooLargeError } from "../../../src/agent/sandbox/workspaceScan";
import { tempTree, type TempTree } from "../../support/workspace";

let trees: TempTree[] = [];
const tree = (files: Record<string, string>, links: Record<string, string> = {}) => {
  const t = tempTree(files, links);
  trees.push(t);
  return t;
};
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});

describe("workspace scan", () => {
  it("re-binds existing protected paths read-only and hides ignored entries, whole directories by one entry", () => {
    const t = tree({
      ".toolgateignore": "secrets/\n*.pem\n!keep.pem\n",
      // A git directory: HEAD, objects/ and refs/ (a `.git` without them is bound whole).
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/refs/heads/main": "",
      ".git/config": "",
      ".git/hooks/pre-commit.sample": "",
      ".git/info/exclude": "",
      ".git/objects/ab/cd": "",
      ".vscode/settings.json": "{}",
      ".github/workflows/ci.yml": "",
      ".husky/pre-commit": "",
      "pkg/.mcp.json": "{}",
      "secrets/a.txt": "",
      "secrets/deep/b.txt": "",
      "src/key.pem": "",
      "src/keep.pem": "",
      "src/a.ts": "",
      "sub/.git": "gitdir: ../.git/modules/sub\n",
      ".git/modules/sub/HEAD": "",
      ".git/modules/sub/config": "",
      ".git/modules/sub/hooks/x": "",
    });
    const s = scanWorkspace([t.dir], ".toolgateignore");
    const rel = (ps: readonly string[]) => ps.map((p) => p.slice(t.dir.length + 1));
    expect(rel(s.readOnly)).toEqual([
      ".git/config",
      ".git/hooks",
      ".git/info",
      ".git/modules/sub/config",
      ".git/modules/sub/hooks",
      ".github/workflows",
      ".husky",
      ".toolgateignore",
      ".vscode",
      "pkg/.mcp.json",
      "sub/.git",
    ]);
    expect(rel(s.hiddenDirs)).toEqual(["secrets"]);
    expect(rel(s.hiddenFiles)).toEqual(["src/key.pem"]);
  });

  it("binds where a protected or ignored link leads; a dangling ignored link needs nothing", () => {
    const outside = tree({ "shared/settings.json": "{}", "real.pem": "x" });
    const t = tree(
      { ".toolgateignore": "*.pem\n", ".vscode/x.txt": "" },
      {
        "link.pem": `${outside.dir}/real.pem`,
        "gone.pem": `${outside.dir}/nothing`,
        "ws.code-workspace": `${outside.dir}/shared/settings.json`,
      },
    );
    const s = scanWorkspace([t.dir], ".toolgateignore");
    expect(s.hiddenFiles).toEqual([`${outside.dir}/real.pem`]);
    expect(s.readOnly).toContain(`${outside.dir}/shared/settings.json`);
  });

  it("gives up past its entry limit instead of computing an incomplete hidden set", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${i}`] = "";
    const t = tree(files);
    expect(() => scanWorkspace([t.dir], ".toolgateignore", 10)).toThrow(ScanTooLargeError);
  });

  it("refuses more separate mounts than the limit, and says how to fix it", () => {
    const files: Record<string, string> = { ".toolgateignore": "*.log\n" };
    for (let i = 0; i <= MOUNT_LIMIT; i++) files[`logs/${i}.log`] = "";
    const t = tree(files);
    expect(() => scanWorkspace([t.dir], ".toolgateignore")).toThrow(/ignore whole directories/);
    writeFileSync(t.path(".toolgateignore"), "logs/\n");
    expect(scanWorkspace([t.dir], ".toolgateignore").hiddenDirs).toEqual([t.path("logs")]);
  });
});

describe("protected-path snapshot", () => {
  it("sees a protected entry created in a directory listed before, even with its mtime set back", async () => {
    const t = tree({ "a/b/x.txt": "" });
    const mtime = new Date(1_000_000_000_000);
    utimesSync(t.path("a/b"), mtime, mtime);
    await new Promise((r) => setTimeout(r, 1100)); // old enough for its listing to be reused
    const first = takeSnapshot([t.dir], ".toolgateignore");
    mkdirSync(t.path("a/b/.git"));
    utimesSync(t.path("a/b"), mtime, mtime);
    await new Promise((r) => setTimeout(r, 1100)); // a command that waits before it ends
    const changes = compareSnapshots(first, takeSnapshot([t.dir], ".toolgateignore"));
    expect(changes.map((c) => c.path)).toEqual([t.path("a/b/.git")]);
  });

  it("reports a git directory that appeared (once, not each file below it) and a new .vscode/settings.json", () => {
    const t = tree({ "src/a.ts": "", "sub/deep/x": "" });
    const before = takeSnapshot([t.dir], ".toolgateignore");
    mkdirSync(t.path("sub/deep/.git/hooks"), { recursive: true });
    writeFileSync(t.path("sub/deep/.git/config"), "[core]");
    writeFileSync(t.path("sub/deep/.git/hooks/pre-commit"), "#!/bin/sh\n");
    mkdirSync(t.path(".vscode"));
    writeFileSync(t.path(".vscode/settings.json"), "{}");
    writeFileSync(t.path("src/b.ts"), "");
    const changes = compareSnapshots(before, takeSnapshot([t.dir], ".toolgateignore"));
    expect(changes.map((c) => [c.kind, c.path.slice(t.dir.length + 1), c.what])).toEqual([
      ["added", ".vscode", "editor configuration (.vscode)"],
      ["added", "sub/deep/.git", "a git directory"],
    ]);
    for (const c of changes) expect(applyUndo(undoData(c, before))).toBe(c.kind === "added" ? "removed" : "restored");
    expect(existsSync(t.path("sub/deep/.git"))).toBe(false);
    expect(existsSync(t.path(".vscode"))).toBe(false);
    expect(existsSync(t.path("src/b.ts"))).toBe(true);
  });

  it("reports a changed hook and git config and restores the copy kept before the run", () => {
    const t = tree({ ".git/config": "[core]\n", ".git/hooks/pre-commit": "ok\n", ".gitmodules": "" });
    const before = takeSnapshot([t.dir], ".toolgateignore");
    writeFileSync(t.path(".git/config"), "[core]\nfsmonitor = evil\n");
    writeFileSync(t.path(".git/hooks/pre-commit"), "evil\n");
    writeFileSync(t.path(".git/hooks/post-checkout"), "evil\n");
    symlinkSync("/etc/passwd", t.path(".git/hooks/pre-push"));
    const changes = compareSnapshots(before, takeSnapshot([t.dir], ".toolgateignore"));
    expect(changes.map((c) => `${c.kind} ${c.path.slice(t.dir.length + 1)} (${c.what})`)).toEqual([
      "changed .git/config (the git configuration)",
      "added .git/hooks/post-checkout (a git hook)",
      "changed .git/hooks/pre-commit (a git hook)",
      "added .git/hooks/pre-push (a git hook)",
    ]);
    for (const c of changes) expect(applyUndo(undoData(c, before))).toBe(c.kind === "added" ? "removed" : "restored");
    expect(readFileSync(t.path(".git/config"), "utf8")).toBe("[core]\n");
    expect(readFileSync(t.path(".git/hooks/pre-commit"), "utf8")).toBe("ok\n");
    expect(compareSnapshots(before, takeSnapshot([t.dir], ".toolgateignore"))).toEqual([]);
  });
});
