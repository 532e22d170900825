/**
 * The shadow store stays apart from the person's git: their repository, config, hooks and GIT_* variables
 * never take part. Trust, the enabled setting and a missing git stop recording; pruning keeps the store small.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileState, git, makeService, shadowDirs, shadowObjects, tempDir, write } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function dir(): string {
  const d = tempDir();
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function service(roots: string[], opts: Parameters<typeof makeService>[1] = {}) {
  const fx = makeService(roots, opts);
  cleanups.push(fx.cleanup);
  return fx;
}

describe("checkpoints: isolation from the person's git", () => {
  it("never reads the person's repository, config, hooks or GIT_* variables, and never writes their .git", async () => {
    const root = dir();
    const marker = path.join(dir(), "ran");
    const hook = path.join(dir(), "hook.sh");
    write(path.dirname(hook), "hook.sh", `#!/bin/sh\necho "$0 $*" >> ${marker}\n`);
    chmodSync(hook, 0o755);
    write(root, "a.txt", "a\r\nb\r\n");
    git(root, "init", "-q");
    git(root, "add", ".");
    git(root, "commit", "-qm", "person's history");
    // The repository's config and a global config that would run code or convert bytes if git read them.
    git(root, "config", "core.fsmonitor", hook);
    git(root, "config", "core.hooksPath", path.dirname(hook));
    git(root, "config", "core.autocrlf", "true");
    const home = dir();
    write(
      home,
      ".gitconfig",
      `[core]\n\tfsmonitor = ${hook}\n\tautocrlf = true\n\thooksPath = ${path.dirname(hook)}\n`,
    );
    const personGit = fileState(path.join(root, ".git"), { includeGit: true });
    const saved = { ...process.env };
    Object.assign(process.env, {
      HOME: home,
      GIT_CONFIG_GLOBAL: path.join(home, ".gitconfig"),
      GIT_DIR: path.join(root, ".git"),
      GIT_WORK_TREE: home,
      GIT_INDEX_FILE: path.join(root, ".git", "index"),
      GIT_OBJECT_DIRECTORY: path.join(root, ".git", "objects"),
    });
    try {
      const { service: s } = service([root]);
      await s.before({ taskId: "t", stepId: "s1", tool: "write_to_file", mayChange: true });
      write(root, "a.txt", "agent\n");
      await s.after({ taskId: "t", stepId: "s1" });
      await s.restore("t", "s1");
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\r\nb\r\n");
    expect(existsSync(marker)).toBe(false);
    const nowGit = fileState(path.join(root, ".git"), { includeGit: true });
    expect(nowGit).toEqual(personGit);
    expect(git(root, "log", "--oneline").trim().split("\n")).toHaveLength(1);
  });
});

describe("checkpoints: when nothing is recorded", () => {
  it("untrusted: nothing is recorded or restored, and the store is not created", async () => {
    const root = dir();
    write(root, "a.txt", "a\n");
    const fx = service([root], { trusted: false });
    expect(await fx.service.availability()).toMatchObject({
      available: false,
      reason: expect.stringMatching(/Restricted Mode/),
    });
    const b = await fx.service.before({ taskId: "t", stepId: "s1", tool: "write_to_file", mayChange: true });
    expect(b).toMatchObject({ recorded: false, reason: expect.stringMatching(/Restricted Mode/) });
    expect(readdirSync(fx.store)).toEqual([]);

    // Trusted for one step, then trust is gone: restore refuses and changes nothing.
    fx.trusted = true;
    await fx.service.before({ taskId: "t", stepId: "s2", tool: "write_to_file", mayChange: true });
    write(root, "a.txt", "agent\n");
    fx.trusted = false;
    await expect(fx.service.restore("t", "s2")).rejects.toThrow(/Restricted Mode/);
    await expect(fx.service.plan("t", "s2")).rejects.toThrow(/Restricted Mode/);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("agent\n");
  });

  it("disabled: nothing is recorded; what was recorded can still be restored", async () => {
    const root = dir();
    write(root, "a.txt", "a\n");
    const fx = service([root]);
    await fx.service.before({ taskId: "t", stepId: "s1", tool: "write_to_file", mayChange: true });
    write(root, "a.txt", "agent\n");
    fx.settings = { ...fx.settings, enabled: false };
    expect(await fx.service.availability()).toMatchObject({
      available: false,
      reason: expect.stringMatching(/turned off/),
    });
    expect(await fx.service.before({ taskId: "t", stepId: "s2", tool: "x", mayChange: true })).toMatchObject({
      recorded: false,
    });
    expect((await fx.service.list("t"))!.steps.map((s) => s.stepId)).toEqual(["s1"]);
    await fx.service.restore("t", "s1");
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
  });

  it("a read-only call records nothing; without git the reason says so", async () => {
    const root = dir();
    const fx = service([root]);
    expect(await fx.service.before({ taskId: "t", stepId: "r", tool: "read_file", mayChange: false })).toMatchObject({
      recorded: false,
    });
    expect(readdirSync(fx.store)).toEqual([]);
    const noGit = service([root], { gitPath: path.join(root, "no-such-git") });
    expect(await noGit.service.availability()).toEqual({
      available: false,
      reason: expect.stringMatching(/git was not found/),
    });
    expect(await noGit.service.before({ taskId: "t", stepId: "w", tool: "x", mayChange: true })).toMatchObject({
      recorded: false,
      reason: expect.stringMatching(/git was not found/),
    });
  });
});

describe("checkpoints: two processes on one store", () => {
  it("a restore made elsewhere (the CLI) is not lost when the editor records the next step", async () => {
    const root = dir();
    write(root, "a.txt", "a\n");
    const editor = service([root]);
    const cli = makeService([root], { store: editor.store });
    await editor.service.before({ taskId: "t", stepId: "s1", tool: "write_to_file", mayChange: true });
    write(root, "a.txt", "agent\n");
    await editor.service.after({ taskId: "t", stepId: "s1" });
    await cli.service.restore("t", "1");
    await editor.service.before({ taskId: "t", stepId: "s2", tool: "write_to_file", mayChange: true });
    const steps = (await cli.service.list("t"))!.steps;
    expect(steps.map((s) => [s.seq, s.kind])).toEqual([
      [1, "tool"],
      [2, "restore"],
      [3, "tool"],
    ]);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
  });
});

describe("checkpoints: pruning", () => {
  it("drops the oldest tasks past the size cap, compacts, and keeps the newest task restorable", async () => {
    const root = dir();
    const fx = service([root]);
    for (let i = 1; i <= 4; i++) {
      // Content only this task ever saw, incompressible so the store's size is felt.
      write(root, `t${i}.bin`, Buffer.concat([Buffer.from(`TASK-${i}-ONLY-`), randomBytes(100 * 1024)]));
      await fx.service.before({ taskId: `task${i}`, stepId: "s1", tool: "x", mayChange: true });
      rmSync(path.join(root, `t${i}.bin`));
      await fx.service.after({ taskId: `task${i}`, stepId: "s1" });
      await new Promise((r) => setTimeout(r, 5));
    }
    fx.settings = { ...fx.settings, maxSizeMB: 0.25 };
    const r = await fx.service.prune();
    expect(r.gc).toBe(true);
    expect(r.droppedTasks).toContain("task1");
    expect(r.droppedTasks).not.toContain("task4");
    expect(await fx.service.list("task1")).toBeUndefined();
    const objects = shadowObjects(shadowDirs(fx.store)[0]!).toString("latin1");
    expect(objects).not.toContain("TASK-1-ONLY-");
    expect(objects).toContain("TASK-4-ONLY-");
    await fx.service.restore("task4", "s1");
    expect(existsSync(path.join(root, "t4.bin"))).toBe(true);
  });
});
