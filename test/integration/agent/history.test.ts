import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { TaskHistory } from "../../../src/agent/history/taskHistory";
import { Task } from "../../../src/agent/task/task";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { JsSearcher } from "../../../src/agent/node/jsSearcher";
import { IgnoreRules } from "../../../src/core/ignoreFile";
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

describe("task history", () => {
  it("a long streamed write is saved in a handful of atomic writes, never per chunk", async () => {
    const history = new TaskHistory(historyDir(), { debounceMs: 200 });
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
    expect(readdirSync(nodePath.join(store!, "tasks")).filter((f) => f.includes(".tmp-"))).toEqual([]);
    const saved = await new TaskHistory(store!).load(h.task.id);
    expect(saved!.state).toBe("completed");
    expect(saved!.messages.find((m) => m.tool?.name === "write_to_file")!.text).toBe(content);
    expect(await new TaskHistory(store!).list()).toMatchObject([
      { id: h.task.id, state: "completed", title: "do the thing" },
    ]);
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
});
