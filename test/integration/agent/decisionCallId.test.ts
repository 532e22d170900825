/** The gate's decision of a complete call carries the call's id (its row in the task), for the audit log. */
import { afterEach, describe, expect, it } from "vitest";
import type { ToolCall } from "../../../src/core/types";
import { startHarness, type Harness } from "../../support/agentHarness";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe("decided calls name their row", () => {
  it("an asked command is decided with its message id, with its params as the model sent them", async () => {
    h = await startHarness({
      turns: [
        { steps: [{ tool: "execute_command", args: { command: "touch x.txt", requires_approval: false } }] },
        { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
      ],
      answer: (m) => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" }),
    });
    const decided: Array<{ call: ToolCall; callId: number | undefined }> = [];
    const decide = h.config.callbacks.decide;
    h.config.callbacks.decide = (call, callId) => {
      decided.push({ call, callId });
      return decide(call, callId);
    };
    await h.task.run();
    const ask = h.asks.asks.find((a) => a.message.tool?.name === "execute_command")!;
    const command = decided.filter((d) => d.call.tool === "execute_command");
    expect(command.length).toBeGreaterThan(0);
    for (const d of command) {
      expect(d.callId).toBe(ask.messageId);
      expect(d.call.params).toEqual({ command: "touch x.txt", requires_approval: false });
    }
    expect(h.exists("x.txt")).toBe(false);
  });
});
