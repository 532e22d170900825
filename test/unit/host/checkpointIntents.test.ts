import { describe, expect, it } from "vitest";
import type { CheckpointHost } from "../../../src/host/checkpointHost";
import type { TaskMessage } from "../../../src/shared/messages";
import { makeHost } from "./harness";

function recordingHost(error?: string) {
  const calls: Array<{ what: string; taskId: string; message?: TaskMessage }> = [];
  const host: CheckpointHost = {
    restore: (taskId, message) => {
      calls.push({ what: "restore", taskId, message });
      return Promise.resolve(error);
    },
    showTaskChanges: (taskId) => {
      calls.push({ what: "changes", taskId });
      return Promise.resolve(error);
    },
  };
  return { host, calls };
}

describe("checkpoint intents", () => {
  it("restore and show-changes reach the checkpoint host with the current task and the row the host holds", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "edit things" });
    const session = h.factory.created[0]!;
    const row = session.snapshot()[0]!;
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
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "edit things" });
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
});
