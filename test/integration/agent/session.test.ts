import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, realpathSync, rmSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import type { TaskSession } from "../../../src/host/taskSession";
import { AgentTaskSession, type SessionState } from "../../../src/agent/session/agentTaskSession";
import { PendingAsks } from "../../../src/agent/session/pendingAsks";
import { ToolExecutor } from "../../../src/agent/executor/toolExecutor";
import { realGateFactory } from "../../../src/agent/approvalGate";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { JsSearcher } from "../../../src/agent/node/jsSearcher";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { applyDelta } from "../../../src/agent/task/messageStore";
import type { TaskMessage } from "../../../src/shared/messages";
import { makeProvider, settingsFrom } from "../../support/agentHarness";
import { startScriptedModel, type ScriptedModel } from "../../support/scriptedModel";

let model: ScriptedModel | undefined;
let dir: string | undefined;
afterEach(async () => {
  await model?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  model = undefined;
  dir = undefined;
});

/** A real session over `root`: the real gate (settings read on every rebuild), node fs and runner, the scripted model. */
function sessionOver(
  m: ScriptedModel,
  root: string,
  flat: () => Record<string, unknown>,
  id: string,
): AgentTaskSession {
  const executor = new ToolExecutor({
    createGate: realGateFactory({ settings: () => settingsFrom(flat()) }),
    roots: () => [root],
  });
  const fs = new NodeFs();
  return new AgentTaskSession(id, {
    executor,
    provider: () => makeProvider("openai", m),
    env: {
      fs,
      runner: new NodeCommandRunner(),
      searcher: new JsSearcher(fs),
      ignoreRules: (r) => IgnoreRules.load(r, ".toolgateignore"),
    },
  });
}

describe("PendingAsks", () => {
  it("answers a pending ask exactly once; unknown and withdrawn asks are refused", async () => {
    const asks = new PendingAsks();
    const ac = new AbortController();
    const p = asks.ask(3, ac.signal);
    expect(asks.pending()).toEqual([3]);
    expect(asks.answer(4, { kind: "approve" })).toBe(false);
    expect(asks.answer(3, { kind: "reject", text: "no" })).toBe(true);
    expect(asks.answer(3, { kind: "approve" })).toBe(false);
    expect(await p).toEqual({ kind: "reject", text: "no" });
    const w = new AbortController();
    const q = asks.ask(5, w.signal);
    w.abort();
    await expect(q).rejects.toThrow(/withdrawn/);
    expect(asks.answer(5, { kind: "approve" })).toBe(false);
  });
});

describe("AgentTaskSession (the host's TaskSession)", () => {
  it("runs a task end to end through the host's interface", async () => {
    dir = realpathSync(mkdtempSync(nodePath.join(tmpdir(), "toolgate-session-")));
    model = await startScriptedModel([
      { steps: [{ tool: "write_to_file", args: { path: "out.txt", content: "from the session" }, chunks: 3 }] },
      { steps: [{ tool: "attempt_completion", args: { result: "written" } }] },
    ]);
    const agent = sessionOver(model, dir, () => ({}), "s1");
    // Compile-time: the agent's session satisfies the host's interface.
    const session: TaskSession = agent;
    const view: TaskMessage[] = [];
    const states: SessionState[] = [];
    session.onDelta((d) => {
      applyDelta(view, d);
      const ask = view.find((x) => x.askState === "pending");
      if (d.type === "patch" && ask && d.id === ask.id && d.patch.askState === "pending") {
        queueMicrotask(() => {
          expect(session.answerAsk(ask.id, { kind: "approve" })).toBe(true);
          expect(session.answerAsk(ask.id, { kind: "approve" })).toBe(false);
        });
      }
    });
    session.onStateChange((s) => states.push(s));
    session.start("write out.txt");
    for (let i = 0; i < 500 && session.state !== "done"; i++) await new Promise((r) => setTimeout(r, 10));
    expect(session.state).toBe("done");
    expect(readFileSync(nodePath.join(dir, "out.txt"), "utf8")).toBe("from the session");
    expect(view[0]).toMatchObject({ kind: "user", text: "write out.txt" });
    expect(states).toEqual(["waiting", "running", "waiting", "running", "done"]);
    // The mirror built from deltas equals the snapshot.
    expect(view).toEqual(session.snapshot());
  });
});

describe("a rule granted with an answer", () => {
  /** Runs `getconf PAGESIZE` (it asks); while the ask waits, allows `getconf` and answers as the host does. */
  async function grantWhileAsking(holdTheAsk: boolean): Promise<TaskMessage> {
    dir = realpathSync(mkdtempSync(nodePath.join(tmpdir(), "toolgate-grant-")));
    model = await startScriptedModel([
      { steps: [{ tool: "execute_command", args: { command: "getconf PAGESIZE" } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
    ]);
    let flat: Record<string, unknown> = { "toolgate.sandbox.mode": "off" };
    const session = sessionOver(model, dir, () => flat, "s2");
    const view: TaskMessage[] = [];
    let granted = false;
    session.onDelta((d) => {
      applyDelta(view, d);
      const ask = view.find((x) => x.askState === "pending" && x.tool?.name === "execute_command");
      if (ask && !granted) {
        granted = true;
        queueMicrotask(() => {
          void (async () => {
            // As the host does: save the rule, rebuild the gate, then deliver the person's answer.
            flat = { ...flat, "toolgate.commands.allow": ["getconf"] };
            await session.rulesChanged(holdTheAsk ? ask.id : undefined);
            session.answerAsk(ask.id, { kind: "approve" });
          })();
        });
      }
      const done = view.find((x) => x.kind === "completion" && x.askState === "pending");
      if (done) queueMicrotask(() => session.answerAsk(done.id, { kind: "approve" }));
    });
    session.start("touch it");
    for (let i = 0; i < 500 && session.state !== "done"; i++) await new Promise((r) => setTimeout(r, 10));
    expect(session.state).toBe("done");
    return view.find((x) => x.tool?.name === "execute_command")!;
  }

  it("the ask it was granted with is settled by the person's answer, not as auto-approved by the new rule", async () => {
    const row = await grantWhileAsking(true);
    expect(row.tool?.decision?.decision).toBe("ask");
    expect(row.tool?.status).toBe("done");
  });

  it("without the hold, the rebuilt gate would settle it under the rule (what the hold prevents)", async () => {
    const row = await grantWhileAsking(false);
    expect(row.tool?.decision?.decision).toBe("allow");
  });
});
