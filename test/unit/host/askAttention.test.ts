import { describe, expect, it } from "vitest";
import {
  askSummary,
  attentionOf,
  badgeOf,
  NO_ATTENTION,
  parseNotifyOnAsk,
  shouldNotify,
} from "../../../src/host/askAttention";
import { formatAnswer } from "../../../src/host/decisionLog";
import { statusText } from "../../../src/host/statusText";
import type { TaskMessage, ToolInfo } from "../../../src/shared/messages";
import type { SettingsView } from "../../../src/shared/protocol";
import { makeHost } from "./harness";

const push: ToolInfo = {
  name: "execute_command",
  params: { command: "git push origin main" },
  status: "pending",
  decision: {
    decision: "ask",
    reason: "`git push` reaches the network",
    rule: "commands.allowList",
    suggestion: "git push",
  },
};

function msg(over: Partial<TaskMessage>): TaskMessage {
  return { id: 1, ts: 0, role: "ask", kind: "tool", text: "", partial: false, askState: "pending", ...over };
}

describe("what waits for the person", () => {
  it("counts complete pending asks only while the task waits", () => {
    const messages = [
      msg({ id: 1, askState: "answered", tool: push }),
      msg({ id: 2, tool: push }),
      msg({ id: 3, role: "say", kind: "text", askState: undefined }),
    ];
    expect(attentionOf(messages, true)).toEqual({ count: 1, latestId: 2, summary: 'run "git push origin main"' });
    expect(attentionOf(messages, false)).toBe(NO_ATTENTION);
    expect(attentionOf([msg({ id: 4, partial: true, tool: push })], true)).toBe(NO_ATTENTION);
  });

  it("summaries name the call in one short line", () => {
    const edit: ToolInfo = { name: "write_to_file", params: { path: "src/a.ts", content: "x" }, status: "pending" };
    expect(askSummary(msg({ tool: edit }))).toBe("edit src/a.ts");
    expect(askSummary(msg({ kind: "followup", text: "Which\nbranch?" }))).toBe("answer a question: Which branch?");
    // The command streams as the message text (its parameter is the call's body), so it is read from there.
    expect(askSummary(msg({ text: "rm -rf build", tool: { ...push, params: {} } }))).toBe('run "rm -rf build"');
    expect(askSummary(msg({ text: "", tool: { ...push, params: {} } }))).toBe("run a command");
    const long = askSummary(msg({ tool: { ...push, params: { command: "x".repeat(500) } } }));
    expect(long.length).toBeLessThan(100);
  });

  it("notifies once per new ask, by the setting and the panel's visibility", () => {
    const a = { count: 1, latestId: 7, summary: "run `ls`" };
    expect(shouldNotify("whenHidden", false, NO_ATTENTION, a)).toBe(true);
    expect(shouldNotify("whenHidden", true, NO_ATTENTION, a)).toBe(false);
    expect(shouldNotify("always", true, NO_ATTENTION, a)).toBe(true);
    expect(shouldNotify("off", false, NO_ATTENTION, a)).toBe(false);
    expect(shouldNotify("always", false, a, a)).toBe(false); // the same ask seen again
    expect(shouldNotify("always", false, a, NO_ATTENTION)).toBe(false);
    expect(parseNotifyOnAsk("loud")).toBe("whenHidden");
    expect(parseNotifyOnAsk("off")).toBe("off");
  });

  it("badge and status bar show the count", () => {
    expect(badgeOf(NO_ATTENTION)).toBeUndefined();
    expect(badgeOf({ count: 2, latestId: 3, summary: "edit a" })).toEqual({
      value: 2,
      tooltip: "Toolgate: 2 requests wait for your answer (edit a)",
    });
    const view = {
      mode: "normal",
      autoApprove: { enabled: true, all: false },
      errors: [],
      workspaceTrusted: true,
    } as unknown as SettingsView;
    const t = statusText(view, 1);
    expect(t.text).toBe("$(bell-dot) 1 · $(shield) Normal · auto-approve on");
    expect(t.warning).toBe(true);
    expect(statusText(view, 0).text).toBe("$(shield) Normal · auto-approve on");
  });
});

describe("the host tells the person and keeps an audit trail", () => {
  async function started() {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    await w.send({ type: "newTask", requestId: 1, text: "ship it" });
    const s = h.factory.created[0]!;
    return { h, w, s };
  }

  it("an arriving ask raises the count; answering it clears it", async () => {
    const { h, w, s } = await started();
    const id = s.ask(push);
    expect(h.attentions.at(-1)).toMatchObject({ count: 1, latestId: id });
    await w.send({ type: "answerAsk", requestId: 2, messageId: id, response: { kind: "reject", text: "not now" } });
    expect(h.attentions.at(-1)).toEqual(NO_ATTENTION);
    const line = h.logs.find((l) => l.includes("REJECTED"))!;
    expect(line).toContain("execute_command");
    expect(line).toContain("git push origin main");
    expect(line).toContain("rule: commands.allowList");
    expect(line).toContain('feedback "not now"');
  });

  it("the keyboard answers the waiting ask exactly once and is logged as such", async () => {
    const { h, s } = await started();
    expect(h.controller.answerPending("approve")).toMatch(/Nothing is waiting/);
    const id = s.ask(push);
    expect(h.controller.answerPending("approve")).toBeUndefined();
    expect(s.answers).toEqual([{ messageId: id, response: { kind: "approve" } }]);
    expect(h.controller.answerPending("approve")).toMatch(/Nothing is waiting/);
    expect(h.logs.some((l) => l.includes("APPROVED (keyboard) execute_command"))).toBe(true);
  });

  it("a follow-up question is not approved by the approve key", async () => {
    const { h, s } = await started();
    s.add({ role: "ask", kind: "followup", text: "Which branch?", askState: "pending" });
    s.setState("waiting");
    expect(h.controller.answerPending("approve")).toMatch(/needs an answer in the panel/);
    expect(s.answers).toHaveLength(0);
  });

  it("a rule granted with the answer is in the audit line with its scope", () => {
    const line = formatAnswer(msg({ tool: push }), { kind: "approve" }, "t1", {
      scope: "workspace",
      list: "commandsAllow",
      rule: "git push",
    });
    expect(line).toBe(
      '[task t1] [call 1] APPROVED (panel) execute_command {"command":"git push origin main"} (as shown) — asked because `git push` reaches the network (rule: commands.allowList); granted commandsAllow rule "git push" for workspace',
    );
  });
});
