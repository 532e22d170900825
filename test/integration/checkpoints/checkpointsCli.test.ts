/** `toolgate checkpoints` and `toolgate restore` through the real CLI entry point. */
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatRestoreHint } from "../../../src/cli/checkpoints";
import { buildCli, runCli } from "../../support/cli";
import { makeService, tempDir, write } from "./checkpointsFixture";

let cli: string;
beforeAll(async () => {
  cli = await buildCli();
});
const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups.splice(0)) c();
});

describe("toolgate checkpoints / restore", () => {
  it("lists the steps, previews a restore without changing anything, and restores with --yes", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    write(root, "a.txt", "before\n");
    write(root, "node_modules/x/i.js", "dep\n");
    const fx = makeService([root]);
    cleanups.push(fx.cleanup);
    await fx.service.before({
      taskId: "task-7",
      stepId: "tu_1",
      tool: "write_to_file",
      label: "write_to_file a.txt",
      mayChange: true,
    });
    write(root, "a.txt", "after\n");
    await fx.service.after({ taskId: "task-7", stepId: "tu_1" });

    const list = runCli(cli, ["checkpoints", "task-7", "--store", fx.store], "");
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(/^\s+1 .* 1 {2}write_to_file a\.txt$/m);
    expect(list.stdout).toContain("not recorded: 1 dependency/cache folders");

    const dry = runCli(cli, ["restore", "task-7", "1", "--store", fx.store, "--diff"], "");
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`restore  ${path.join(root, "a.txt")}`);
    expect(dry.stdout).toContain("-after\n+before\n");
    expect(dry.stdout).toContain("Nothing was changed");
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("after\n");

    const done = runCli(cli, ["restore", "task-7", "tu_1", "--store", fx.store, "--yes"], "");
    expect(done.status).toBe(0);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("before\n");
    expect(done.stdout).toMatch(/To undo this restore: toolgate restore task-7 2 --yes/);

    const undo = runCli(cli, ["restore", "task-7", "2", "--store", fx.store, "--yes"], "");
    expect(undo.status).toBe(0);
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("after\n");
  });

  it("says when a task has no checkpoints (exit 1) and rejects bad usage (exit 2)", () => {
    const store = tempDir();
    cleanups.push(() => rmSync(store, { recursive: true, force: true }));
    const none = runCli(cli, ["checkpoints", "nope", "--store", store], "");
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("No checkpoints of task nope");
    expect(runCli(cli, ["restore", "only-task"], "").status).toBe(2);
    expect(runCli(cli, ["checkpoints", "t", "--bogus"], "").status).toBe(2);
  });

  it("formats the line the headless run prints", () => {
    expect(formatRestoreHint("task-7")).toBe(
      "To undo the changes: toolgate restore task-7 1 --yes   (list the steps: toolgate checkpoints task-7)",
    );
    expect(formatRestoreHint("a b", 3, "/tmp/st")).toContain("toolgate restore 'a b' 3 --store /tmp/st --yes");
  });
});
