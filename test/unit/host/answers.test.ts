import { describe, expect, it } from "vitest";
import type { ToolInfo } from "../../../src/shared/messages";
import { StorageKey } from "../../../src/host/settingsBridge";
import { makeHost } from "./harness";

const gitLog: ToolInfo = {
  name: "execute_command",
  params: { command: "git log -5" },
  status: "pending",
  decision: {
    decision: "ask",
    reason: "`git log` is not in your allow list",
    rule: "commands.allowList",
    suggestion: "git log",
  },
};

async function setup(tool: ToolInfo = gitLog) {
  const h = makeHost();
  const a = h.webview("sidebar");
  const b = h.webview("editor");
  await a.send({ type: "ready" });
  await b.send({ type: "ready" });
  await a.send({ type: "newTask", requestId: 1, text: "show history" });
  const s = h.factory.created[0]!;
  const askId = s.ask(tool);
  h.timer.runAll();
  return { h, a, b, s, askId };
}

describe("answers are accepted exactly once", () => {
  it("two webviews answering the same ask: one wins, the other is told it was already answered", async () => {
    const { a, b, s, askId } = await setup();
    await Promise.all([
      a.send({ type: "answerAsk", requestId: 10, messageId: askId, response: { kind: "approve" } }),
      b.send({ type: "answerAsk", requestId: 20, messageId: askId, response: { kind: "reject", text: "no" } }),
    ]);
    expect(s.answers).toHaveLength(1);
    const ra = a.fake.ofType("result").find((r) => r.requestId === 10)!;
    const rb = b.fake.ofType("result").find((r) => r.requestId === 20)!;
    expect([ra.ok, rb.ok].sort()).toEqual([false, true]);
    expect((ra.ok ? rb : ra).error).toMatch(/already answered/);
  });

  it("a double click sends one answer to the task", async () => {
    const { a, s, askId } = await setup();
    await a.send({ type: "answerAsk", requestId: 11, messageId: askId, response: { kind: "approve" } });
    await a.send({ type: "answerAsk", requestId: 12, messageId: askId, response: { kind: "approve" } });
    expect(s.answers).toHaveLength(1);
    const results = a.fake.ofType("result").filter((r) => r.requestId === 11 || r.requestId === 12);
    expect(results.map((r) => [r.requestId, r.ok])).toEqual([
      [11, true],
      [12, false],
    ]);
  });

  it("feedback text goes to the task with the answer", async () => {
    const { a, s, askId } = await setup();
    await a.send({
      type: "answerAsk",
      requestId: 13,
      messageId: askId,
      response: { kind: "reject", text: "use git log --oneline" },
    });
    expect(s.answers[0]!.response).toEqual({ kind: "reject", text: "use git log --oneline" });
  });

  it("'always allow … this task' keeps the ask's own suggestion in memory for this task only", async () => {
    const { h, a, s, askId } = await setup();
    await a.send({
      type: "answerAsk",
      requestId: 14,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "task", rule: "rm -rf /" },
    });
    expect(s.answers).toHaveLength(1);
    expect(s.options!.extraRules().commandsAllow).toEqual(["git log"]);
    expect(h.memento.data.size).toBe(0);
    expect(h.config.writes).toEqual([]);
    // Another task does not see it.
    s.setState("done");
    await a.send({ type: "newTask", requestId: 15, text: "again" });
    expect(h.factory.created[1]!.options!.extraRules().commandsAllow).toEqual([]);
  });

  it("a granted rule reaches the running task's gate before the task goes on", async () => {
    const { a, s, askId } = await setup();
    await a.send({
      type: "answerAsk",
      requestId: 18,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "task" },
    });
    expect(s.events).toEqual(["rules", "answer"]);
  });

  it("'always allow … this workspace' goes to workspaceState, never to settings or files", async () => {
    const { h, a, s, askId } = await setup();
    await a.send({
      type: "answerAsk",
      requestId: 16,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "workspace" },
    });
    expect(h.memento.data.get(StorageKey.workspaceRules)).toMatchObject({ commandsAllow: ["git log"] });
    expect(h.config.writes).toEqual([]);
    expect(s.options!.extraRules().commandsAllow).toEqual(["git log"]);
  });

  it("'always allow … always' writes the user setting; 'always deny' writes the deny list with a reject", async () => {
    const { h, a, s, askId } = await setup();
    await a.send({
      type: "answerAsk",
      requestId: 17,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "user" },
    });
    expect(h.config.global.get("commands.allow")).toEqual(["git log"]);

    const mcp: ToolInfo = {
      name: "use_mcp_tool",
      params: { server_name: "fs", tool_name: "delete", arguments: "{}" },
      status: "pending",
      decision: {
        decision: "ask",
        reason: "not always allowed",
        rule: "mcp.alwaysAllow",
        suggestion: "mcp__fs__delete",
      },
    };
    const id2 = s.ask(mcp);
    await a.send({
      type: "answerAsk",
      requestId: 18,
      messageId: id2,
      response: { kind: "reject" },
      remember: { effect: "deny", scope: "user" },
    });
    expect(h.config.global.get("permissions.deny")).toEqual(["mcp__fs__delete"]);
  });

  it("refuses an 'always' rule that does not match the answer, or when no rule was suggested, without answering", async () => {
    const { a, s, askId } = await setup({
      ...gitLog,
      decision: { decision: "ask", reason: "could not parse", rule: "commands.unparseable" },
    });
    await a.send({
      type: "answerAsk",
      requestId: 19,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "user" },
    });
    await a.send({
      type: "answerAsk",
      requestId: 20,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "deny", scope: "user" },
    });
    expect(s.answers).toEqual([]);
    const results = a.fake.ofType("result").filter((r) => r.requestId >= 19);
    expect(results.map((r) => r.ok)).toEqual([false, false]);
    expect(results[0]!.error).toMatch(/no rule/);
    expect(results[1]!.error).toMatch(/matching answer/);
  });
});

describe("follow-up messages to an idle task", () => {
  it("continue a completed task, and are refused while it works", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "build" });
    const s = h.factory.created[0]!;
    await w.send({ type: "sendMessage", requestId: 2, text: "and test" });
    expect(w.fake.ofType("result").find((r) => r.requestId === 2)?.ok).toBe(false);
    s.setState("done");
    await w.send({ type: "sendMessage", requestId: 3, text: "and test" });
    expect(w.fake.ofType("result").find((r) => r.requestId === 3)?.ok).toBe(true);
    expect(s.sent).toEqual(["and test"]);
    expect(h.factory.created).toHaveLength(1);
  });
});

describe("Run outside the sandbox is accepted only where the card offered it", () => {
  const sandboxed = (canRunOutside: boolean): ToolInfo => ({
    ...gitLog,
    sandboxOutlook: {
      sandboxed: true,
      network: "off",
      grant: "workspace-write",
      ...(canRunOutside ? { canRunOutside } : {}),
    },
  });

  it("offered: the answer reaches the task", async () => {
    const { a, s, askId } = await setup(sandboxed(true));
    await a.send({ type: "answerAsk", requestId: 30, messageId: askId, response: { kind: "approveOutsideSandbox" } });
    expect(s.answers.map((x) => x.response.kind)).toEqual(["approveOutsideSandbox"]);
  });

  it("not offered (plan mode, no sandbox): refused with a reason, and the ask still waits", async () => {
    const { a, s, askId } = await setup(sandboxed(false));
    await a.send({ type: "answerAsk", requestId: 31, messageId: askId, response: { kind: "approveOutsideSandbox" } });
    expect(s.answers).toHaveLength(0);
    expect(a.fake.ofType("result").find((r) => r.requestId === 31)?.error).toMatch(/cannot run outside the sandbox/);
  });
});
