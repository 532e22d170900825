import { describe, expect, it } from "vitest";
import { makeHost } from "./harness";
import { tick } from "./fakes";

describe("handshake", () => {
  it("posts nothing before ready, then the full state first and queued one-off messages after it", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    h.controller.settingsChanged();
    h.controller.reveal("autoApprove");
    await w.send({ type: "newTask", requestId: 7, text: "list the files" });
    const session = h.factory.created[0]!;
    session.add({ role: "say", kind: "text", text: "Looking" });
    h.timer.runAll();
    // Before `ready`: state is dropped (the snapshot covers it); one-off messages wait.
    expect(w.fake.posted).toEqual([]);

    await w.send({ type: "ready" });
    const types = w.fake.posted.map((m) => m.type);
    expect(types[0]).toBe("state");
    expect(types.slice(1)).toEqual(["reveal", "result"]);
    expect(w.store.getState().reveal?.target).toBe("autoApprove");
    expect(w.texts()).toEqual(["list the files", "Looking"]);
  });

  it("a reveal asked for before any webview exists reaches the first one (status bar click on a closed view)", async () => {
    const h = makeHost();
    h.controller.reveal("autoApprove");
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    expect(w.fake.posted.map((m) => m.type)).toEqual(["state", "reveal"]);
    expect(w.store.getState().reveal?.target).toBe("autoApprove");
  });

  it("forwards deltas after ready, coalesced into one post per frame", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "go" });
    const s = h.factory.created[0]!;
    const id = s.add({ role: "say", kind: "command_output", text: "", partial: true });
    h.timer.runAll();
    w.fake.clear();
    for (let i = 0; i < 500; i++) s.append(id, "x".repeat(10));
    expect(w.fake.posted).toEqual([]); // nothing until the frame timer fires
    h.timer.runAll();
    const batches = w.fake.ofType("deltas");
    expect(batches).toHaveLength(1);
    const deltas = batches[0]!.deltas;
    expect(deltas).toHaveLength(1);
    expect(deltas[0]!.type === "append" && deltas[0]!.id === id && deltas[0]!.text === "x".repeat(5000)).toBe(true);
    expect(w.store.getState().task?.messages.at(-1)?.text).toHaveLength(5000);
  });

  it("drops malformed messages instead of acting on them", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    w.fake.clear();
    await w.send({ type: "setSetting", requestId: 1, change: { key: "autoApprove.all", value: "yes" } });
    await w.send({ type: "setSetting", requestId: 2, change: { key: "commands.allow", value: ["rm"] } });
    await w.send({
      type: "answerAsk",
      requestId: 3,
      messageId: 1,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "everywhere" },
    });
    await w.send("ready");
    await tick();
    expect(h.config.writes).toEqual([]);
    expect(w.fake.posted).toEqual([]);
    expect(h.logs.filter((l) => l.startsWith("warn: Dropped"))).toHaveLength(4);
  });

  it("says plainly that no task can run while the agent runtime is not connected", async () => {
    const h = makeHost({ withFactory: false });
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    expect(w.store.getState().agentAvailable).toBe(false);
    await w.send({ type: "newTask", requestId: 4, text: "do it" });
    const r = w.fake.ofType("result")[0]!;
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/not connected/);
    expect(w.store.getState().task).toBeNull();
  });
});
