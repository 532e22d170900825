/**
 * A task the person cancelled offers "Reply to continue": the reply must run the task again, with the model
 * getting the earlier conversation plus the reply — not end at once with "The task was cancelled."
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { describe, expect, it } from "vitest";
import { realGateFactory } from "../../../src/agent/approvalGate";
import { ToolExecutor } from "../../../src/agent/executor/toolExecutor";
import { JsSearcher } from "../../../src/agent/node/jsSearcher";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { AgentTaskSession } from "../../../src/agent/session/agentTaskSession";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { makeProvider, settingsFrom } from "../../support/agentHarness";
import { startScriptedModel } from "../../support/scriptedModel";

const until = async (what: () => boolean) => {
  for (let i = 0; i < 500 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("a reply to a cancelled task", () => {
  it("runs the task again, and the model gets the conversation plus the reply", async () => {
    const work = mkdtempSync(nodePath.join(tmpdir(), "toolgate-cancel-reply-"));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const model = await startScriptedModel([
      {
        steps: [
          { text: "Thinking about it…" },
          { tool: "list_files", args: { path: "." }, pauseAfterChunk: { chunk: 1, until: held } },
        ],
      },
      { steps: [{ tool: "attempt_completion", args: { result: "Done after the reply." } }] },
    ]);
    try {
      const fs = new NodeFs();
      const session = new AgentTaskSession("t-cancel", {
        executor: new ToolExecutor({
          createGate: realGateFactory({ settings: () => settingsFrom({}) }),
          roots: () => [work],
        }),
        provider: () => makeProvider("openai", model),
        env: {
          fs,
          runner: new NodeCommandRunner(),
          searcher: new JsSearcher(fs),
          ignoreRules: (r) => IgnoreRules.load(r, ".toolgateignore"),
        },
      });
      session.start("look around");
      await until(() => model.requests.length === 1);
      session.cancel();
      release();
      await until(() => session.state === "cancelled");
      expect(session.state).toBe("cancelled");

      session.sendMessage("please go on");
      await until(() => model.requests.length === 2);
      expect(model.requests).toHaveLength(2);
      const sent = JSON.stringify(model.requests[1]!.body.messages);
      expect(sent).toContain("look around");
      expect(sent).toContain("please go on");
      await until(() => session.snapshot().some((m) => m.kind === "completion"));
      const texts = session.snapshot().map((m) => m.text);
      expect(texts).toContain("Done after the reply.");
      // The cancel is said once, for the run that was cancelled; the reply's run was not.
      expect(texts.filter((t) => t === "The task was cancelled.")).toHaveLength(1);
    } finally {
      await model.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
