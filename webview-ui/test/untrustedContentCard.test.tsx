// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TaskMessage } from "../../src/shared/messages";
import { AskDock } from "../src/chat/AskDock";
import { message, setup, tool } from "./support/render";

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
