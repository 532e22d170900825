import { describe, expect, it } from "vitest";
import { makeHost } from "./harness";

describe("new_task hands the panel over to a new task", () => {
  it("starts the new task with the context only once the running task has ended", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "first" });
    const first = h.factory.created[0]!;

    const id = h.controller.handOver("carry on with step 2");
    expect(id).toBeTruthy();
    expect(h.factory.created).toHaveLength(1); // the first task is still running

    first.setState("done");
    expect(h.factory.created).toHaveLength(2);
    const second = h.factory.created[1]!;
    expect(second.options?.id).toBe(id);
    expect(second.startedWith).toBe("carry on with step 2");
    expect(h.controller.currentSession).toBe(second);
  });

  it("does not start it when the running task was cancelled instead", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "first" });
    h.controller.handOver("next");
    h.factory.created[0]!.setState("cancelled");
    expect(h.factory.created).toHaveLength(1);
  });
});
