import { describe, expect, it } from "vitest";
import { estimateTokens, requestMessages, trimFor } from "../../../src/agent/task/conversation";
import type { ConversationMessage } from "../../../src/agent/providers/types";

const user = (t: string): ConversationMessage => ({ role: "user", content: [{ type: "text", text: t }] });
const asst = (id: string): ConversationMessage => ({
  role: "assistant",
  content: [{ type: "tool_use", id, name: "read_file", input: { path: "a" } }],
});
const result = (id: string, size: number): ConversationMessage => ({
  role: "user",
  content: [{ type: "tool_result", toolUseId: id, content: "x".repeat(size) }],
});

describe("conversation trimming", () => {
  const conv = [user("task"), asst("1"), result("1", 4000), asst("2"), result("2", 4000), asst("3"), result("3", 400)];

  it("drops whole oldest (assistant, user) pairs, keeps the task and the last exchange", () => {
    const t = trimFor(conv, "", 1500);
    expect(t.keepFrom).toBe(3);
    const sent = requestMessages(conv, t.keepFrom);
    expect(sent.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
    expect(sent[0]!.content.at(-1)).toEqual({
      type: "text",
      text: "[2 earlier messages of this conversation were removed to fit the context window.]",
    });
    // Every tool_use sent has its tool_result.
    expect(sent[1]!.content[0]).toMatchObject({ id: "2" });
    expect(sent[2]!.content[0]).toMatchObject({ toolUseId: "2" });
    expect(estimateTokens(sent)).toBeLessThanOrEqual(1500);
    // A tighter budget drops more, but never the last exchange.
    expect(trimFor(conv, "", 10).keepFrom).toBe(5);
  });

  it("never trims when it fits, and never brings trimmed history back", () => {
    expect(trimFor(conv, "", 100_000).keepFrom).toBe(1);
    expect(trimFor(conv, "", 100_000, 3).keepFrom).toBe(3);
    expect(requestMessages(conv, 1)).toEqual(conv);
  });
});
