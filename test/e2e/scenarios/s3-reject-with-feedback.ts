/**
 * Scenario 3: with `ls` allowed, `ls; rm -rf build` still asks and the card names rm; Reject
 * with feedback → build/ is untouched and the model's next request carries the rejection and the feedback.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  answer,
  approvalCard,
  modelSettings,
  requestsAtLeast,
  startModel,
  startTask,
  toolResultsIn,
} from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const FEEDBACK = "do not delete build";

export const rejectWithFeedback: Scenario = {
  id: "s3",
  title: "'ls; rm -rf build' with ls allowed asks naming rm; Reject with feedback keeps build/ and tells the model",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    `settings: toolgate.commands.allow = ["ls"]; the workspace has build/keep.txt`,
    "the model calls execute_command('ls; rm -rf build')",
    "the ask card shows the full command and names rm as the reason",
    `type feedback '${FEEDBACK}' and click Reject`,
    "build/keep.txt still exists; the model's next request contains the rejection and the feedback text",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      {
        steps: [
          { tool: "execute_command", args: { command: "ls; rm -rf build", requires_approval: false }, chunks: 3 },
        ],
      },
      { steps: [{ tool: "attempt_completion", args: { result: "Left build/ alone." } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.commands.allow": ["ls"] },
      files: { "build/keep.txt": "keep me\n" },
    });
    const frame = await openPanel(session);
    await startTask(frame, "Clean up.");
    const card = approvalCard(frame);
    await card.waitFor({ timeout: 30_000 });
    const what = (await card.getByLabel("Exactly what will run").innerText()).replace(/\s+/g, " ").trim();
    ctx.softCheck(
      /ls; rm -rf build/.test(what),
      `the card's "Exactly what will run" shows "${what}" instead of the full command 'ls; rm -rf build'`,
    );
    const why = (await card.locator(".tg-why").innerText())
      .replace(/\s+/g, " ")
      .replace(/^WHY IT ASKS /i, "")
      .trim();
    ctx.softCheck(/\brm\b/.test(why), `the reason does not name rm: "${why}"`);
    ctx.log(`card: runs "${what}"; why: "${why}"`);
    for (const shot of await session.screenshotBothThemes("ask-command")) ctx.log(`screenshot: ${shot}`);

    await answer(card, "Reject", FEEDBACK);
    await requestsAtLeast(model, 2);
    const results = toolResultsIn(model, 1);
    assert.equal(results.length, 1, "the model should get one tool result for the rejected call");
    assert.match(results[0]!, /reject|denied|declined/i, `the result does not say it was rejected: ${results[0]}`);
    assert.ok(results[0]!.includes(FEEDBACK), `the result does not carry the feedback: ${results[0]}`);
    ctx.log(`the model's next request: ${JSON.stringify(results[0]!.slice(0, 200))}`);
    assert.equal(existsSync(join(session.workspace, "build", "keep.txt")), true, "build/keep.txt is gone");
    ctx.log("build/keep.txt still exists");
  },
};
