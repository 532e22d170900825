/**
 * Undoing a sandboxed command's protected-path changes from the data saved with the task (real files): only
 * the state the command left is undone; a path changed again since (the person's edit) is kept as it is.
 * The data goes through JSON, as it does when the task is saved and restored.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { compareSnapshots, takeSnapshot } from "../../../src/agent/sandbox/protectedSnapshot";
import {
  applyUndo,
  undoData,
  undoProtectedChanges,
  type ProtectedUndo,
} from "../../../src/agent/sandbox/protectedUndo";
import { tempTree, type TempTree } from "../../support/workspace";

let trees: TempTree[] = [];
afterEach(() => {
  for (const t of trees) t.cleanup();
  trees = [];
});
function tree(files: Record<string, string>): TempTree {
  const t = tempTree(files);
  trees.push(t);
  return t;
}

/** Runs `change` between two snapshots and returns each change's undo data, saved and read back. */
function changedBy(t: TempTree, change: () => void): ProtectedUndo[] {
  const before = takeSnapshot([t.dir], ".toolgateignore");
  change();
  const changes = compareSnapshots(before, takeSnapshot([t.dir], ".toolgateignore"));
  return JSON.parse(JSON.stringify(changes.map((c) => undoData(c, before)))) as ProtectedUndo[];
}

describe("undoing a protected change from saved data", () => {
  it("removes an appeared git directory and restores a changed settings file, and nothing else", () => {
    const t = tree({ ".vscode/settings.json": "{}\n", "src/a.ts": "a" });
    const undo = changedBy(t, () => {
      mkdirSync(t.path("sub/.git/hooks"), { recursive: true });
      writeFileSync(t.path("sub/.git/hooks/pre-commit"), "#!/bin/sh\n");
      writeFileSync(t.path(".vscode/settings.json"), '{"evil": true}\n');
      writeFileSync(t.path("src/b.ts"), "b");
    });
    expect(undo.map((u) => [u.kind, u.path.slice(t.dir.length + 1)])).toEqual([
      ["changed", ".vscode/settings.json"],
      ["added", "sub/.git"],
    ]);
    expect(undo.map(applyUndo)).toEqual(["restored", "removed"]);
    expect(readFileSync(t.path(".vscode/settings.json"), "utf8")).toBe("{}\n");
    expect(existsSync(t.path("sub/.git"))).toBe(false);
    expect(existsSync(t.path("sub"))).toBe(true);
    expect(readFileSync(t.path("src/b.ts"), "utf8")).toBe("b");
  });

  it("keeps a planted hook the person edited after the command, and a repository they used since", () => {
    const t = tree({ "src/a.ts": "" });
    const undo = changedBy(t, () => {
      mkdirSync(t.path(".vscode"));
      writeFileSync(t.path(".vscode/settings.json"), "{}\n");
      mkdirSync(t.path("r/.git/hooks"), { recursive: true });
      writeFileSync(t.path("r/.git/HEAD"), "ref: refs/heads/main\n");
    });
    writeFileSync(t.path(".vscode/settings.json"), '{"mine": 1}\n');
    writeFileSync(t.path("r/.git/index"), "the person's git add");
    expect(undo.map(applyUndo)).toEqual(["changedSince", "changedSince"]);
    expect(readFileSync(t.path(".vscode/settings.json"), "utf8")).toBe('{"mine": 1}\n');
    expect(readFileSync(t.path("r/.git/index"), "utf8")).toBe("the person's git add");
  });

  it("a changed file the person already put back, or an appeared one they removed, counts as undone", () => {
    const t = tree({ ".git/hooks/pre-commit": "ok\n" });
    const undo = changedBy(t, () => {
      writeFileSync(t.path(".git/hooks/pre-commit"), "evil\n");
      writeFileSync(t.path(".git/hooks/post-merge"), "evil\n");
    });
    writeFileSync(t.path(".git/hooks/pre-commit"), "ok\n");
    rmSync(t.path(".git/hooks/post-merge"));
    expect(undo.map((u) => [u.kind, applyUndo(u)])).toEqual([
      ["added", "removed"],
      ["changed", "restored"],
    ]);
    expect(readFileSync(t.path(".git/hooks/pre-commit"), "utf8")).toBe("ok\n");
  });

  it("restores a vanished file only while it is still missing", () => {
    const t = tree({ ".git/hooks/pre-push": "mine\n", ".git/hooks/pre-commit": "mine too\n" });
    const undo = changedBy(t, () => {
      rmSync(t.path(".git/hooks/pre-push"));
      rmSync(t.path(".git/hooks/pre-commit"));
    });
    writeFileSync(t.path(".git/hooks/pre-push"), "recreated by the person\n");
    const byName = (n: string) => undo.find((u) => u.path.endsWith(n))!;
    expect(applyUndo(byName("pre-push"))).toBe("changedSince");
    expect(applyUndo(byName("pre-commit"))).toBe("restored");
    expect(readFileSync(t.path(".git/hooks/pre-push"), "utf8")).toBe("recreated by the person\n");
    expect(readFileSync(t.path(".git/hooks/pre-commit"), "utf8")).toBe("mine too\n");
  });

  it("data without the state the command left cannot be checked: kept, never deleted", () => {
    const t = tree({});
    const [u] = changedBy(t, () => writeFileSync(t.path(".mcp.json"), "{}"));
    const { left: _left, ...old } = u!;
    expect(applyUndo(old)).toBe("changedSince");
    expect(existsSync(t.path(".mcp.json"))).toBe(true);
  });

  it("entries listed inside an appeared directory share its outcome", () => {
    const t = tree({});
    const [u] = changedBy(t, () => {
      mkdirSync(t.path(".git/hooks"), { recursive: true });
      writeFileSync(t.path(".git/hooks/pre-commit"), "x");
    });
    const dir = t.path(".git");
    const hook = t.path(".git/hooks/pre-commit");
    const views = undoProtectedChanges([
      { view: { path: dir, kind: "appeared", what: "a git directory" }, undo: u! },
      { view: { path: hook, kind: "appeared", what: "a git hook", within: dir } },
    ]);
    expect(views.map((v) => v.outcome)).toEqual(["removed", "removed"]);
  });
});
