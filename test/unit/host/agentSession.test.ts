import { describe, expect, it } from "vitest";
import type { AskChannel } from "../../../src/agent/env";
import { MessageStore } from "../../../src/agent/task/messageStore";
import type { Task } from "../../../src/agent/task/task";
import { AgentTaskSession, type RuntimeTask } from "../../../src/host/agentSession";
import type { AskResponse } from "../../../src/shared/messages";
import type { TaskState } from "../../../src/shared/protocol";
import { makeHost } from "./harness";
import { tick } from "./fakes";

/** A stand-in for the agent's Task over the agent's real MessageStore (which buffers appends). */
class FakeRuntime implements RuntimeTask {
  readonly store = new MessageStore([], { flushMs: 60_000 });
  currentState: TaskState = "running";
  private finish: ((s: TaskState) => void) | undefined;
  readonly answers: AskResponse[] = [];
  constructor(
    readonly id: string,
    readonly ask: AskChannel,
    text?: string,
  ) {
    if (text !== undefined) this.store.add({ role: "say", kind: "user", text });
  }
  run(): Promise<TaskState> {
    return new Promise((r) => (this.finish = r));
  }
  sendMessage(text: string): Promise<TaskState> {
    this.store.add({ role: "say", kind: "user", text });
    return this.run();
  }
  cancel(): void {
    this.finish?.("cancelled");
  }
  end(s: TaskState): void {
    this.finish?.(s);
  }
  /** What the runtime does for a tool that must ask: the message becomes a pending ask, then it waits. */
  async askFor(messageId: number, signal = new AbortController().signal): Promise<AskResponse | Error> {
    this.store.patch(messageId, { role: "ask", askState: "pending" });
    try {
      const r = await this.ask.ask(messageId, signal);
      this.answers.push(r);
      this.store.patch(messageId, { askState: "answered" });
      return r;
    } catch (e) {
      return e as Error;
    }
  }
}

// Compile-time: the agent's real Task fits the session's RuntimeTask.
const taskFits: Task extends RuntimeTask ? true : never = true;

function session() {
  let runtime: FakeRuntime | undefined;
  const s = new AgentTaskSession("t1", (text, ask) => (runtime = new FakeRuntime("t1", ask, text)));
  return { s, rt: () => runtime! };
}

describe("AgentTaskSession", () => {
  it("fits the agent's Task", () => expect(taskFits).toBe(true));

  it("the person's first message, created before anyone listened, reaches the webview exactly once", async () => {
    const h = makeHost({ withFactory: false });
    h.controller.setTaskFactory({ create: () => new AgentTaskSession("t1", (text, ask) => new FakeRuntime("t1", ask, text)) });
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "fix the build" });
    h.timer.runAll();
    expect(w.texts()).toEqual(["fix the build"]);
  });

  it("an ask is answerable exactly once, even before the runtime marks it answered", async () => {
    const { s, rt } = session();
    const states: TaskState[] = [];
    s.onStateChange((x) => states.push(x));
    s.start("go");
    const id = rt().store.add({ role: "say", kind: "tool", tool: { name: "execute_command", params: {}, status: "pending" } });
    const waiting = rt().askFor(id);
    await tick();
    expect(s.state).toBe("waiting");
    expect(s.answerAsk(id, { kind: "approve", text: "ok" })).toBe(true);
    expect(s.answerAsk(id, { kind: "reject" })).toBe(false); // message still says "pending" here
    expect(await waiting).toEqual({ kind: "approve", text: "ok" });
    expect(rt().answers).toHaveLength(1);
    expect(s.answerAsk(id, { kind: "approve" })).toBe(false);
    expect(s.answerAsk(999, { kind: "approve" })).toBe(false);
    expect(states).toEqual(["waiting", "running"]);
  });

  it("an ask the runtime withdrew (the gate changed) can no longer be answered", async () => {
    const { s, rt } = session();
    s.start("go");
    const withdraw = new AbortController();
    const id = rt().store.add({ role: "say", kind: "tool", tool: { name: "write_to_file", params: {}, status: "pending" } });
    const waiting = rt().askFor(id, withdraw.signal);
    await tick();
    withdraw.abort();
    expect(await waiting).toBeInstanceOf(Error);
    expect(s.answerAsk(id, { kind: "approve" })).toBe(false);
  });

  it("cancel rejects what waits and ends in the runtime's final state", async () => {
    const { s, rt } = session();
    s.start("go");
    const id = rt().store.add({ role: "say", kind: "tool", tool: { name: "web_fetch", params: {}, status: "pending" } });
    const waiting = rt().askFor(id);
    await tick();
    s.cancel();
    expect(await waiting).toBeInstanceOf(Error);
    await tick();
    expect(s.state).toBe("cancelled");
    expect(s.answerAsk(id, { kind: "approve" })).toBe(false);
  });

  it("snapshot flushes the runtime's buffered appends to listeners first, so nothing is sent twice", () => {
    const { s, rt } = session();
    const seen: string[] = [];
    s.onDelta((d) => {
      if (d.type === "append") seen.push(d.text);
    });
    s.start("go");
    const id = rt().store.add({ role: "say", kind: "text", text: "", partial: true });
    rt().store.append(id, "hel");
    rt().store.append(id, "lo");
    expect(seen).toEqual([]); // buffered in the runtime
    const snap = s.snapshot();
    expect(seen).toEqual(["hello"]);
    expect(snap.find((m) => m.id === id)?.text).toBe("hello");
  });

  it("follow-up messages continue an idle task; a failed run shows as failed", async () => {
    const { s, rt } = session();
    s.start("go");
    rt().end("completed");
    await tick();
    expect(s.state).toBe("completed");
    s.sendMessage("and the docs");
    expect(s.state).toBe("running");
    expect(rt().store.messages.at(-1)?.text).toBe("and the docs");
  });

  it("a restored task with a pending ask waits on it again and can be answered after the reload", async () => {
    let rt: FakeRuntime | undefined;
    const s = AgentTaskSession.restore("t9", (ask) => {
      rt = new FakeRuntime("t9", ask);
      rt.currentState = "waiting";
      return rt;
    });
    const id = rt!.store.add({ role: "say", kind: "tool", tool: { name: "execute_command", params: {}, status: "pending" } });
    const waiting = rt!.askFor(id); // what run() does on resume
    await tick();
    expect(s.answerAsk(id, { kind: "approve" })).toBe(true);
    expect(await waiting).toEqual({ kind: "approve" });
  });
});
