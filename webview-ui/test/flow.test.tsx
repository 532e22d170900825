// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskMessage } from "../../src/shared/messages";
import type { TaskView } from "../../src/shared/protocol";
import { ChatView } from "../src/chat/ChatView";
import { MessageList } from "../src/chat/MessageList";
import { Row } from "../src/rows/Row";
import { message, settingsView, setup, tool } from "./support/render";

afterEach(cleanup);

function chat(props: Partial<Parameters<typeof ChatView>[0]> = {}) {
  const s = setup();
  s.view(
    <ChatView
      task={null}
      settings={settingsView()}
      agentAvailable
      menuOpen={false}
      onMenuOpenChange={() => undefined}
      focusInputSeq={0}
      {...props}
    />,
  );
  return s;
}

const article = (name: RegExp | string) => screen.getByRole("article", { name });

describe("first run without a model", () => {
  it("the card names what is missing and each button asks the host for its step", () => {
    const s = chat({
      model: { configured: false, provider: "No model", problem: "No chat model is installed in VS Code." },
    });
    const card = screen.getByRole("region", { name: "Connect a model to start" });
    expect(within(card).getByText(/No chat model is installed in VS Code\./)).toBeTruthy();
    for (const [name, action] of [
      ["Choose a provider", "chooseProvider"],
      ["Set API key", "setApiKey"],
      ["Open settings", "openSettings"],
      ["Open the getting-started walkthrough", "walkthrough"],
    ] as const) {
      fireEvent.click(within(card).getByRole("button", { name }));
      expect(s.lastPosted()).toEqual({ type: "firstRun", action });
    }
    // Nothing can be sent that could not start.
    const input = screen.getByRole("textbox", { name: "Task" });
    expect(input.getAttribute("placeholder")).toBe("Connect a model to start a task.");
    expect((input as HTMLTextAreaElement).disabled).toBe(true);
  });

  it("the model line under the input always says which provider and model are in use", () => {
    chat({
      model: { configured: true, provider: "OpenAI-compatible", model: "gpt-4o", endpoint: "http://127.0.0.1:9/v1" },
    });
    const line = screen.getByRole("note", { name: "Model in use" });
    expect(within(line).getByText("OpenAI-compatible · gpt-4o").getAttribute("title")).toBe(
      "OpenAI-compatible · gpt-4o at http://127.0.0.1:9/v1",
    );
    expect(screen.queryByRole("region", { name: "Connect a model to start" })).toBeNull();
  });
});

describe("task history", () => {
  const items = [
    { id: "a1", title: "Fix the build", updatedAt: Date.now() - 5 * 60_000, state: "done" as const, costUsd: 0 },
    { id: "b2", title: "Write tests", updatedAt: Date.now() - 3 * 86_400_000, state: "error" as const, costUsd: 0 },
  ];

  it("lists recent tasks as buttons with their state and age; opening one asks the host for it", () => {
    const s = chat({ history: items, model: { configured: true, provider: "Anthropic", model: "claude" } });
    const nav = screen.getByRole("navigation", { name: "Recent tasks" });
    // Each entry: the task itself (opens it) and its "Delete task" (described by the task's name, so the
    // task's name finds one button).
    const all = within(nav).getAllByRole("button");
    expect(within(nav).getAllByRole("button", { name: /Fix the build/ })).toHaveLength(1);
    expect(within(nav).getAllByRole("button", { name: "Delete task", description: "Fix the build" })).toHaveLength(1);
    expect(all.filter((b) => b.getAttribute("aria-label")?.startsWith("Delete")).map((b) => b.title)).toEqual([
      "Delete “Fix the build”",
      "Delete “Write tests”",
    ]);
    const buttons = all.filter((b) => !b.getAttribute("aria-label"));
    expect(buttons.map((b) => b.textContent)).toEqual([
      "Fix the buildcompleted · 5 min ago",
      "Write testsstopped · 3 days ago",
    ]);
    fireEvent.click(buttons[1]!);
    expect(s.intents().at(-1)).toEqual({ type: "openHistoryTask", id: "b2" });
  });

  it("a reopened task says where it came from and offers a reply that continues it", () => {
    const task: TaskView = {
      id: "a1",
      state: "done",
      fromHistory: true,
      messages: [message({ kind: "user", text: "Fix the build" }), message({ kind: "completion", text: "Fixed." })],
    };
    chat({ task });
    expect(screen.getByText(/Opened from your task history\. Reply below to continue it/)).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Task" }).getAttribute("placeholder")).toBe(
      "Reply to continue this task…",
    );
  });

  it("a reopened task that cannot continue is read-only and says why", () => {
    chat({ task: { id: "x", state: "error", fromHistory: true, canContinue: false, messages: [] } });
    expect(screen.getByText(/read-only: its conversation was not saved/)).toBeTruthy();
    const input = screen.getByRole("textbox", { name: "Task" }) as HTMLTextAreaElement;
    expect(input.disabled).toBe(true);
    expect(input.placeholder).toBe("This task cannot be continued: start a new one.");
  });
});

describe("an unreachable model", () => {
  it("is one row that counts down its next attempt, with Retry now and Stop in that row", async () => {
    const row = message({
      kind: "error",
      role: "ask",
      askState: "pending",
      text: "Could not connect to http://127.0.0.1:9/v1/chat/completions (ECONNREFUSED)",
      retry: { attempt: 2, of: 6, at: Date.now() + 8_000 },
    });
    const s = chat({ task: { id: "t", state: "running", messages: [message({ kind: "user", text: "go" }), row] } });
    const a = article("Error");
    expect(within(a).getByText("The model did not answer")).toBeTruthy();
    expect(within(a).getByRole("status").textContent).toBe("Retrying in 8 s… (attempt 2 of 6)");
    expect(
      within(a).getByText(/Could not connect to http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions \(ECONNREFUSED\)/),
    ).toBeTruthy();
    // Not docked as "the agent stopped": the task is still working on its own.
    expect(screen.queryByRole("region", { name: /The agent stopped/ })).toBeNull();
    fireEvent.click(within(a).getByRole("button", { name: "Retry now" }));
    expect(s.intents().at(-1)).toEqual({ type: "answerAsk", messageId: row.id, response: { kind: "approve" } });
    await s.reply(true);
    fireEvent.click(within(a).getByRole("button", { name: "Stop" }));
    expect(s.intents().at(-1)).toEqual({ type: "answerAsk", messageId: row.id, response: { kind: "reject" } });
  });

  it("once the retries are used up, the row says how many attempts were made and the card asks once", () => {
    const row = message({
      kind: "error",
      role: "ask",
      askState: "pending",
      text: "The model request failed: Could not connect to http://127.0.0.1:9/v1 (ECONNREFUSED)",
      retry: { attempt: 6, of: 6 },
    });
    chat({ task: { id: "t", state: "waiting", messages: [row] } });
    const a = article("Error");
    expect(within(a).getByText("6 attempts")).toBeTruthy();
    expect(within(a).queryByText(/Could not connect/)).toBeNull();
    const card = screen.getByRole("region", { name: /The agent stopped/ });
    expect(within(card).getByText(/Could not connect to http:\/\/127\.0\.0\.1:9\/v1 \(ECONNREFUSED\)/)).toBeTruthy();
    // Shown once on screen (the screen-reader announcement aside).
    const shown = screen.getAllByText(/Could not connect/).filter((e) => !e.closest(".tg-sr-only"));
    expect(shown).toHaveLength(1);
  });
});

describe("compact transcript", () => {
  const turn = (): TaskMessage[] => [
    message({ kind: "user", text: "read it" }),
    message({
      kind: "api_request",
      text: "openai:gpt-4o",
      usage: { inputTokens: 1234, outputTokens: 56, costUsd: 0.01 },
    }),
    message({ kind: "text", text: "Reading." }),
    message({ kind: "tool", tool: tool("read_file", { path: "a.ts" }) }),
  ];

  it("a finished model request has no row: its tokens are shown at the end of the turn's last row", () => {
    setup().view(<MessageList messages={turn()} busy={false} />);
    expect(screen.getAllByRole("article").map((a) => a.getAttribute("aria-label"))).toEqual([
      "Your message",
      "Agent",
      "Tool call read_file, done",
    ]);
    const last = article("Tool call read_file, done");
    expect(within(last).getByLabelText("Tokens and cost of this model turn").textContent).toMatch(
      /1,234 in · 56 out · \$0\.01/,
    );
    expect(within(article("Agent")).queryByLabelText("Tokens and cost of this model turn")).toBeNull();
  });

  it("a request still waiting keeps its own row", () => {
    setup().view(
      <MessageList
        messages={[message({ kind: "user", text: "go" }), message({ kind: "api_request", partial: true })]}
        busy
      />,
    );
    expect(within(article("Model request")).getByText("Waiting for the model…")).toBeTruthy();
  });

  it("a pending ask's row names the call and points at the card, without repeating its content", () => {
    const ask = message({
      kind: "tool",
      role: "ask",
      askState: "pending",
      text: "hello\n",
      tool: tool("write_to_file", { path: "a.txt" }, { status: "pending" }),
    });
    chat({ task: { id: "t", state: "waiting", messages: [ask] } });
    const a = article("Tool call write_to_file, pending");
    expect(within(a).getByText("Write file")).toBeTruthy();
    expect(within(a).getByText("Shown in full in the card below.")).toBeTruthy();
    expect(within(a).queryByRole("button", { name: /Open diff/ })).toBeNull();
  });

  it("a pending command appears once, in its card: its row names the call without the command", () => {
    const ask = message({
      kind: "tool",
      role: "ask",
      askState: "pending",
      text: "npm run build",
      tool: tool(
        "execute_command",
        {},
        {
          status: "pending",
          decision: { decision: "ask", reason: "`npm` is not in your allow list", rule: "commands.allowList" },
        },
      ),
    });
    chat({ task: { id: "t", state: "waiting", messages: [ask] } });
    const a = article("Tool call execute_command, pending");
    expect(within(a).getByText("Run command")).toBeTruthy();
    expect(within(a).queryByText(/npm run build/)).toBeNull();
    expect(screen.getByLabelText("Exactly what will run").textContent).toBe("npm run build");
    const feed = screen.getByRole("feed", { name: "Task messages" });
    expect(feed.textContent).not.toContain("npm run build");
  });

  it("a rejection is stated neutrally with the person's feedback, and a call that never ran is not 'auto-approved'", () => {
    const s = setup();
    s.view(
      <Row
        message={message({
          kind: "tool",
          tool: tool(
            "execute_command",
            { command: "rm -rf build" },
            {
              status: "rejected",
              decision: { decision: "ask", reason: "`rm` deletes files", rule: "hard:deletion" },
              result: "The person rejected this call. Their feedback: keep build",
            },
          ),
        })}
      />,
    );
    expect(screen.getByText(/Rejected by you/).closest(".tg-tag")!.className).toContain("tg-tag-neutral");
    expect(screen.queryByText("`rm` deletes files")).toBeNull();
    expect(screen.getByRole("note", { name: "Your feedback" }).textContent).toMatch(/You said: keep build$/);
    expect(screen.getAllByText(/keep build/)).toHaveLength(1);
    cleanup();
    setup().view(
      <Row
        message={message({
          kind: "tool",
          tool: tool(
            "read_file",
            { path: "a.ts" },
            { status: "interrupted", decision: { decision: "allow", reason: "inside", rule: "autoApprove.readFiles" } },
          ),
        })}
      />,
    );
    expect(screen.getByText(/Interrupted: never ran/)).toBeTruthy();
    expect(screen.queryByText("auto-approved")).toBeNull();
  });

  it("a call stopped while it ran is not said to have never run", () => {
    setup().view(
      <Row
        message={message({
          kind: "tool",
          tool: tool(
            "execute_command",
            { command: "sleep 300" },
            {
              status: "interrupted",
              decision: { decision: "allow", reason: "allowed", rule: "commands.allow" },
              result: "The task was cancelled while this call ran; it was stopped.",
            },
          ),
        })}
      />,
    );
    const pill = screen.getByText(/Interrupted while running/).closest(".tg-tag")!;
    expect(pill.className).toContain("tg-tag-warn");
    expect(screen.queryByText(/never ran/)).toBeNull();
  });

  it("counts lines as an editor does, singular and plural", () => {
    const write = (text: string) =>
      message({ kind: "tool", text, tool: tool("write_to_file", { path: "a.txt" }, { status: "done" }) });
    for (const [text, words] of [
      ["1\n2\n3\n4\n5\n6\n7\n8\n", "8 lines"],
      ["only\n", "1 line"],
      ["a\nb", "2 lines"],
    ] as const) {
      setup().view(<Row message={write(text)} />);
      expect(screen.getByText(words)).toBeTruthy();
      cleanup();
    }
  });
});
