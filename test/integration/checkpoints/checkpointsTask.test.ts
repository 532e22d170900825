/**
 * Checkpoints through the real task loop: the scripted model writes a file, replaces text in another, and runs
 * a command that deletes and creates files; the person edits a file in between. Restoring from each row, the
 * way the editor does it (rowRestore.ts), brings every covered file back byte for byte, keeps the person's
 * edit unless they choose to overwrite it, and never reads ignored files into the shadow store.
 */
import { writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { reviewRestore, restoreReviewed, rowStep } from "../../../src/agent/checkpoints/rowRestore";
import { restorableStep } from "../../../src/shared/checkpointRows";
import type { TaskMessage } from "../../../src/shared/messages";
import { startHarness, type Harness } from "../../support/agentHarness";
import { fileState, late, makeService, shadowDirs, shadowObjects, type Fixture } from "./checkpointsFixture";

const open: (Harness | Fixture)[] = [];
afterEach(async () => {
  for (const x of open.splice(0)) {
    if ("close" in x) await x.close();
    else x.cleanup();
  }
});

const SECRET = "TOP-SECRET-7f3a9c-never-in-the-store";
const BUILD = "BUILD-OUTPUT-51d2e0-gitignored";

const call = (tool: string, args: Record<string, unknown>) => ({ steps: [{ tool, args }] });

const rowOf = (h: Harness, tool: string): TaskMessage => h.task.store.messages.find((m) => m.tool?.name === tool)!;

describe("checkpoints in a task", () => {
  it("restores to before each step byte for byte, keeps the person's edit, and never reads ignored files", async () => {
    const ref: { fx?: Fixture } = {};
    const before = new Map<string, Map<string, string>>();
    const h: Harness = await startHarness({
      files: {
        "a.txt": "alpha\nline two\n",
        "b.txt": "bravo\n",
        "notes.md": "the person's notes\n",
        ".toolgateignore": "secret.txt\n",
        "secret.txt": SECRET,
        ".gitignore": "build/\n",
        "build/out.js": BUILD,
      },
      turns: [
        call("write_to_file", { path: "new.txt", content: "brand new\n" }),
        call("replace_in_file", {
          path: "a.txt",
          diff: "------- SEARCH\nalpha\n=======\nALPHA\n+++++++ REPLACE",
        }),
        call("execute_command", { command: "rm b.txt && mkdir -p gen && printf 'made\\n' > gen/c.txt" }),
        call("attempt_completion", { result: "done" }),
      ],
      // Every call asks in normal mode: the answer is where the person looks at (and edits) the files.
      answer: async (m) => {
        const h2 = h;
        if (m.tool?.name === "execute_command") {
          // The person edits a file once the previous step was fully recorded (as a person would, later).
          await expect.poll(() => rowOf(h2, "replace_in_file").tool?.checkpoint).toMatchObject({ changedFiles: 1 });
          writeFileSync(path.join(h2.dir, "notes.md"), "the person's notes, edited\n");
        }
        if (m.tool) before.set(m.tool.name, fileState(h2.dir));
        return { kind: "approve" };
      },
      deps: { checkpoints: late(() => ref.fx!.service) },
    });
    open.push(h);
    const fx = (ref.fx = makeService([h.dir]));
    open.push(fx);
    const state = await h.task.run();
    expect(state).toBe("completed");

    const write = rowOf(h, "write_to_file");
    const replace = rowOf(h, "replace_in_file");
    const command = rowOf(h, "execute_command");
    await expect
      .poll(() => h.task.store.get(command.id)?.tool?.checkpoint)
      .toMatchObject({
        state: "recorded",
        changedFiles: 2,
      });
    expect(h.task.store.get(write.id)?.tool?.checkpoint).toMatchObject({ state: "recorded", seq: 1, changedFiles: 1 });
    expect(h.task.store.get(replace.id)?.tool?.checkpoint).toMatchObject({ seq: 2, changedFiles: 1 });
    // What the checkpoint left out is on the row, for the panel.
    expect(h.task.store.get(write.id)?.tool?.checkpoint).toMatchObject({
      skipped: { counts: { ignoreFile: 1, gitignored: 1 } },
    });
    // The completion ran no command: no checkpoint, no restore.
    const completion = h.task.store.messages.find((m) => m.kind === "completion")!;
    expect(completion.tool?.checkpoint).toBeUndefined();
    expect(restorableStep(completion)).toBeUndefined();
    // The checkpoint is part of the saved task.
    expect(h.task.snapshot().messages.find((m) => m.id === command.id)?.tool?.checkpoint).toMatchObject({ seq: 3 });

    const service = fx.service;
    const taskId = h.task.id;
    const edited = fileState(h.dir).get("notes.md");

    // What the editor's diffs show: a file before a step, and at the end of the task.
    const bytes = async (rel: string, at: { before: string } | "end") => {
      const b = await service.fileAt(taskId, path.join(h.dir, rel), at);
      return b === undefined ? undefined : Buffer.from(b).toString("utf8");
    };
    expect(await bytes("a.txt", { before: rowStep(h.task.store.get(replace.id)) })).toBe("alpha\nline two\n");
    expect(await bytes("a.txt", "end")).toBe("ALPHA\nline two\n");
    expect(await bytes("new.txt", { before: rowStep(h.task.store.get(write.id)) })).toBeUndefined();
    expect(await bytes("secret.txt", { before: rowStep(h.task.store.get(write.id)) })).toBeUndefined();

    // Step 3 (the command): b.txt comes back, gen/c.txt goes; the person's edit was before this step.
    let review = await reviewRestore(service, taskId, rowStep(h.task.store.get(command.id)));
    expect(review.undone.map((f) => [f.path, f.action])).toEqual([
      ["b.txt", "recreate"],
      ["gen/c.txt", "delete"],
    ]);
    expect(review.personEdits).toEqual([]);
    await restoreReviewed(service, review, false);
    const afterStep3 = fileState(h.dir);
    expect(afterStep3).toEqual(before.get("execute_command"));

    // Step 2 (the replace): a.txt back; notes.md was edited by the person after the agent: kept.
    review = await reviewRestore(service, taskId, rowStep(h.task.store.get(replace.id)));
    expect(review.undone.map((f) => f.path)).toEqual(["a.txt"]);
    expect(review.personEdits.map((f) => f.path)).toEqual(["notes.md"]);
    await restoreReviewed(service, review, false);
    const expected2 = new Map(before.get("replace_in_file"));
    expected2.set("notes.md", edited!);
    expect(fileState(h.dir)).toEqual(expected2);

    // Step 1 (the write): new.txt goes; the person's edit is still kept.
    review = await reviewRestore(service, taskId, rowStep(h.task.store.get(write.id)));
    expect(review.undone.map((f) => [f.path, f.action])).toEqual([["new.txt", "delete"]]);
    await restoreReviewed(service, review, false);
    const expected1 = new Map(before.get("write_to_file"));
    expected1.set("notes.md", edited!);
    expect(fileState(h.dir)).toEqual(expected1);

    // Restoring is recorded: undoing the last restore brings back the files as they were before it.
    const list = await service.list(taskId);
    const undo = list!.steps[list!.steps.length - 1]!;
    expect(undo.kind).toBe("restore");
    await service.restore(taskId, undo.stepId);
    expect(fileState(h.dir)).toEqual(expected2);

    // "Overwrite my edits too": the person's edit goes as well, exactly the files the review listed.
    review = await reviewRestore(service, taskId, rowStep(h.task.store.get(write.id)));
    expect(review.personEdits.map((f) => f.path)).toEqual(["notes.md"]);
    await restoreReviewed(service, review, true);
    expect(fileState(h.dir)).toEqual(before.get("write_to_file"));

    // Ignored and gitignored files were never read into the store (and never touched on disk).
    for (const dir of shadowDirs(fx.store)) {
      const objects = shadowObjects(dir).toString("latin1");
      expect(objects).not.toContain(SECRET);
      expect(objects).not.toContain(BUILD);
      expect(objects).toContain("brand new");
    }
    expect(fileState(h.dir).get("secret.txt")).toBe(`-:${Buffer.from(SECRET).toString("base64")}`);
  });

  it("a command the gate judged read-only takes no checkpoint; an untrusted workspace records nothing and the row says why", async () => {
    const ref: { fx?: Fixture } = {};
    const h = await startHarness({
      files: { "a.txt": "a\n" },
      turns: [
        call("execute_command", { command: "cat a.txt | wc -l" }),
        call("write_to_file", { path: "b.txt", content: "b\n" }),
        call("attempt_completion", { result: "done" }),
      ],
      answer: () => ({ kind: "approve" }),
      deps: { checkpoints: late(() => ref.fx!.service) },
    });
    open.push(h);
    const fx = (ref.fx = makeService([h.dir], { trusted: false }));
    open.push(fx);
    expect(await h.task.run()).toBe("completed");
    expect(rowOf(h, "execute_command").tool?.checkpoint).toBeUndefined();
    const write = h.task.store.get(rowOf(h, "write_to_file").id)!;
    expect(write.tool?.checkpoint).toEqual({ state: "unavailable", reason: expect.stringMatching(/Restricted Mode/) });
    expect(restorableStep(write)).toBeUndefined();
    expect(await fx.service.list(h.task.id)).toBeUndefined();
  });
});
