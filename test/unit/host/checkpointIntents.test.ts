import { describe, expect, it } from "vitest";
import type { CheckpointHost } from "../../../src/host/checkpointHost";
import type { RestoreMarks, TaskMessage } from "../../../src/shared/messages";
import { makeHost } from "./harness";

function recordingHost(error?: string) {
  const calls: Array<{ what: string; taskId: string; message?: TaskMessage }> = [];
  const state: { marks: RestoreMarks; listener?: (taskId: string) => void } = { marks: {} };
  const host: CheckpointHost = {
    restore: (taskId, message) => {
      calls.push({ what: "restore", taskId, message });
      return Promise.resolve(error);
    },
    undoRestore: (taskId, message) => {
      calls.push({ what: "undo", taskId, message });
      return Promise.resolve(error);
    },
    showTaskChanges: (taskId) => {
      calls.push({ what: "changes", taskId });
      return Promise.resolve(error);
    },
    marks: () => Promise.resolve(state.marks),
    onDidRestore: (l) => {
      state.listener = l;
      return { dispose: () => (state.listener = undefined) };
    },
  };
  return { host, calls, state };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/** A connected sidebar with a task started, and the task's first row. */
async function taskWithRow() {
  const h = makeHost();
  const w = h.webview("sidebar");
  await w.send({ type: "ready" });
  await w.send({ type: "newTask", requestId: 1, text: "edit things" });
  const session = h.factory.created[0]!;
  return { h, w, session, row: session.snapshot()[0]! };
}

describe("checkpoint intents", () => {
  it("restore and show-changes reach the checkpoint host with the current task and the row the host holds", async () => {
    const { h, w, session, row } = await taskWithRow();
    const { host, calls } = recordingHost();
    h.controller.setCheckpoints(host);

    await w.send({ type: "restoreCheckpoint", requestId: 2, messageId: row.id });
    await w.send({ type: "showTaskChanges", requestId: 3 });
    expect(calls.map((c) => [c.what, c.taskId, c.message?.id])).toEqual([
      ["restore", session.id, row.id],
      ["changes", session.id, undefined],
    ]);
    expect(w.fake.ofType("result").filter((r) => r.requestId >= 2)).toEqual([
      { type: "result", requestId: 2, ok: true },
      { type: "result", requestId: 3, ok: true },
    ]);
  });

  it("an unknown row, a failed restore and a missing runtime are answered with what went wrong", async () => {
    const { h, w } = await taskWithRow();
    await w.send({ type: "restoreCheckpoint", requestId: 2, messageId: 1 });
    h.controller.setCheckpoints(recordingHost("git was not found").host);
    await w.send({ type: "restoreCheckpoint", requestId: 3, messageId: 999 });
    await w.send({ type: "restoreCheckpoint", requestId: 4, messageId: 1 });
    const errors = w.fake.ofType("result").map((r) => r.error);
    expect(errors.slice(1)).toEqual([
      expect.stringMatching(/not available/),
      "This step is no longer part of the task.",
      "git was not found",
    ]);
  });

  it("after a restore the webview gets the row's mark, and the task view carries it on every snapshot", async () => {
    const { h, w, session, row } = await taskWithRow();
    const { host, calls, state } = recordingHost();
    h.controller.setCheckpoints(host);
    await tick();
    expect(w.store.getState().task?.restoreMarks).toBeUndefined();

    const mark = { undoStepId: "restore-2", undoSeq: 2, files: 1, undone: false, latest: true };
    state.marks = { tu_1: mark };
    await w.send({ type: "restoreCheckpoint", requestId: 2, messageId: row.id });
    expect(w.store.getState().task?.restoreMarks).toEqual({ tu_1: mark });

    await w.send({ type: "undoRestore", requestId: 3, messageId: row.id });
    expect(calls.map((c) => [c.what, c.message?.id])).toEqual([
      ["restore", row.id],
      ["undo", row.id],
    ]);
    // A restore done elsewhere (the notification's "Undo restore") is told by the host.
    state.marks = { tu_1: { ...mark, undone: true } };
    state.listener?.(session.id);
    await tick();
    expect(w.store.getState().task?.restoreMarks?.tu_1?.undone).toBe(true);

    await w.reload();
    await w.send({ type: "ready" });
    expect(w.store.getState().task?.restoreMarks?.tu_1).toMatchObject({ undone: true });
  });
});
