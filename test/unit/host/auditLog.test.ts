/**
 * The audit trail in the "Toolgate" log: the person's answer names the call it answers by its id, exactly as
 * the gate decided it (params with their own types, the body included), beside that call's decision line.
 */
import { describe, expect, it } from "vitest";
import { DecisionLog, formatAnswer } from "../../../src/host/decisionLog";
import type { ToolInfo } from "../../../src/shared/messages";
import { makeHost } from "./harness";

const decision = { decision: "ask" as const, reason: "`touch` is not in your allow list", rule: "commands.allowList" };
/** The row the panel shows: the body (`command`) streamed as the row's text, the rest as display strings. */
const row: ToolInfo = {
  name: "execute_command",
  params: { requires_approval: "false" },
  status: "pending",
  decision: { ...decision, suggestion: "touch" },
};

async function answered(response: { kind: "approve" | "reject"; text?: string }, via: "panel" | "keyboard") {
  const lines: string[] = [];
  const decisions = new DecisionLog({ info: (m) => lines.push(m), warn: (m) => lines.push(m), error: () => {} });
  const h = makeHost({ decidedCall: (t, id) => decisions.decidedCall(t, id) });
  const a = h.webview("sidebar");
  await a.send({ type: "ready" });
  await a.send({ type: "newTask", requestId: 1, text: "make a file" });
  const s = h.factory.created[0]!;
  const askId = s.ask(row, "touch notes.md");
  // What the runtime logs when the gate decides the complete call of that row.
  decisions.logDecision(
    { tool: "execute_command", params: { command: "touch notes.md", requires_approval: false } },
    decision,
    s.id,
    askId,
  );
  if (via === "keyboard") h.controller.answerPending(response.kind);
  else await a.send({ type: "answerAsk", requestId: 2, messageId: askId, response });
  return { decisionLine: lines[0]!, answerLine: h.logs.find((l) => / (APPROVED|REJECTED) /.test(l))!, id: s.id, askId };
}

describe("the audit log's answer lines", () => {
  it("name the call by its id, as decided: its command and a boolean that stays a boolean", async () => {
    const { decisionLine, answerLine, id, askId } = await answered({ kind: "approve" }, "panel");
    const call = `execute_command {"command":"touch notes.md","requires_approval":false}`;
    expect(decisionLine).toBe(
      `[task ${id}] [call ${askId}] ASK ${call} — \`touch\` is not in your allow list (rule: commands.allowList)`,
    );
    expect(answerLine).toBe(
      `info: [task ${id}] [call ${askId}] APPROVED (panel) ${call} — asked because \`touch\` is not in your allow list (rule: commands.allowList)`,
    );
  });

  it("a rejection from the keyboard is logged the same way", async () => {
    const { answerLine, id, askId } = await answered({ kind: "reject" }, "keyboard");
    expect(answerLine).toContain(
      `[task ${id}] [call ${askId}] REJECTED (keyboard) execute_command {"command":"touch notes.md","requires_approval":false}`,
    );
  });

  it("without a decision line for it, the answer still names the call with its body, marked as shown", () => {
    const ask = { id: 4, ts: 0, role: "ask", kind: "tool", text: "touch notes.md", partial: false, tool: row } as const;
    expect(formatAnswer(ask, { kind: "approve" }, "t")).toBe(
      '[task t] [call 4] APPROVED (panel) execute_command {"requires_approval":"false","command":"touch notes.md"} (as shown) — asked because `touch` is not in your allow list (rule: commands.allowList)',
    );
  });
});
