import { describe, expect, it } from "vitest";
import { parseWebviewMessage } from "../../../src/host/protocolGuard";
import type { WebviewToHost } from "../../../src/shared/protocol";

// One of every message the webview sends: each comes back exactly as sent.
const valid: WebviewToHost[] = [
  { type: "ready" },
  { type: "addMcpServer" },
  { type: "manageTrust" },
  { type: "focusChanged", requestId: 40, focused: true },
  { type: "newTask", requestId: 1, text: "fix the tests" },
  { type: "sendMessage", requestId: 2, text: "" },
  { type: "cancelTask", requestId: 3 },
  { type: "clearTask", requestId: 4 },
  { type: "answerAsk", requestId: 5, messageId: 9, response: { kind: "approve" } },
  {
    type: "answerAsk",
    requestId: 6,
    messageId: 9,
    response: { kind: "reject", text: "not that file" },
    remember: { effect: "deny", scope: "workspace" },
  },
  { type: "setSetting", requestId: 7, change: { key: "mode", value: "plan" } },
  { type: "setSetting", requestId: 8, change: { key: "autoApprove.all", value: true } },
  { type: "setSetting", requestId: 9, change: { key: "autoApprove.action", action: "webFetch", value: true } },
  { type: "setSetting", requestId: 10, change: { key: "autoApprove.maxRequests", value: 25 } },
  { type: "setSetting", requestId: 11, change: { key: "autoApprove.maxCost", value: 1.5 } },
  { type: "mcpChange", requestId: 12, change: { kind: "toolAlwaysAllow", server: "s", tool: "t", value: true } },
  { type: "mcpChange", requestId: 13, change: { kind: "serverEnabled", server: "s", value: false } },
  { type: "openDiff", messageId: 3 },
  { type: "openSettings" },
  { type: "openSettings", query: "toolgate.mcpServers" },
];

describe("webview message guard (derived from the protocol schemas)", () => {
  it("accepts every well-formed message unchanged", async () => {
    for (const m of valid) expect(await parseWebviewMessage(m)).toEqual(m);
  });

  it("keeps only a message's own fields", async () => {
    expect(await parseWebviewMessage({ type: "cancelTask", requestId: 1, rule: "Bash(*)" })).toEqual({
      type: "cancelTask",
      requestId: 1,
    });
    expect(
      await parseWebviewMessage({
        type: "answerAsk",
        requestId: 1,
        messageId: 2,
        response: { kind: "approve", rule: "Bash(rm -rf /)" },
        remember: { effect: "allow", scope: "user", rule: "Bash(*)" },
      }),
    ).toEqual({
      type: "answerAsk",
      requestId: 1,
      messageId: 2,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "user" },
    });
  });

  it.each([
    ["not an object", "ready"],
    ["an unknown type", { type: "runCommand", command: "rm -rf /" }],
    ["a request without an id", { type: "newTask", text: "x" }],
    ["a fractional id", { type: "cancelTask", requestId: 1.5 }],
    ["a negative id", { type: "cancelTask", requestId: -1 }],
    ["an unsafe id", { type: "cancelTask", requestId: 2 ** 60 }],
    ["an oversized task text", { type: "newTask", requestId: 1, text: "x".repeat(200_001) }],
    ["an unknown answer", { type: "answerAsk", requestId: 1, messageId: 1, response: { kind: "always" } }],
    [
      "an unknown rule scope",
      {
        type: "answerAsk",
        requestId: 1,
        messageId: 1,
        response: { kind: "approve" },
        remember: { effect: "allow", scope: "everywhere" },
      },
    ],
    [
      "a setting outside the panel's",
      { type: "setSetting", requestId: 1, change: { key: "commands.allow", value: [] } },
    ],
    ["a wrongly typed setting", { type: "setSetting", requestId: 1, change: { key: "autoApprove.all", value: "yes" } }],
    ["an unknown mode", { type: "setSetting", requestId: 1, change: { key: "mode", value: "yolo" } }],
    [
      "an unknown action",
      { type: "setSetting", requestId: 1, change: { key: "autoApprove.action", action: "deleteFiles", value: true } },
    ],
    ["a negative limit", { type: "setSetting", requestId: 1, change: { key: "autoApprove.maxCost", value: -1 } }],
    [
      "a fractional request limit",
      { type: "setSetting", requestId: 1, change: { key: "autoApprove.maxRequests", value: 2.5 } },
    ],
    [
      "an infinite limit",
      { type: "setSetting", requestId: 1, change: { key: "autoApprove.maxCost", value: Infinity } },
    ],
    [
      "a tool change without a tool",
      { type: "mcpChange", requestId: 1, change: { kind: "toolEnabled", server: "s", value: true } },
    ],
    ["a long settings query", { type: "openSettings", query: "x".repeat(200) }],
  ])("drops %s", async (_what, raw) => {
    expect(await parseWebviewMessage(raw)).toBeUndefined();
  });
});
