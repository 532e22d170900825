/**
 * Deleting a task from the history (agent/history/taskDeletion.ts) with real git: its history entry and
 * transcript go, its record goes, and the shadow store drops the trees and blobs only it named — while
 * another task's checkpoints in the same store still restore byte for byte, and the next checkpoint works.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { TaskHistory } from "../../../src/agent/history/taskHistory";
import { deleteTask } from "../../../src/agent/history/taskDeletion";
import type { TaskSnapshot } from "../../../src/agent/task/snapshot";
import { fileState, makeService, shadowDirs, shadowObjects, tempDir, write, type Fixture } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const ONLY_A = "ONLY-IN-TASK-A-3e8f1c";
const ONLY_B = "ONLY-IN-TASK-B-9a0d42";

function refs(gitDir: string): string[] {
  const r = spawnSync("git", ["for-each-ref", "--format=%(refname)"], { env: { ...process.env, GIT_DIR: gitDir } });
  return r.stdout.toString("utf8").split("\n").filter(Boolean);
}

function snapshot(id: string, title: string): TaskSnapshot {
  return {
    version: 1,
    id,
    title,
    createdAt: 1,
    updatedAt: 2,
    state: "completed",
    messages: [],
    conversation: [],
    keepFrom: 0,
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  };
}

describe("deleting a task drops its checkpoints", () => {
  it("its record, refs and objects go; another task's checkpoints survive and restore byte for byte", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    write(root, "shared.txt", "both tasks see this\n");
    const fx: Fixture = makeService([root]);
    cleanups.push(fx.cleanup);
    const { service } = fx;
    const step = async (taskId: string, stepId: string, act: () => void) => {
      expect((await service.before({ taskId, stepId, tool: "write_to_file", mayChange: true })).recorded).toBe(true);
      act();
      expect(await service.after({ taskId, stepId })).toMatchObject({ recorded: true });
    };
    // Task A writes a file and removes it again: its content lives only in A's checkpoints.
    await step("task-a", "a1", () => write(root, "a.txt", `${ONLY_A}\n`));
    await step("task-a", "a2", () => rmSync(path.join(root, "a.txt")));
    // Task B's own change, then it moves on: its content lives only in B's checkpoints.
    const beforeB = fileState(root);
    await step("task-b", "b1", () => write(root, "b.txt", `${ONLY_B}\n`));
    await step("task-b", "b2", () => write(root, "b.txt", "b, later\n"));
    // A's last step leaves a file: the latest checkpoint (and the stat cache) is A's.
    await step("task-a", "a3", () => write(root, "a3.txt", "task A left this\n"));
    const left = fileState(root).get("a3.txt")!;

    const [gitDir] = shadowDirs(fx.store);
    const history = new TaskHistory(tempDir("toolgate-history-"));
    cleanups.push(() => rmSync(history.dir, { recursive: true, force: true }));
    await history.save(snapshot("task-a", "task A"));
    await history.save(snapshot("task-b", "task B"));
    const treesOf = (taskId: string): Set<string> => {
      const rec = JSON.parse(readFileSync(path.join(service.workspaceDir, "tasks", `${taskId}.json`), "utf8")) as {
        steps: { roots: Record<string, { before: string; after?: string }> }[];
      };
      return new Set(rec.steps.flatMap((s) => Object.values(s.roots).flatMap((r) => [r.before, r.after ?? r.before])));
    };
    const treesB = treesOf("task-b");
    // The tree of the files as they are now is kept whoever recorded it (the next checkpoint starts from it).
    const now = JSON.parse(readFileSync(path.join(service.workspaceDir, "tasks", "task-a.json"), "utf8")) as {
      steps: { roots: Record<string, { after: string }> }[];
    };
    const current = Object.values(now.steps.at(-1)!.roots)[0]!.after;
    const onlyA = [...treesOf("task-a")].filter((t) => !treesB.has(t) && t !== current);
    expect(onlyA.length).toBeGreaterThan(0);
    expect(shadowObjects(gitDir!).toString("latin1")).toContain(ONLY_A);

    await deleteTask({ history, checkpointStore: fx.store, checkpointsFor: () => service }, "task-a");

    expect((await history.list()).map((t) => t.id)).toEqual(["task-b"]);
    expect(await history.load("task-a")).toBeUndefined();
    expect(await service.list("task-a")).toBeUndefined();
    expect(existsSync(path.join(fx.service.workspaceDir, "tasks", "task-a.json"))).toBe(false);
    const objects = shadowObjects(gitDir!).toString("latin1");
    expect(objects).not.toContain(ONLY_A);
    expect(objects).toContain(ONLY_B);
    // The live refs name B's trees, none of A's own.
    const live = refs(gitDir!).map((r) => r.replace("refs/tg/live/", ""));
    for (const t of treesB) expect(live).toContain(t);
    for (const t of onlyA) expect(live).not.toContain(t);

    // B is whole: restoring to before its first step brings its files back byte for byte (A's later file,
    // made by someone else as far as B knows, is kept).
    const expected = new Map([...beforeB, ["a3.txt", left]]);
    await service.restore("task-b", "b1");
    expect(fileState(root)).toEqual(expected);
    // And the store keeps working: the unchanged a3.txt is taken from the stat cache, whose blob survived.
    await step("task-b", "b3", () => write(root, "shared.txt", "changed after the delete\n"));
    await service.restore("task-b", "b3");
    expect(fileState(root)).toEqual(expected);
  });

  it("a task without checkpoints is deleted from the history alone; the store is left untouched", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    write(root, "x.txt", "x\n");
    const fx = makeService([root]);
    cleanups.push(fx.cleanup);
    await fx.service.before({ taskId: "other", stepId: "o1", tool: "write_to_file", mayChange: true });
    const history = new TaskHistory(tempDir("toolgate-history-"));
    cleanups.push(() => rmSync(history.dir, { recursive: true, force: true }));
    await history.save(snapshot("plain", "no files changed"));
    const asked: string[][] = [];
    await deleteTask(
      {
        history,
        checkpointStore: fx.store,
        checkpointsFor: (roots) => {
          asked.push([...roots]);
          return fx.service;
        },
      },
      "plain",
    );
    expect(await history.list()).toEqual([]);
    expect(asked).toEqual([]);
    expect(await fx.service.list("other")).toMatchObject({ steps: [{ stepId: "o1" }] });
  });
});
