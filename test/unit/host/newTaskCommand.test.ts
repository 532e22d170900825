/** The title bar's "+ New Task" (toolgate.newTask): a finished task makes way for a new one; a running one stays. */
import { describe, expect, it } from "vitest";
import { makeHost } from "./harness";

async function withTask() {
  const h = makeHost();
  const a = h.webview("sidebar");
  await a.send({ type: "ready" });
  await a.send({ type: "newTask", requestId: 1, text: "list the files" });
  return { h, a, s: h.factory.created[0]! };
}

describe("New Task from the title bar", () => {
  it("clears a finished task, so what the person types next starts a new task, and focuses the input", async () => {
    const { h, a, s } = await withTask();
    s.setState("done");
    expect(a.store.getState().task?.id).toBe(s.id);
    expect(h.controller.startOver()).toBe(true);
    expect(a.store.getState().task).toBeNull();
    expect(a.fake.ofType("reveal").at(-1)).toEqual({ type: "reveal", target: "input" });
    await a.send({ type: "sendMessage", requestId: 2, text: "count them" });
    expect(s.sent).toEqual([]);
  });

  it("keeps a running task and says so", async () => {
    const { h, a, s } = await withTask();
    expect(h.controller.startOver()).toBe(false);
    expect(a.store.getState().task?.id).toBe(s.id);
    expect(a.fake.ofType("reveal").at(-1)).toEqual({ type: "reveal", target: "input" });
  });
});
