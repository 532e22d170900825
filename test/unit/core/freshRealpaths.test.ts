import { afterAll, describe, expect, it } from "vitest";
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * Every decision resolves its paths afresh: a directory or file that becomes a link between two decisions of
 * the same gate is judged by where it leads at the second decision, never by what the first one saw. Real
 * files, the real gate.
 */
const t = tempTree({
  "ws/data/a.txt": "a",
  "ws/data/b.txt": "b",
  "ws/out/keep.txt": "k",
  "ws/dir/x.txt": "x",
  "ws/notes.md": "n",
  "ws/cfg.json": "{}",
  "ws/.env": "SECRET=1",
  "ws/.vscode/settings.json": "{}",
  "ws/.toolgateignore": ".env\n",
  "outside/a.txt": "outside a",
  "outside/b.txt": "outside b",
  "outside/inner/x.txt": "inner",
});
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const settings = { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } };
const read = (path: string) => call("read_file", { path });
const write = (path: string) => call("write_to_file", { path, content: "x" });

/** Replaces `rel` (a file or directory in the workspace) by a symlink to `target`, keeping the old one aside. */
function swapForLink(rel: string, target: string): void {
  renameSync(t.path(`ws/${rel}`), t.path(`ws/${rel}.old`));
  symlinkSync(target, t.path(`ws/${rel}`));
}

describe("a path that becomes a link between two decisions", () => {
  it("a directory read through before is judged by the link's target after the swap", async () => {
    const g = await gateWith(settings, roots);
    const first = g.decide(read("data/a.txt"));
    expect(first.decision).toBe("allow");
    expect(first.resolved?.path?.real).toBe(t.path("ws/data/a.txt"));
    swapForLink("data", t.path("outside"));
    const same = g.decide(read("data/a.txt"));
    expect(same).toMatchObject({ decision: "ask", rule: "autoApprove.readFilesExternally" });
    expect(same.resolved?.path?.real).toBe(t.path("outside/a.txt"));
    // Its sibling too, although the first decision saw `data` as a plain directory.
    const sibling = g.decide(read("data/b.txt"));
    expect(sibling.decision).toBe("ask");
    expect(sibling.resolved?.path?.real).toBe(t.path("outside/b.txt"));
  });

  it("a file that does not exist yet is written where its directory leads now", async () => {
    const g = await gateWith(settings, roots);
    expect(g.decide(write("out/new.txt")).decision).toBe("allow");
    swapForLink("out", t.path("outside"));
    const after = g.decide(write("out/new.txt"));
    expect(after).toMatchObject({ decision: "ask", rule: "autoApprove.editFilesExternally" });
    expect(after.resolved?.path?.real).toBe(t.path("outside/new.txt"));
  });

  it("`dir/..` follows the link `dir` has become (the parent of its target)", async () => {
    const g = await gateWith(settings, roots);
    const before = g.decide(write("dir/../made.txt"));
    expect(before.decision).toBe("allow");
    expect(before.resolved?.path?.real).toBe(t.path("ws/made.txt"));
    swapForLink("dir", t.path("outside/inner"));
    const after = g.decide(write("dir/../made.txt"));
    expect(after.decision).toBe("ask");
    expect(after.resolved?.path?.real).toBe(t.path("outside/made.txt"));
  });

  it("a file that becomes a link to an ignored file is refused", async () => {
    const g = await gateWith(settings, roots);
    expect(g.decide(read("notes.md")).decision).toBe("allow");
    swapForLink("notes.md", t.path("ws/.env"));
    expect(g.decide(read("notes.md"))).toMatchObject({ decision: "deny", rule: "ignoreFile: .toolgateignore" });
  });

  it("a file that becomes a link to a protected path asks before it is written", async () => {
    const g = await gateWith(settings, roots);
    expect(g.decide(write("cfg.json")).decision).toBe("allow");
    swapForLink("cfg.json", t.path("ws/.vscode/settings.json"));
    expect(g.decide(write("cfg.json")).rule).toMatch(/^protected: /);
  });

  it("a link swapped back for a plain directory counts as local again", async () => {
    const g = await gateWith(settings, roots);
    mkdirSync(t.path("ws/back"));
    writeFileSync(t.path("ws/back/f.txt"), "f");
    swapForLink("back", t.path("outside"));
    expect(g.decide(read("back/a.txt")).decision).toBe("ask");
    rmSync(t.path("ws/back"));
    renameSync(t.path("ws/back.old"), t.path("ws/back"));
    expect(g.decide(read("back/f.txt")).decision).toBe("allow");
  });
});

describe("several paths in one command", () => {
  it("each file of a directory seen in this decision is still checked for being a link itself", async () => {
    const g = await gateWith(settings, roots);
    mkdirSync(t.path("ws/mixed"));
    writeFileSync(t.path("ws/mixed/plain.txt"), "p");
    symlinkSync(t.path("ws/.env"), t.path("ws/mixed/env-link"));
    expect(g.decide(call("execute_command", { command: "cat mixed/plain.txt" })).decision).toBe("allow");
    expect(g.decide(call("execute_command", { command: "cat mixed/plain.txt mixed/env-link" })).decision).toBe("deny");
  });
});
