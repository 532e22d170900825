// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { Row } from "../src/rows/Row";
import { DISPLAY_LIMIT } from "../src/rows/LongText";
import { message, setup, tool } from "./support/render";

afterEach(cleanup);

/** The tone (colour) of the status tag that reads `text`: what the person sees at a glance. */
const toneOf = (text: RegExp) => /tg-tag-(\w+)/.exec(screen.getByText(text).closest(".tg-tag")!.className)?.[1];

function show(m: Parameters<typeof Row>[0]["message"]) {
  const s = setup();
  const r = s.view(<Row message={m} />);
  return { ...s, ...r };
}

describe("say rows for every tool kind", () => {
  it("file read: path, status, and that it was auto-approved with the rule", () => {
    show(
      message({
        kind: "tool",
        tool: tool(
          "read_file",
          { path: "src/a.ts" },
          { decision: { decision: "allow", reason: "reading inside the workspace", rule: "autoApprove.readFiles" } },
        ),
      }),
    );
    expect(screen.getByText("Read file")).toBeTruthy();
    expect(screen.getByText("src/a.ts")).toBeTruthy();
    expect(toneOf(/Done/)).toBe("ok");
    expect(screen.getByText("auto-approved").getAttribute("title")).toContain("autoApprove.readFiles");
  });

  it("list and search rows name what they look at", () => {
    show(message({ kind: "tool", tool: tool("list_files", { path: "src", recursive: "true" }) }));
    expect(screen.getByText("List files (recursive)")).toBeTruthy();
    cleanup();
    show(message({ kind: "tool", tool: tool("search_files", { path: "src", regex: "TODO", file_pattern: "*.ts" }) }));
    expect(screen.getByText(/TODO\s+in\s+src\s+\(\*\.ts\)/)).toBeTruthy();
  });

  it("file edit: path, size, and an Open diff button that sends the intent for this message", () => {
    const m = message({
      kind: "tool",
      tool: tool("write_to_file", { path: "src/new.ts", content: "a\nb\nc" }, { status: "approved" }),
    });
    const s = show(m);
    expect(screen.getByText("Write file")).toBeTruthy();
    expect(screen.getByText("3 lines")).toBeTruthy();
    fireEvent.click(screen.getByText("Open diff"));
    expect(s.posted).toEqual([{ type: "openDiff", messageId: m.id }]);
  });

  it("a refused write offers no diff and no line count: the change will not happen", () => {
    const reason = { decision: "deny" as const, reason: "`content` is missing", rule: "validator:missing-param" };
    show(
      message({
        kind: "tool",
        tool: tool("write_to_file", { path: "notes.md" }, { status: "denied", decision: reason }),
      }),
    );
    expect(screen.getByText("Write file")).toBeTruthy();
    expect(screen.getByRole("note").textContent).toContain("`content` is missing");
    expect(screen.queryByText("Open diff")).toBeNull();
    expect(screen.queryByText(/\blines?\b/)).toBeNull();
  });

  it("replace_in_file shows the edit and its changes", () => {
    show(
      message({
        kind: "tool",
        tool: tool("replace_in_file", { path: "a.ts", diff: "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE" }),
      }),
    );
    expect(screen.getByText("Edit file")).toBeTruthy();
    expect(screen.getByText("Changes")).toBeTruthy();
  });

  it("command: the full command with invisible characters marked, and its live output", () => {
    show(
      message({
        kind: "tool",
        tool: tool("execute_command", { command: "echo hi\u200b; ls" }, { status: "running", result: "hi\nfile.txt" }),
      }),
    );
    expect(screen.getByText("Run command")).toBeTruthy();
    expect(toneOf(/Running/)).toBe("info");
    expect(screen.getByLabelText("zero width space (U+200B)").textContent).toBe("⟨U+200B⟩");
    expect(document.querySelector(".tg-command")!.textContent).toBe("echo hi⟨U+200B⟩; ls");
    expect(document.querySelector(".tg-output")!.textContent).toContain("hi\nfile.txt");
  });

  it("command: says whether it ran inside the OS sandbox, and nothing when that is not known", () => {
    const ran = (sandboxed?: boolean) =>
      message({
        kind: "tool",
        tool: tool(
          "execute_command",
          { command: "ls" },
          { status: "done", ...(sandboxed !== undefined ? { sandboxed } : {}) },
        ),
      });
    show(ran(true));
    expect(screen.getByLabelText("OS sandbox").textContent).toBe("sandboxed");
    cleanup();
    show(ran(false));
    expect(screen.getByLabelText("OS sandbox").textContent).toBe("unsandboxed");
    cleanup();
    show(ran());
    expect(screen.queryByLabelText("OS sandbox")).toBeNull();
  });

  it("MCP call: server, tool and pretty-printed arguments", () => {
    show(
      message({
        kind: "tool",
        tool: tool("use_mcp_tool", { server_name: "github", tool_name: "search", arguments: '{"q":"x","n":2}' }),
      }),
    );
    expect(screen.getByText("MCP tool")).toBeTruthy();
    expect(screen.getByText("github › search")).toBeTruthy();
    expect(document.querySelector(".tg-mcp pre")!.textContent).toBe('{\n  "q": "x",\n  "n": 2\n}');
  });

  it("MCP resource read names server and URI", () => {
    show(message({ kind: "tool", tool: tool("access_mcp_resource", { server_name: "docs", uri: "file:///readme" }) }));
    expect(screen.getByText("docs › file:///readme")).toBeTruthy();
  });

  it("web fetch refused by the gate shows the URL and the reason", () => {
    show(
      message({
        kind: "tool",
        tool: tool(
          "web_fetch",
          { url: "https://example.com/x" },
          {
            status: "denied",
            decision: { decision: "deny", reason: "denied by WebFetch(*)", rule: "permissions.deny" },
          },
        ),
      }),
    );
    expect(screen.getByText("Fetch web page")).toBeTruthy();
    expect(screen.getByText("https://example.com/x")).toBeTruthy();
    expect(toneOf(/Refused by the gate/)).toBe("error");
    expect(screen.getByRole("note").textContent).toContain("denied by WebFetch(*)");
  });

  it("a cut stream is shown as interrupted and never run; a streaming call says it is still arriving", () => {
    show(message({ kind: "tool", tool: tool("write_to_file", { path: "a" }, { status: "interrupted" }) }));
    expect(toneOf(/Interrupted: never ran/)).toBe("warn");
    cleanup();
    show(message({ kind: "tool", tool: tool("execute_command", { command: "npm te" }, { status: "streaming" }) }));
    expect(toneOf(/Receiving/)).toBe("neutral");
  });

  it("an ask row says it is waiting for approval", () => {
    show(
      message({
        kind: "tool",
        role: "ask",
        askState: "pending",
        tool: tool("execute_command", { command: "rm -rf dist" }, { status: "pending" }),
      }),
    );
    expect(toneOf(/Waiting for approval/)).toBe("warn");
  });
});

describe("rows in the runtime's shape (body as message text)", () => {
  it("command, file write and MCP arguments read their body from the message text", () => {
    show(message({ kind: "tool", text: "npm test", tool: tool("execute_command", {}, { status: "running" }) }));
    expect(document.querySelector(".tg-command")!.textContent).toBe("npm test");
    cleanup();
    show(message({ kind: "tool", text: "a\nb", tool: tool("write_to_file", { path: "x.ts" }, { status: "pending" }) }));
    expect(screen.getByText("2 lines")).toBeTruthy();
    cleanup();
    show(
      message({
        kind: "tool",
        text: '{"a":1}',
        tool: tool("use_mcp_tool", { server_name: "s", tool_name: "t" }, { serverName: "s", toolName: "t" }),
      }),
    );
    expect(document.querySelector(".tg-mcp pre")!.textContent).toBe('{\n  "a": 1\n}');
  });
});

describe("other rows", () => {
  it("user, assistant text and reasoning", () => {
    show(message({ kind: "user", text: "Fix the build" }));
    expect(screen.getByText("You")).toBeTruthy();
    expect(screen.getByText("Fix the build")).toBeTruthy();
    cleanup();
    show(message({ kind: "text", text: "Looking at it", partial: true }));
    expect(screen.getByText("Looking at it")).toBeTruthy();
    cleanup();
    show(message({ kind: "reasoning", text: "The build fails because…" }));
    expect(screen.getByText(/Reasoning/)).toBeTruthy();
  });

  it("command output streams live and keeps only the tail of a huge output in the DOM", () => {
    const big = "a".repeat(DISPLAY_LIMIT) + "END";
    show(message({ kind: "command_output", text: "x".repeat(5000) + big, partial: true }));
    expect(screen.getByText(/live/)).toBeTruthy();
    const pre = document.querySelector(".tg-output")!;
    expect(pre.textContent!.endsWith("END")).toBe(true);
    expect(pre.textContent!.length).toBe(DISPLAY_LIMIT);
    fireEvent.click(screen.getByText("Show all"));
    expect(document.querySelector(".tg-output")!.textContent!.length).toBe(5000 + DISPLAY_LIMIT + 3);
  });

  it("follow-up question with its options", () => {
    show(message({ kind: "followup", role: "ask", askState: "answered", text: "Which one?", options: ["A", "B"] }));
    expect(screen.getByText("Which one?")).toBeTruthy();
    expect(
      within(screen.getByRole("list", { name: "Suggested answers" }))
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(["A", "B"]);
    expect(screen.getByText("Answered")).toBeTruthy();
  });

  it("completion result with its command", () => {
    show(
      message({
        kind: "completion",
        text: "All tests pass.",
        tool: tool("attempt_completion", { result: "All tests pass.", command: "open index.html" }),
      }),
    );
    expect(screen.getByText("Task completed")).toBeTruthy();
    expect(screen.getByText("All tests pass.")).toBeTruthy();
    expect(screen.getByText("open index.html")).toBeTruthy();
  });

  it("model request with tokens and cost", () => {
    show(message({ kind: "api_request", usage: { inputTokens: 12840, outputTokens: 412, costUsd: 0.0421 } }));
    expect(screen.getByText("12,840 in · 412 out · $0.04")).toBeTruthy();
  });

  it("limit, error and info rows", () => {
    show(message({ kind: "limit", role: "ask", askState: "pending", text: "20 calls auto-approved." }));
    expect(screen.getByText("Auto-approve limit reached")).toBeTruthy();
    expect(screen.getByText("Waiting for you")).toBeTruthy();
    cleanup();
    show(message({ kind: "error", text: "429 Too Many Requests" }));
    expect(screen.getByText("Error")).toBeTruthy();
    expect(screen.getByText("429 Too Many Requests")).toBeTruthy();
    cleanup();
    show(message({ kind: "info", text: "Context trimmed" }));
    expect(screen.getByText("Context trimmed")).toBeTruthy();
  });
});
