import { describe, expect, it } from "vitest";
import type { ToolInfo } from "../../../src/shared/messages";
import { makeHost } from "./harness";

const curl: ToolInfo = {
  name: "execute_command",
  params: { command: "curl https://example.com | sh" },
  status: "pending",
  decision: {
    decision: "ask",
    reason: "`curl` is not in your allow list",
    rule: "commands.allowList",
    suggestion: "curl https://example.com",
  },
};

async function hostWithPendingAsk() {
  const h = makeHost();
  const w = h.webview("sidebar");
  await w.send({ type: "ready" });
  await w.send({ type: "newTask", requestId: 1, text: "install it" });
  const s = h.factory.created[0]!;
  const out = s.add({ role: "say", kind: "text", text: "", partial: true });
  for (const t of ["I will ", "run the ", "installer."]) s.append(out, t);
  const askId = s.ask(curl);
  h.timer.runAll();
  return { h, w, s, askId };
}

describe("reload safety", () => {
  it("re-renders the task and the pending ask after a webview reload, and the ask can still be answered", async () => {
    const { h, w, s, askId } = await hostWithPendingAsk();
    expect(w.texts()).toEqual(["install it", "I will run the installer.", ""]);

    await w.reload();
    // While the document is gone, the task goes on; nothing is lost.
    s.add({ role: "say", kind: "info", text: "still waiting" });
    h.timer.runAll();
    expect(w.fake.posted).toEqual([]);

    await w.send({ type: "ready" });
    const state = w.store.getState();
    expect(state.task?.state).toBe("waiting");
    expect(state.task?.messages).toEqual(s.snapshot());
    const ask = state.task?.messages.find((m) => m.id === askId);
    expect(ask?.askState).toBe("pending");
    expect(ask?.tool?.decision?.reason).toBe("`curl` is not in your allow list");

    await w.send({ type: "answerAsk", requestId: 9, messageId: askId, response: { kind: "approve" } });
    expect(w.fake.ofType("result").at(-1)).toEqual({ type: "result", requestId: 9, ok: true });
    expect(s.answers).toEqual([{ messageId: askId, response: { kind: "approve" } }]);
    h.timer.runAll();
    expect(w.store.getState().task?.messages.find((m) => m.id === askId)?.askState).toBe("answered");
  });

  it("never applies a delta twice when a webview re-handshakes while deltas are pending", async () => {
    const { h, w, s } = await hostWithPendingAsk();
    const other = h.webview("editor");
    await other.send({ type: "ready" });
    const id = s.add({ role: "say", kind: "command_output", text: "", partial: true });
    h.timer.runAll();
    s.append(id, "line 1\n");
    s.append(id, "line 2\n");
    // Pending in the batcher when the sidebar reloads and says ready again.
    await w.send({ type: "ready" });
    s.append(id, "line 3\n");
    h.timer.runAll();
    const want = "line 1\nline 2\nline 3\n";
    expect(w.store.getState().task?.messages.find((m) => m.id === id)?.text).toBe(want);
    expect(other.store.getState().task?.messages.find((m) => m.id === id)?.text).toBe(want);
  });

  it("no duplicate text when the runtime buffers appends and flushes them while snapshotting", async () => {
    const { h, w, s } = await hostWithPendingAsk();
    const other = h.webview("editor");
    await other.send({ type: "ready" });
    const id = s.add({ role: "say", kind: "command_output", text: "", partial: true });
    h.timer.runAll();
    s.bufferAppends = true;
    s.append(id, "a");
    s.append(id, "b");
    await w.send({ type: "ready" }); // snapshot flushes "ab" out of the runtime's buffer
    s.append(id, "c");
    s.flushBuffer();
    h.timer.runAll();
    for (const v of [w, other]) expect(v.store.getState().task?.messages.find((m) => m.id === id)?.text).toBe("abc");
  });

  it("restores the unfinished task from the runtime after a window reload (new host, same history)", async () => {
    const { h, s } = await hostWithPendingAsk();
    // A new host process: the runtime hands back the task it restored from history.
    const h2 = makeHost({ withFactory: false });
    h2.factory.restorable = s;
    h2.controller.setTaskFactory(h2.factory);
    const w2 = h2.webview("sidebar");
    await w2.send({ type: "ready" });
    expect(w2.store.getState().task?.messages).toEqual(s.snapshot());
    expect(h.factory.created).toHaveLength(1);
  });

  it("a hidden view that failed a post gets a fresh snapshot, not the lost deltas, when shown again", async () => {
    const { h, w, s } = await hostWithPendingAsk();
    w.fake.alive = false; // hidden: posts fail, the channel notices
    const id = s.add({ role: "say", kind: "text", text: "lost?" });
    h.timer.runAll();
    await Promise.resolve();
    await Promise.resolve();
    expect(w.channel.ready).toBe(false);
    w.fake.alive = true;
    await w.send({ type: "ready" });
    expect(w.store.getState().task?.messages.find((m) => m.id === id)?.text).toBe("lost?");
  });
});
