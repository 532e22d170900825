import { describe, expect, it } from "vitest";
import { TurnAssembler, type ToolBlock } from "../../../src/agent/streaming/turn";

describe("TurnAssembler", () => {
  it("streams a write_to_file: path known early, content as deltas, complete at tool_end", () => {
    const deltas: string[] = [];
    const fields: string[] = [];
    const t = new TurnAssembler({
      onToolStringDelta: (_b, k, d) => k === "content" && deltas.push(d),
      onToolFieldComplete: (_b, k) => fields.push(k),
    });
    t.handle({ type: "text", text: "Writing " });
    t.handle({ type: "text", text: "it." });
    t.handle({ type: "tool_start", index: 0, id: "t1", name: "write_to_file" });
    t.handle({ type: "tool_delta", index: 0, json: '{"path":"a.txt","content":"he' });
    const block = t.toolBlocks[0]!;
    expect(block.completeFields.has("path")).toBe(true);
    expect(block.params).toEqual({ path: "a.txt", content: "he" });
    expect(block.state).toBe("streaming");
    t.handle({ type: "tool_delta", index: 0, json: 'llo"}' });
    t.handle({ type: "tool_end", index: 0 });
    expect(block.state).toBe("complete");
    expect(deltas).toEqual(["he", "llo"]);
    expect(fields).toEqual(["path", "content"]);
    expect(t.text).toBe("Writing it.");
  });

  it("marks a block interrupted when the stream is cut inside it", () => {
    const ended: ToolBlock[] = [];
    const t = new TurnAssembler({ onToolEnd: (b) => ended.push(b) });
    t.handle({ type: "tool_start", index: 0, id: "t1", name: "execute_command" });
    t.handle({ type: "tool_delta", index: 0, json: '{"command":"rm -rf bu' });
    t.interrupt();
    expect(t.toolBlocks[0]!.state).toBe("interrupted");
    expect(ended).toHaveLength(1);
  });

  it("marks malformed arguments as an error the model can act on, and ignores later deltas", () => {
    const t = new TurnAssembler();
    t.handle({ type: "tool_start", index: 0, id: "t1", name: "read_file" });
    t.handle({ type: "tool_delta", index: 0, json: '{"path": src/a.ts}' });
    t.handle({ type: "tool_delta", index: 0, json: "more" });
    t.handle({ type: "end", stopReason: "tool_use" });
    const b = t.toolBlocks[0]!;
    expect(b.state).toBe("error");
    expect(b.error).toMatch(/read_file were not valid JSON \(invalid value "src" at position 12\)\. Nothing was run/);
  });

  it("treats a block that ends with an unterminated object as malformed, not complete", () => {
    const t = new TurnAssembler();
    t.handle({ type: "tool_start", index: 3, id: "t", name: "read_file" });
    t.handle({ type: "tool_delta", index: 3, json: '{"path": "a"' });
    t.handle({ type: "end", stopReason: "tool_calls" });
    expect(t.toolBlocks[0]!.state).toBe("error");
  });
});
