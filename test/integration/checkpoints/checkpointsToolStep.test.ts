/** The checkpoint around one tool call: taken before the handler, completed after it, even when it throws. */
import { readFileSync, rmSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mayChangeFiles, withCheckpoint, type RowCheckpoint } from "../../../src/agent/checkpoints/toolStep";
import { bash, makeService, tempDir, write } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe("withCheckpoint", () => {
  it("records before the handler runs and reports the changed files to the row; a failing handler still gets its after", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    write(root, "a.txt", "original\n");
    const fx = makeService([root]);
    cleanups.push(fx.cleanup);
    const rows: RowCheckpoint[] = [];
    const step = { taskId: "t", stepId: "tu_1", tool: "execute_command", mayChange: true };
    await expect(
      withCheckpoint(
        fx.service,
        step,
        async () => {
          bash(root, "printf 'half done\\n' > a.txt && printf x > b.txt");
          throw new Error("the command failed halfway");
        },
        (r) => rows.push(r),
      ),
    ).rejects.toThrow("halfway");
    await expect.poll(() => rows.length).toBe(2);
    expect(rows[0]).toMatchObject({ state: "recorded", stepId: "tu_1", seq: 1 });
    expect(rows[1]).toMatchObject({ state: "recorded", changedFiles: 2 });
    await fx.service.restore("t", "tu_1");
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("original\n");
  });

  it("a read-only call runs without a checkpoint; an unavailable store is reported and the call still runs", async () => {
    const root = tempDir();
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    const fx = makeService([root], { trusted: false });
    cleanups.push(fx.cleanup);
    const rows: RowCheckpoint[] = [];
    const ran: string[] = [];
    await withCheckpoint(fx.service, { taskId: "t", stepId: "r", tool: "read_file", mayChange: false }, async () => {
      ran.push("read");
    });
    await withCheckpoint(
      fx.service,
      { taskId: "t", stepId: "w", tool: "write_to_file", mayChange: true },
      async () => ran.push("write"),
      (r) => rows.push(r),
    );
    expect(ran).toEqual(["read", "write"]);
    expect(rows).toEqual([{ state: "unavailable", reason: expect.stringMatching(/Restricted Mode/) }]);
  });

  it("which calls may change files", () => {
    expect(mayChangeFiles("write_to_file")).toBe(true);
    expect(mayChangeFiles("replace_in_file")).toBe(true);
    expect(mayChangeFiles("execute_command")).toBe(true);
    expect(mayChangeFiles("execute_command", { commandReadOnly: true })).toBe(false);
    expect(mayChangeFiles("attempt_completion")).toBe(false);
    expect(mayChangeFiles("attempt_completion", { hasCommand: true })).toBe(true);
    expect(mayChangeFiles("use_mcp_tool")).toBe(true);
    expect(mayChangeFiles("use_mcp_tool", { mcpReadOnly: true })).toBe(false);
    expect(mayChangeFiles("read_file")).toBe(false);
    expect(mayChangeFiles("some_future_tool")).toBe(true);
  });
});
