/** "Open diff" on a row: the host opens the review of an edit that happened or is asked about, never of a refused one. */
import { describe, expect, it } from "vitest";
import type { ToolInfo } from "../../../src/shared/messages";
import { makeHost } from "./harness";

async function withRow(tool: ToolInfo) {
  const h = makeHost();
  const a = h.webview("sidebar");
  await a.send({ type: "ready" });
  await a.send({ type: "newTask", requestId: 1, text: "edit a file" });
  const id = h.factory.created[0]!.add({ role: "say", kind: "tool", text: "", tool });
  await a.send({ type: "openDiff", messageId: id });
  return h;
}

describe("openDiff", () => {
  it("a refused write with no content opens no diff (it would show the intact file as deleted)", async () => {
    const h = await withRow({
      name: "write_to_file",
      params: { path: "notes.md" },
      status: "denied",
      decision: { decision: "deny", reason: "`content` is missing", rule: "validator:missing-param" },
    });
    expect(h.diffs).toEqual([]);
  });

  it("an edit that ran opens its diff", async () => {
    const h = await withRow({
      name: "write_to_file",
      params: { path: "notes.md", content: "x\n" },
      status: "done",
    });
    expect(h.diffs.map((m) => m.tool?.params.path)).toEqual(["notes.md"]);
  });
});
