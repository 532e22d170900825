/**
 * Checkpoints with real git, real files and real bash: every step can be restored byte for byte, the person's
 * own edits survive, and a restore can itself be undone.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bash, chmodX, fileState, makeService, tempDir, write, type Fixture } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function workspace(): string {
  const dir = tempDir();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  write(dir, "a.txt", "alpha\n");
  write(dir, "src/b.ts", "export const b = 1;\r\n// crlf stays crlf\r\n");
  write(dir, "bin/blob.dat", randomBytes(4096));
  write(dir, "run.sh", "#!/bin/sh\necho hi\n");
  chmodX(dir, "run.sh");
  // Attributes that would convert line endings if the shadow store honoured them.
  write(dir, ".gitattributes", "* text eol=crlf\n");
  write(dir, "lf.txt", "one\ntwo\n");
  symlinkSync("a.txt", path.join(dir, "link-to-a"));
  return dir;
}

function fixture(roots: string[], opts: Parameters<typeof makeService>[1] = {}): Fixture {
  const fx = makeService(roots, opts);
  cleanups.push(fx.cleanup);
  return fx;
}

describe("checkpoints: record and restore", () => {
  it("restores to before each step (write, replace, a command that deletes and creates) byte for byte", async () => {
    const root = workspace();
    const { service } = fixture([root]);
    const states: Map<string, string>[] = [];
    const step = async (stepId: string, tool: string, act: () => void) => {
      states.push(fileState(root));
      const b = await service.before({ taskId: "t1", stepId, tool, mayChange: true });
      expect(b.recorded).toBe(true);
      act();
      const a = await service.after({ taskId: "t1", stepId });
      expect(a).toMatchObject({ recorded: true });
      return a;
    };
    await step("s1", "write_to_file", () => {
      write(root, "a.txt", "alpha rewritten\n");
      write(root, "docs/new.md", "# new\n");
    });
    await step("s2", "replace_in_file", () => write(root, "src/b.ts", "export const b = 2;\r\n// crlf stays crlf\r\n"));
    const s3 = await step("s3", "execute_command", () =>
      bash(root, "rm lf.txt && mkdir -p gen && printf 'x\\n' > gen/out.txt && mv run.sh run2.sh && rm link-to-a"),
    );
    expect(s3).toEqual({ recorded: true, changedFiles: 5 });
    const end = fileState(root);

    for (const k of [2, 1, 0]) {
      const r = await service.restore("t1", `s${k + 1}`);
      expect(r.kept).toEqual([]);
      expect(fileState(root)).toEqual(states[k]);
    }
    // Every restore recorded an undo point; the first one brings back the task's end state.
    const list = (await service.list("t1"))!;
    expect(list.steps.map((s) => s.kind)).toEqual(["tool", "tool", "tool", "restore", "restore", "restore"]);
    await service.restore("t1", list.steps[3]!.stepId);
    expect(fileState(root)).toEqual(end);
  });

  it("the plan shows what restoring will do, and restoring by step number works", async () => {
    const root = workspace();
    const { service } = fixture([root]);
    await service.before({ taskId: "t", stepId: "call-1", tool: "execute_command", mayChange: true });
    bash(root, "printf 'changed\\n' > a.txt && rm lf.txt && printf 'n\\n' > made.txt");
    await service.after({ taskId: "t", stepId: "call-1" });

    const plan = await service.plan("t", "1");
    expect(plan.files.map((f) => [f.path, f.action, f.kept ?? "apply"])).toEqual([
      ["a.txt", "revert", "apply"],
      ["lf.txt", "recreate", "apply"],
      ["made.txt", "delete", "apply"],
    ]);
    expect(plan.patch).toContain("--- a/a.txt");
    expect(plan.patch).toContain("-changed\n+alpha\n");
    expect(plan.patch).toContain("+++ b/lf.txt");
    expect(plan.patch).toContain("deleted file mode");
    // Planning touched nothing.
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("changed\n");

    const all = await service.diff("t");
    expect(all.files.map((f) => [f.path, f.status])).toEqual([
      ["a.txt", "modified"],
      ["lf.txt", "deleted"],
      ["made.txt", "added"],
    ]);
    expect(all.patch).toContain("-alpha\n+changed\n");
  });

  it("keeps the person's edits (after the last step and between steps) and reports them; overwrites on request", async () => {
    const root = workspace();
    const { service } = fixture([root]);
    await service.before({ taskId: "t", stepId: "s1", tool: "write_to_file", mayChange: true });
    write(root, "a.txt", "agent 1\n");
    await service.after({ taskId: "t", stepId: "s1" });
    // The person edits a file the agent never touches, between two steps.
    write(root, "lf.txt", "person's lf\n");
    await service.before({ taskId: "t", stepId: "s2", tool: "write_to_file", mayChange: true });
    write(root, "src/b.ts", "agent 2\n");
    await service.after({ taskId: "t", stepId: "s2" });
    // After the last step: the person edits a file the agent changed, and creates one.
    write(root, "a.txt", "person edited after the agent\n");
    write(root, "notes.txt", "person's notes\n");

    const plan = await service.plan("t", "s1");
    const byPath = new Map(plan.files.map((f) => [f.path, f]));
    expect(byPath.get("a.txt")).toMatchObject({ editedByPerson: true, kept: "editedByPerson" });
    expect(byPath.get("lf.txt")).toMatchObject({ editedByPerson: true, kept: "editedByPerson" });
    expect(byPath.get("notes.txt")).toMatchObject({ action: "delete", kept: "editedByPerson" });
    expect(byPath.get("src/b.ts")).toMatchObject({ editedByPerson: false });
    expect(plan.patch).not.toContain("a.txt");

    const r = await service.restore("t", "s1");
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("person edited after the agent\n");
    expect(readFileSync(path.join(root, "lf.txt"), "utf8")).toBe("person's lf\n");
    expect(readFileSync(path.join(root, "notes.txt"), "utf8")).toBe("person's notes\n");
    expect(readFileSync(path.join(root, "src/b.ts"), "utf8")).toBe("export const b = 1;\r\n// crlf stays crlf\r\n");
    expect(r.kept.map((k) => [path.basename(k.abs), k.reason]).sort()).toEqual([
      ["a.txt", "editedByPerson"],
      ["lf.txt", "editedByPerson"],
      ["notes.txt", "editedByPerson"],
    ]);

    // The per-file choice: overwrite a.txt only.
    await service.restore("t", "s1", { overwrite: [path.join(root, "a.txt")] });
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("alpha\n");
    expect(readFileSync(path.join(root, "notes.txt"), "utf8")).toBe("person's notes\n");
    // force: everything back to before s1, the person's edits included.
    await service.restore("t", "s1", { force: true });
    expect(existsSync(path.join(root, "notes.txt"))).toBe(false);
    expect(readFileSync(path.join(root, "lf.txt"), "utf8")).toBe("one\ntwo\n");
  });

  it("a restore is undone by restoring to the checkpoint it recorded", async () => {
    const root = workspace();
    const { service } = fixture([root]);
    await service.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    bash(root, "rm -r src bin && printf 'new\\n' > a.txt");
    await service.after({ taskId: "t", stepId: "s1" });
    const afterAgent = fileState(root);
    const r = await service.restore("t", "s1");
    expect(r.undo).toBeDefined();
    expect(existsSync(path.join(root, "src/b.ts"))).toBe(true);
    const undone = await service.restore("t", r.undo!.stepId);
    expect(undone.kept).toEqual([]);
    expect(fileState(root)).toEqual(afterAgent);
  });

  it("multi-root: each root is recorded and restored, and the diff names the root", async () => {
    const r1 = workspace();
    const r2 = tempDir();
    cleanups.push(() => rmSync(r2, { recursive: true, force: true }));
    write(r2, "other.txt", "second root\n");
    const { service } = fixture([r1, r2]);
    const before1 = fileState(r1);
    const before2 = fileState(r2);
    await service.before({ taskId: "m", stepId: "s1", tool: "execute_command", mayChange: true });
    write(r1, "a.txt", "changed in root 1\n");
    write(r2, "other.txt", "changed in root 2\n");
    write(r2, "more/new.txt", "new\n");
    await service.after({ taskId: "m", stepId: "s1" });
    const d = await service.diff("m");
    expect(d.files.map((f) => f.abs).sort()).toEqual(
      [path.join(r1, "a.txt"), path.join(r2, "more/new.txt"), path.join(r2, "other.txt")].sort(),
    );
    expect(d.patch).toContain(`--- a/${path.basename(r2)}/other.txt`);
    await service.restore("m", "s1");
    expect(fileState(r1)).toEqual(before1);
    expect(fileState(r2)).toEqual(before2);
  });

  it("writes and deletes nothing through a link, and never replaces a folder", async () => {
    const root = workspace();
    const outside = tempDir();
    cleanups.push(() => rmSync(outside, { recursive: true, force: true }));
    writeFileSync(path.join(outside, "x.txt"), "outside\n");
    const { service } = fixture([root]);
    await service.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    // The agent replaces the folder src with a link to a folder outside the workspace.
    bash(root, `rm -r src && ln -s ${outside} src`);
    await service.after({ taskId: "t", stepId: "s1" });
    const r = await service.restore("t", "s1");
    expect(readFileSync(path.join(outside, "x.txt"), "utf8")).toBe("outside\n");
    expect(existsSync(path.join(outside, "b.ts"))).toBe(false);
    expect(readFileSync(path.join(root, "src/b.ts"), "utf8")).toContain("export const b = 1;");
    expect(r.kept).toEqual([]);
  });

  it("a file the agent turned into a folder (and a folder into a file) comes back as it was", async () => {
    const root = workspace();
    const { service } = fixture([root]);
    const before = fileState(root);
    await service.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    bash(root, "rm a.txt && mkdir -p a.txt/inner && printf x > a.txt/inner/f && rm -r src && printf file > src");
    await service.after({ taskId: "t", stepId: "s1" });
    const r = await service.restore("t", "s1");
    expect(r.kept).toEqual([]);
    expect(fileState(root)).toEqual(before);
  });
});
