import { describe, expect, it } from "vitest";
import type { HistoryItemView } from "../../../src/shared/protocol";
import type { TaskSessionOptions } from "../../../src/host/taskSession";
import { makeHost } from "./harness";
import { FakeFactory, FakeTaskSession } from "./fakes";

/** A saved task as the runtime reopens it: its messages, its end state, and whether a reply can continue it. */
class SavedSession extends FakeTaskSession {
  readonly fromHistory = true;
  constructor(
    options: TaskSessionOptions,
    readonly canContinue: boolean,
  ) {
    super(options);
    this.state = "done";
    this.add({ role: "say", kind: "user", text: "list the files" });
    this.add({ role: "say", kind: "completion", text: "Listed them." });
  }
}

class HistoryFactory extends FakeFactory {
  items: HistoryItemView[] = [
    { id: "old-1", title: "list the files", updatedAt: 2, state: "done", costUsd: 0.01 },
    { id: "old-2", title: "from an older version", updatedAt: 1, state: "error", costUsd: 0 },
  ];
  opened: SavedSession[] = [];
  deleted: string[] = [];
  delete(id: string): Promise<void> {
    this.deleted.push(id);
    this.items = this.items.filter((i) => i.id !== id);
    return Promise.resolve();
  }
  history(): Promise<readonly HistoryItemView[]> {
    return Promise.resolve(this.items);
  }
  open(id: string, options: TaskSessionOptions): Promise<SavedSession | undefined> {
    if (!this.items.some((i) => i.id === id)) return Promise.resolve(undefined);
    const s = new SavedSession(options, id === "old-1");
    this.opened.push(s);
    return Promise.resolve(s);
  }
}

async function hostWithHistory() {
  const h = makeHost({ withFactory: false });
  const factory = new HistoryFactory();
  const w = h.webview("sidebar");
  await w.send({ type: "ready" });
  h.controller.setTaskFactory(factory);
  await new Promise((r) => setTimeout(r, 0));
  return { h, w, factory };
}

describe("task history in the panel", () => {
  it("lists past tasks, opens one as it was, and a reply continues it", async () => {
    const { w, factory } = await hostWithHistory();
    expect(w.store.getState().history.map((i) => i.title)).toEqual(["list the files", "from an older version"]);

    await w.send({ type: "openHistoryTask", requestId: 1, id: "old-1" });
    expect(w.fake.ofType("result").at(-1)).toEqual({ type: "result", requestId: 1, ok: true });
    const task = w.store.getState().task!;
    expect(task).toMatchObject({ id: factory.opened[0]!.id, state: "done", fromHistory: true });
    expect(task.canContinue).toBeUndefined();
    expect(w.texts()).toEqual(["list the files", "Listed them."]);

    await w.send({ type: "sendMessage", requestId: 2, text: "now count them" });
    expect(w.fake.ofType("result").at(-1)).toEqual({ type: "result", requestId: 2, ok: true });
    expect(factory.opened[0]!.sent).toEqual(["now count them"]);
  });

  it("a saved task whose conversation cannot continue says so instead of pretending to", async () => {
    const { w } = await hostWithHistory();
    await w.send({ type: "openHistoryTask", requestId: 1, id: "old-2" });
    expect(w.store.getState().task?.canContinue).toBe(false);
    await w.send({ type: "sendMessage", requestId: 2, text: "go on" });
    expect(w.fake.ofType("result").at(-1)).toEqual({
      type: "result",
      requestId: 2,
      ok: false,
      error: "This task cannot be continued. Start a new one.",
    });
  });

  it("opening a past task while one runs is refused and leaves the running task alone", async () => {
    const { w, factory } = await hostWithHistory();
    await w.send({ type: "newTask", requestId: 1, text: "work" });
    await w.send({ type: "openHistoryTask", requestId: 2, id: "old-1" });
    expect(w.fake.ofType("result").at(-1)).toMatchObject({
      ok: false,
      error: "A task is still running. Cancel it first.",
    });
    expect(w.store.getState().task?.id).toBe(factory.created[0]!.id);
  });

  it("an id that is not a task id never reaches the history", async () => {
    const { w, factory } = await hostWithHistory();
    await w.send({ type: "openHistoryTask", requestId: 1, id: "../../etc/passwd" });
    expect(w.fake.ofType("result")).toEqual([]);
    expect(factory.opened).toEqual([]);
  });

  it("deleting a past task removes it from the list; the task open in the panel is not deleted", async () => {
    const { w, factory } = await hostWithHistory();
    await w.send({ type: "deleteHistoryTask", requestId: 1, id: "old-2" });
    expect(w.fake.ofType("result").at(-1)).toEqual({ type: "result", requestId: 1, ok: true });
    expect(factory.deleted).toEqual(["old-2"]);
    expect(w.store.getState().history.map((i) => i.id)).toEqual(["old-1"]);

    await w.send({ type: "openHistoryTask", requestId: 2, id: "old-1" });
    await w.send({ type: "deleteHistoryTask", requestId: 3, id: factory.opened[0]!.id });
    expect(w.fake.ofType("result").at(-1)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/open in the panel/),
    });
    expect(factory.deleted).toEqual(["old-2"]);
    await w.send({ type: "deleteHistoryTask", requestId: 4, id: "../x" });
    expect(factory.deleted).toEqual(["old-2"]);
  });
});
