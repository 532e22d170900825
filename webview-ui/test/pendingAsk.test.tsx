// @vitest-environment jsdom
import "./support/shims";
import { describe, expect, it } from "vitest";
import { pendingAsk } from "../src/chat/AskDock";
import type { TaskMessage } from "../../src/shared/messages";

const base = { ts: 0, text: "", partial: false } as const;

describe("pendingAsk", () => {
  it("shows a tool ask while its arguments still stream, before it can be answered", () => {
    const streaming: TaskMessage = {
      ...base,
      id: 2,
      role: "ask",
      kind: "tool",
      partial: true,
      tool: { name: "write_to_file", params: { path: "a.txt" }, status: "streaming" },
    };
    expect(pendingAsk([{ ...base, id: 1, role: "say", kind: "user", text: "go" }, streaming])?.id).toBe(2);
  });

  it("never shows an answered ask, nor a streaming say", () => {
    const answered: TaskMessage = {
      ...base,
      id: 2,
      role: "ask",
      kind: "tool",
      askState: "answered",
      tool: { name: "write_to_file", params: {}, status: "approved" },
    };
    const say: TaskMessage = {
      ...base,
      id: 3,
      role: "say",
      kind: "tool",
      tool: { name: "read_file", params: {}, status: "streaming" },
    };
    expect(pendingAsk([answered, say])).toBeUndefined();
  });
});
