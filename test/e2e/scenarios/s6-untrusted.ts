/**
 * Scenario 6 (the agent part; the panel's note is s6a): in an untrusted folder nothing is
 * auto-approved even with approve-all and every action on — a read and a plain `ls` both ask.
 */
import assert from "node:assert/strict";
import { answer, approvalCard, modelSettings, requestsAtLeast, startModel, startTask } from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const EVERYTHING_ON = {
  "toolgate.autoApprove.all": true,
  "toolgate.autoApprove.actions": {
    readFiles: true,
    readFilesExternally: true,
    editFiles: true,
    editFilesExternally: true,
    executeSafeCommands: true,
    executeAllCommands: true,
    useMcp: true,
    webFetch: true,
  },
};

export const untrustedNothingAutoApproved: Scenario = {
  id: "s6",
  title: "an untrusted folder (Restricted Mode): nothing is auto-approved even with every switch on",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "open an untrusted folder with toolgate.autoApprove.all = true and every action on",
    "the model calls read_file: it asks (Reject)",
    "the model calls execute_command('ls'): it asks (Reject)",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "read_file", args: { path: "src/a.ts" } }] },
      { steps: [{ tool: "execute_command", args: { command: "ls", requires_approval: false } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Done." } }] },
    ]);
    const session = await ctx.openSession({
      trusted: false,
      settings: { ...modelSettings(ctx, model), ...EVERYTHING_ON },
      files: { "src/a.ts": "export {};\n" },
    });
    const frame = await openPanel(session);
    await startTask(frame, "Look around.");
    for (const [i, what, title] of [
      [1, "read_file src/a.ts", "Allow this read?"],
      [2, "execute_command ls", "Run this command?"],
    ] as const) {
      const card = approvalCard(frame).filter({ hasText: title });
      await card.waitFor({ timeout: 30_000 });
      const why = (await card.locator(".tg-why").innerText()).replace(/\s+/g, " ").trim();
      ctx.log(`${what} asks; why: "${why}"`);
      if (i === 1) ctx.log(`screenshot: ${await session.screenshot("untrusted-ask")}`);
      await answer(card, "Reject");
      await requestsAtLeast(model, i + 1);
      assert.equal(model.requests.length, i + 1);
    }
  },
};
