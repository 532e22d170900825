// @vitest-environment jsdom
import "./support/shims";
import { describe, expect, it } from "vitest";
import type { MessageDelta } from "../../src/shared/messages";
import { Store, TAIL_CHARS, textTail } from "../src/state/store";
import { message, settingsView } from "./support/render";

function withTask(scheduled: Array<() => void>) {
  const store = new Store((fn) => void scheduled.push(fn));
  const a = message({ kind: "user", text: "go" });
  const b = message({ kind: "text", text: "", partial: true });
  store.receive({
    type: "state",
    state: {
      task: { id: "t1", state: "running", messages: [a, b] },
      settings: settingsView(),
      mcp: { servers: [], live: true },
      agentAvailable: true,
    },
  });
  scheduled.shift()!();
  return { store, a, b };
}

describe("webview store", () => {
  it("applies everything that arrived within a frame in one batch, notifying once", () => {
    const frames: Array<() => void> = [];
    const { store, b } = withTask(frames);
    let notified = 0;
    store.subscribe(() => notified++);
    for (let i = 0; i < 1000; i++)
      store.receive({ type: "deltas", taskId: "t1", deltas: [{ type: "append", id: b.id, text: "x" }] });
    expect(frames).toHaveLength(1); // one frame scheduled, however many messages
    expect(notified).toBe(0);
    frames.shift()!();
    expect(notified).toBe(1);
    expect(store.getState().task!.messages[1]!.text).toBe("x".repeat(1000));
  });

  it("keeps untouched messages' identity so only changed rows re-render", () => {
    const frames: Array<() => void> = [];
    const { store, a, b } = withTask(frames);
    const deltas: MessageDelta[] = [
      { type: "append", id: b.id, text: "hello" },
      { type: "patch", id: b.id, patch: { partial: false } },
      { type: "add", message: message({ kind: "info", text: "new" }) },
    ];
    store.receive({ type: "deltas", taskId: "t1", deltas });
    frames.shift()!();
    const msgs = store.getState().task!.messages;
    expect(msgs[0]).toBe(a);
    expect(msgs[1]).toMatchObject({ id: b.id, text: "hello", partial: false });
    expect(msgs).toHaveLength(3);
  });

  it("ignores deltas of another task and unknown ids; a state snapshot replaces everything", () => {
    const frames: Array<() => void> = [];
    const { store, b } = withTask(frames);
    store.receive({ type: "deltas", taskId: "other", deltas: [{ type: "append", id: b.id, text: "x" }] });
    store.receive({ type: "deltas", taskId: "t1", deltas: [{ type: "append", id: 99999, text: "x" }] });
    frames.shift()!();
    expect(store.getState().task!.messages[1]!.text).toBe("");
    store.receive({ type: "task", task: null });
    frames.shift()!();
    expect(store.getState().task).toBeNull();
  });

  it("task state changes and settings updates land in the same frame as deltas, in order", () => {
    const frames: Array<() => void> = [];
    const { store, b } = withTask(frames);
    store.receive({ type: "deltas", taskId: "t1", deltas: [{ type: "append", id: b.id, text: "done" }] });
    store.receive({ type: "taskState", taskId: "t1", state: "done" });
    store.receive({ type: "settings", settings: settingsView({ mode: "plan" }) });
    frames.shift()!();
    const s = store.getState();
    expect(s.task!.state).toBe("done");
    expect(s.task!.messages[1]!.text).toBe("done");
    expect(s.settings!.mode).toBe("plan");
  });

  it("keeps a streaming text's tail up to date without re-slicing the whole text", () => {
    const frames: Array<() => void> = [];
    const { store, b } = withTask(frames);
    let expected = "";
    for (let i = 0; i < 40; i++) {
      const chunk = `${i}:`.padEnd(5000, String.fromCharCode(97 + (i % 26)));
      expected += chunk;
      store.receive({ type: "deltas", taskId: "t1", deltas: [{ type: "append", id: b.id, text: chunk }] });
      frames.shift()!();
    }
    const m = store.getState().task!.messages[1]!;
    expect(m.text).toBe(expected);
    expect(textTail(m)).toBe(expected.slice(-TAIL_CHARS));
  });
});
