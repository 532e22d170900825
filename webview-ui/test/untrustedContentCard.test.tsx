// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskMessage } from "../../src/shared/messages";
import type { TaskView } from "../../src/shared/protocol";
import { AskDock } from "../src/chat/AskDock";
import { AutoApproveMenu } from "../src/chat/AutoApproveMenu";
import { ChatView } from "../src/chat/ChatView";
import { Store } from "../src/state/store";
import { isDisabled, message, settingsView, setup, tool } from "./support/render";

afterEach(cleanup);

function fetchAsk(rule: string, taintedBy?: string[]): TaskMessage {
  return message({
    kind: "tool",
    role: "ask",
    askState: "pending",
    tool: tool(
      "web_fetch",
      { url: "https://collector.example/x" },
      {
        status: "pending",
        decision: {
          decision: "ask",
          reason:
            "This task read content from tracker/fetch_issue, which may carry instructions from someone else. Sending data to collector.example needs your approval.",
          rule,
          ...(taintedBy ? { taintedBy } : {}),
        },
      },
    ),
  });
}

describe("the untrusted-content ask", () => {
  it("names the source and offers to trust it for this task next to Approve", () => {
    const s = setup();
    const m = fetchAsk("untrusted-content", ["tracker/fetch_issue"]);
    s.view(<AskDock message={m} />);
    expect(screen.getByRole("group", { name: "Why it asks" }).textContent).toContain("tracker/fetch_issue");
    fireEvent.click(screen.getByText("Trust this source for this task"));
    expect(s.intents()).toEqual([{ type: "answerAsk", messageId: m.id, response: { kind: "trustSource" } }]);
  });

  it("other asks do not offer it", () => {
    setup().view(<AskDock message={fetchAsk("autoApprove.webFetch")} />);
    expect(screen.queryByText(/Trust this source/)).toBeNull();
  });
});

describe("the untrusted-content chip", () => {
  const view = (task: TaskView) =>
    setup().view(
      <ChatView
        task={task}
        settings={settingsView()}
        agentAvailable
        menuOpen={false}
        onMenuOpenChange={() => undefined}
        focusInputSeq={0}
      />,
    );

  it("shows the sources the host says the task read, and nothing for a clean task", () => {
    view({ id: "t", state: "running", messages: [], untrustedSources: ["tracker/fetch_issue"] });
    expect(screen.getByText(/Read untrusted content from tracker\/fetch_issue/).className).toBe("tg-taint-chip");
    cleanup();
    view({ id: "t", state: "running", messages: [] });
    expect(screen.queryByText(/Read untrusted content/)).toBeNull();
  });

  it("the store follows the host's taskTaint messages for the open task only", () => {
    const store = new Store((fn) => fn());
    store.receive({
      type: "state",
      state: {
        task: { id: "t1", state: "running", messages: [] },
        settings: settingsView(),
        mcp: { servers: [], live: true },
        agentAvailable: true,
      },
    });
    store.receive({ type: "taskTaint", taskId: "other", sources: ["x"] });
    expect(store.getState().task!.untrustedSources).toBeUndefined();
    store.receive({ type: "taskTaint", taskId: "t1", sources: ["tracker/fetch_issue"] });
    expect(store.getState().task!.untrustedSources).toEqual(["tracker/fetch_issue"]);
    store.receive({ type: "taskTaint", taskId: "t1", sources: [] });
    expect(store.getState().task!.untrustedSources).toBeUndefined();
  });
});

describe("toolgate.untrustedContent in the auto-approve dropdown", () => {
  const box = () =>
    screen.getByRole("checkbox", { name: /After reading untrusted content/ }) as HTMLElement & { checked: boolean };

  it("shown on by default beside the switches it overrides; a click writes off, and back to ask", () => {
    const s = setup();
    s.view(<AutoApproveMenu settings={settingsView()} open onOpenChange={() => undefined} />);
    expect(box().checked).toBe(true);
    fireEvent.click(box());
    cleanup();
    const t = setup();
    t.view(
      <AutoApproveMenu settings={{ ...settingsView(), untrustedContent: "off" }} open onOpenChange={() => undefined} />,
    );
    expect(box().checked).toBe(false);
    fireEvent.click(box());
    expect([...s.intents(), ...t.intents()]).toEqual([
      { type: "setSetting", change: { key: "untrustedContent", value: "off" } },
      { type: "setSetting", change: { key: "untrustedContent", value: "ask" } },
    ]);
  });

  it("disabled when the managed policy fixes it", () => {
    setup().view(
      <AutoApproveMenu
        settings={{ ...settingsView(), locked: ["untrustedContent"] }}
        open
        onOpenChange={() => undefined}
      />,
    );
    expect(isDisabled(box())).toBe(true);
  });
});
