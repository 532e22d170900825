import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { TaskHistory, type HistoryTimer } from "../../../src/agent/history/taskHistory";
import { Task } from "../../../src/agent/task/task";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { JsSearcher } from "../../../src/agent/node/jsSearcher";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { AgentTaskSession, type AgentSessionDeps } from "../../../src/agent/session/agentTaskSession";
import { ToolExecutor } from "../../../src/agent/executor/toolExecutor";
import { realGateFactory } from "../../../src/agent/approvalGate";
import { applyDelta } from "../../../src/agent/task/messageStore";
import type { TaskMessage } from "../../../src/shared/messages";
import { startScriptedModel, type ScriptedModel } from "../../support/scriptedModel";
import { settingsFrom } from "../../support/agentHarness";
import {
  makeProvider,
  ScriptedAskChannel,
  startHarness,
  toolResultsIn,
  type Harness,
} from "../../support/agentHarness";

let h: Harness | undefined;
let store: string | undefined;
afterEach(async () => {
  await h?.close();
  if (store) rmSync(store, { recursive: true, force: true });
  h = undefined;
  store = undefined;
});

function historyDir(): string {
  store = mkdtempSync(nodePath.join(tmpdir(), "toolgate-history-"));
  return store;
}

/** A clock that moves only when the test says so: batched writes happen exactly when `tick()` is called. */
class ManualTimer implements HistoryTimer {
  private armed = new Map<number, () => void>();
  private seq = 0;
  set(fn: () => void): unknown {
    this.armed.set(++this.seq, fn);
    return this.seq;
  }
  clear(handle: unknown): void {
    this.armed.delete(handle as number);
  }
  get pending(): number {
    return this.armed.size;
  }
  tick(): void {
    const due = [...this.armed.values()];
    this.armed.clear();
    for (const fn of due) fn();
  }
}

describe("task history", () => {
  it("a long streamed write is saved in a handful of atomic writes, never per chunk", async () => {
    // The debounce clock never advances during the stream, so what is counted is the writes the task forces
    // (the task starts, asks, ends), whatever the machine's speed: 2,000 chunks must not add one each.
    const timer = new ManualTimer();
    const history = new TaskHistory(historyDir(), { debounceMs: 200, timer });
    const content = "0123456789abcdef\n".repeat(12_000); // ~200 KB
    h = await startHarness({
      settings: { "toolgate.autoApprove.actions": { editFiles: true } },
      turns: [
        { steps: [{ tool: "write_to_file", args: { path: "big.txt", content }, chunks: 2000 }] },
        { steps: [{ tool: "attempt_completion", args: { result: "ok" } }] },
      ],
      answer: () => ({ kind: "approve" }),
      deps: { persistence: (snap) => history.writer(snap) },
    });
    expect(await h.task.run()).toBe("completed");
    expect(history.counter.writes).toBeGreaterThan(0);
    expect(history.counter.writes).toBeLessThan(12);
    // Changes after the last forced write are batched into a single write when the clock moves.
    const before = history.counter.writes;
    timer.tick();
    await new Promise((r) => setTimeout(r, 50));
    expect(history.counter.writes - before).toBeLessThanOrEqual(2);
    expect(readdirSync(nodePath.join(store!, "tasks")).filter((f) => f.includes(".tmp-"))).toEqual([]);
    const saved = await new TaskHistory(store!).load(h.task.id);
    expect(saved!.state).toBe("completed");
    expect(saved!.messages.find((m) => m.tool?.name === "write_to_file")!.text).toBe(content);
    expect(await new TaskHistory(store!).list()).toMatchObject([
      { id: h.task.id, state: "completed", title: "do the thing" },
    ]);
  });

  it("every change between two ticks of the debounce clock is one write of the task", async () => {
    const timer = new ManualTimer();
    const history = new TaskHistory(historyDir(), { debounceMs: 200, timer });
    let n = 0;
    const snap = () => ({
      version: 1 as const,
      id: "t-batch",
      title: "batch",
      createdAt: 1,
      updatedAt: 1,
      state: "running" as const,
      messages: [],
      conversation: [],
      keepFrom: 1,
      usage: { inputTokens: n, outputTokens: 0, costUsd: 0 },
    });
    const w = history.writer(snap);
    await w.flush(); // the first save also writes the index (a new task is findable at once)
    const base = history.counter.byFile["t-batch.json"] ?? 0;
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < 2000; i++) {
        n++;
        w.changed();
      }
      expect(timer.pending).toBe(1); // one timer per batch, not per change
      timer.tick();
      await w.flush(); // waits for the tick's write, then saves once more itself: two per round
      expect(history.counter.byFile["t-batch.json"]).toBe(base + round * 2);
    }
    expect((await history.load("t-batch"))!.usage.inputTokens).toBe(6000);
  });

  it("after a reload the task shows as it was, its pending ask is still pending, and it resumes", async () => {
    const dir = historyDir();
    const history = new TaskHistory(dir, { debounceMs: 10_000 });
    h = await startHarness({
      turns: [
        {
          steps: [
            { text: "Writing the file." },
            { tool: "write_to_file", args: { path: "kept.txt", content: "survives a reload" }, chunks: 4 },
          ],
        },
      ],
      deps: { persistence: (snap) => history.writer(snap) },
    });
    void h.task.run();
    const ask = await h.asks.next();
    expect(ask.message.tool!.name).toBe("write_to_file");
    // The window reloads: nothing more of the first instance is saved (the ask is saved as soon as it is made).
    let before = await new TaskHistory(dir).load(h.task.id);
    for (let i = 0; i < 100 && before?.state !== "waiting"; i++) {
      await new Promise((r) => setTimeout(r, 10));
      before = await new TaskHistory(dir).load(h.task.id);
    }
    expect(before!.state).toBe("waiting");
    // The index a reload restores from lists the waiting task at once, not after the batched index write.
    let listed = await new TaskHistory(dir).list();
    for (let i = 0; i < 100 && listed[0]?.state !== "waiting"; i++) {
      await new Promise((r) => setTimeout(r, 10));
      listed = await new TaskHistory(dir).list();
    }
    expect(listed).toMatchObject([{ id: h.task.id, state: "waiting" }]);
    const pendingMsg = before!.messages.find((m) => m.id === ask.messageId)!;
    expect(pendingMsg.askState).toBe("pending");
    expect(pendingMsg.text).toBe("survives a reload");

    // A new extension host: fresh gate, channel, provider; the same disk.
    h.model.push({ steps: [{ tool: "attempt_completion", args: { result: "done after reload" } }] });
    const config = await h.executor.asToolConfig("restored");
    const asks = new ScriptedAskChannel(() => ({ kind: "approve" }));
    const fs = new NodeFs();
    const history2 = new TaskHistory(dir, { debounceMs: 50 });
    const restored = Task.restore(
      {
        provider: makeProvider("openai", h.model),
        config,
        env: {
          fs,
          runner: new NodeCommandRunner(),
          searcher: new JsSearcher(fs),
          ignoreRules: (roots) => IgnoreRules.load(roots, ".toolgateignore"),
        },
        ask: asks,
        persistence: (snap) => history2.writer(snap),
      },
      before!,
    );
    asks.getMessage = (id) => restored.store.get(id);
    // Shown as it was: the same messages, the ask still pending.
    expect(restored.store.messages.map((m) => [m.id, m.kind, m.text])).toEqual(
      before!.messages.map((m) => [m.id, m.kind, m.text]),
    );
    expect(restored.store.get(ask.messageId)!.askState).toBe("pending");
    expect(await restored.run()).toBe("completed");
    // The same message was asked again, approved, and the write happened.
    expect(asks.asks.map((a) => a.messageId)[0]).toBe(ask.messageId);
    expect(h.read("kept.txt")).toBe("survives a reload");
    expect(toolResultsIn(h.model, 1)[0]).toMatch(/kept\.txt` was created/);
    const after = await new TaskHistory(dir).load(h.task.id);
    expect(after!.state).toBe("completed");
  });

  it("a call that was running when the window closed is reported as of unknown outcome, not re-run", async () => {
    const dir = historyDir();
    const history = new TaskHistory(dir);
    h = await startHarness({
      turns: [{ steps: [{ tool: "execute_command", args: { command: "sleep 5; echo ran >> count.txt" } }] }],
      answer: () => ({ kind: "approve" }),
      deps: { persistence: (snap) => history.writer(snap) },
    });
    void h.task.run();
    for (let i = 0; i < 200 && !h.view.some((m) => m.kind === "command_output"); i++)
      await new Promise((r) => setTimeout(r, 10));
    const snap = await new TaskHistory(dir).load(h.task.id);
    expect(snap!.pending!.calls[0]!.state).toBe("running");
    h.task.cancel();
    h.model.push({ steps: [{ tool: "attempt_completion", args: { result: "ok" } }] });
    const config = await h.executor.asToolConfig("r2");
    const asks = new ScriptedAskChannel(() => ({ kind: "approve" }));
    const fs = new NodeFs();
    const restored = Task.restore(
      {
        provider: makeProvider("openai", h.model),
        config,
        env: {
          fs,
          runner: new NodeCommandRunner(),
          searcher: new JsSearcher(fs),
          ignoreRules: (r) => IgnoreRules.load(r, ".toolgateignore"),
        },
        ask: asks,
      },
      snap!,
    );
    asks.getMessage = (id) => restored.store.get(id);
    expect(await restored.run()).toBe("completed");
    expect(toolResultsIn(h.model, 1)[0]).toMatch(
      /editor was closed while this call ran; it is not known whether it finished/,
    );
    expect(restored.store.messages.find((m) => m.tool?.name === "execute_command")!.tool!.status).toBe("interrupted");
  });

  it("a finished task reopened from history is shown as it was, and a reply continues its conversation", async () => {
    const dir = historyDir();
    const work = mkdtempSync(nodePath.join(tmpdir(), "toolgate-reopen-"));
    let model: ScriptedModel | undefined;
    try {
      model = await startScriptedModel([
        { steps: [{ text: "Looking." }, { tool: "list_files", args: { path: "." } }] },
        { steps: [{ tool: "attempt_completion", args: { result: "Listed the files." } }] },
      ]);
      const m = model;
      const sessionDeps = (history: TaskHistory): AgentSessionDeps => {
        const fs = new NodeFs();
        return {
          executor: new ToolExecutor({
            createGate: realGateFactory({ settings: () => settingsFrom({}) }),
            roots: () => [work],
          }),
          provider: () => makeProvider("openai", m),
          env: {
            fs,
            runner: new NodeCommandRunner(),
            searcher: new JsSearcher(fs),
            ignoreRules: (r) => IgnoreRules.load(r, ".toolgateignore"),
          },
          history,
        };
      };
      const until = async (what: () => boolean | Promise<boolean>) => {
        for (let i = 0; i < 500 && !(await what()); i++) await new Promise((r) => setTimeout(r, 10));
      };
      // The session reports "done" as the task ends; its last save follows at once.
      // The task file is written before the index: both must show the state.
      const saved = async (state: string) => {
        const h2 = new TaskHistory(dir);
        return (await h2.load("t-reopen"))?.state === state && (await h2.list())[0]?.state === state;
      };
      const approveAsks = (s: AgentTaskSession, view: TaskMessage[]) =>
        s.onDelta((d) => {
          applyDelta(view, d);
          const ask = view.find((x) => x.askState === "pending");
          if (ask && d.type === "patch" && d.id === ask.id && d.patch.askState === "pending")
            queueMicrotask(() => s.answerAsk(ask.id, { kind: "approve" }));
        });

      // The first window: the task runs to its accepted completion.
      const first = new AgentTaskSession("t-reopen", sessionDeps(new TaskHistory(dir, { debounceMs: 10 })));
      approveAsks(first, []);
      first.start("list the files");
      await until(async () => first.state === "done" && (await saved("completed")));
      expect(first.state).toBe("done");
      expect(m.requests).toHaveLength(2);

      // Another window: the history lists it; opening it shows it and starts nothing.
      const history = new TaskHistory(dir, { debounceMs: 10 });
      expect(await history.list()).toMatchObject([{ id: "t-reopen", state: "completed", title: "list the files" }]);
      const snap = (await history.load("t-reopen"))!;
      const reopened = new AgentTaskSession("t-reopen", sessionDeps(history), snap);
      expect(reopened.state).toBe("done");
      expect(reopened.canContinue).toBe(true);
      expect(reopened.snapshot().map((x) => [x.kind, x.text])).toEqual(snap.messages.map((x) => [x.kind, x.text]));
      await new Promise((r) => setTimeout(r, 50));
      expect(m.requests).toHaveLength(2);

      // "Reply to continue": the model gets the earlier conversation plus the reply, and the task goes on.
      m.push({ steps: [{ tool: "attempt_completion", args: { result: "Counted them too." } }] });
      const view: TaskMessage[] = [...reopened.snapshot()];
      approveAsks(reopened, view);
      reopened.sendMessage("now count them");
      await until(async () => m.requests.length === 3 && reopened.state === "done" && (await saved("completed")));
      expect(reopened.state).toBe("done");
      const sent = JSON.stringify(m.requests[2]!.body.messages);
      const firstSent = JSON.stringify(m.requests[1]!.body.messages);
      // Everything the model saw before, in order, then the reply.
      const earlier = firstSent.slice(1, -1);
      expect(sent.startsWith(`[${earlier}`)).toBe(true);
      expect(sent).toContain("list the files");
      expect(sent).toContain("Listed the files.");
      expect(sent.slice(earlier.length)).toContain("now count them");
      expect(view.filter((x) => x.kind === "user").map((x) => x.text)).toEqual(["list the files", "now count them"]);
      expect((await new TaskHistory(dir).load("t-reopen"))!.state).toBe("completed");
    } finally {
      await model?.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
