import { describe, expect, it } from "vitest";
import { applyDelta, MessageStore } from "../../../src/agent/task/messageStore";
import type { MessageDelta, TaskMessage } from "../../../src/shared/messages";

describe("MessageStore", () => {
  it("coalesces appends, keeps order with patches and adds, and a mirror rebuilds the same list", () => {
    const store = new MessageStore([], { flushMs: 10_000 });
    const deltas: MessageDelta[] = [];
    const mirror: TaskMessage[] = [];
    store.onDelta((d) => {
      deltas.push(d);
      applyDelta(mirror, d);
    });
    const a = store.add({ role: "say", kind: "text", partial: true });
    for (let i = 0; i < 100; i++) store.append(a, `${i},`);
    store.patch(a, { partial: false });
    const b = store.add({ role: "say", kind: "tool", partial: true });
    store.append(b, "x");
    store.append(a, "late");
    store.flush();
    expect(deltas.map((d) => d.type)).toEqual(["add", "append", "patch", "add", "append", "append"]);
    expect(mirror).toEqual(store.messages.map((m) => ({ ...m })));
    expect(mirror[0]!.text).toBe(Array.from({ length: 100 }, (_, i) => `${i},`).join("") + "late");
  });

  it("flushes on a timer and when enough text is buffered", async () => {
    const store = new MessageStore([], { flushMs: 5, maxBuffered: 10 });
    const deltas: MessageDelta[] = [];
    store.onDelta((d) => deltas.push(d));
    const id = store.add({ role: "say", kind: "text" });
    store.append(id, "0123456789AB");
    expect(deltas).toHaveLength(2);
    store.append(id, "c");
    await new Promise((r) => setTimeout(r, 20));
    expect(deltas.at(-1)).toEqual({ type: "append", id, text: "c" });
  });

  it("continues numbering after restored messages", () => {
    const store = new MessageStore([{ id: 7, ts: 1, role: "say", kind: "user", text: "t", partial: false }]);
    expect(store.add({ role: "say", kind: "info" })).toBe(8);
  });
});
