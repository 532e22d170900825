/**
 * Scenario 20: sandboxed autonomy from the first-run card. A fresh profile shows the preset card with
 * "Sandboxed autonomy" preselected (the sandbox works here); choosing it writes the switches to the user
 * settings and the dropdown names it. Then an `npm test` that writes a file runs without a card — its row says
 * "sandboxed" and the file is on disk — and a `curl` gets a card whose reason names the network.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  acceptCompletion,
  answer,
  approvalCard,
  modelSettings,
  requestsAtLeast,
  startModel,
  startTask,
  toolResultsIn,
} from "../harness/agent";
import { eventually, openPanel, PRESET_CARD } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const PROJECT = {
  "package.json": `${JSON.stringify({ name: "s20", private: true, scripts: { test: "node test.js" } }, null, 2)}\n`,
  "test.js": "require('fs').writeFileSync('test-output.txt', 'tests ran\\n'); console.log('1 passing');\n",
};

export const sandboxedAutonomy: Scenario = {
  id: "s20",
  title: "first-run card: Sandboxed autonomy; npm test runs sandboxed without a card; curl asks, naming the network",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "fresh profile: the preset card lists three presets, 'Sandboxed autonomy' preselected (screenshots)",
    "Use this preset: user settings get editFiles + executeInSandbox; the dropdown says 'Sandboxed autonomy'",
    "the model runs `npm test` (its script writes test-output.txt): no card, the row says 'sandboxed', the file exists",
    "the model runs `curl -fsS https://example.com`: a card whose reason names the network (screenshot); reject",
    "the completion is accepted",
  ],
  timeoutMs: 240_000,
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "execute_command", args: { command: "npm test" } }] },
      { steps: [{ tool: "execute_command", args: { command: "curl -fsS https://example.com" } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Tests pass." } }] },
    ]);
    const session = await ctx.openSession({ settings: modelSettings(ctx, model), files: PROJECT });
    const frame = await openPanel(session, { keepPresetCard: true });

    const card = frame.getByRole("region", { name: PRESET_CARD });
    await card.waitFor({ timeout: 20_000 });
    const radios = card.getByRole("radio");
    assert.equal(await radios.count(), 3, "the preset card does not list three presets");
    const chosen = card.getByRole("radio", { name: /Sandboxed autonomy/ });
    assert.equal(await chosen.isChecked(), true, "'Sandboxed autonomy' is not preselected though the sandbox works");
    for (const name of [/Ask before changes/, /Read-only/])
      assert.ok((await card.getByRole("radio", { name }).count()) === 1, `no radio ${String(name)}`);
    for (const shot of await session.screenshotBothThemes("preset-card", () => card.waitFor()))
      ctx.log(`screenshot: ${shot}`);

    await card.getByRole("button", { name: "Use this preset" }).click();
    await card.waitFor({ state: "detached", timeout: 15_000 });
    const actions = await eventually(
      "the preset's switches in the user settings",
      async () => {
        const a = session.readUserSettings()["toolgate.autoApprove.actions"] as Record<string, boolean> | undefined;
        return a?.executeInSandbox === true ? a : undefined;
      },
      15_000,
    );
    assert.equal(actions.editFiles, true, `user settings: ${JSON.stringify(actions)}`);
    const toggle = frame.getByRole("button", { name: /^Auto-approve:/ }).first();
    const label = await eventually(
      "the dropdown to name the preset",
      async () => {
        const t = (await toggle.innerText()).replace(/\s+/g, " ");
        return /Sandboxed autonomy/.test(t) ? t : undefined;
      },
      15_000,
    );
    ctx.log(`preset written (${JSON.stringify(actions)}); dropdown: "${label}"`);

    await startTask(frame, "Run the tests, then check the network.");
    const ask = approvalCard(frame);
    await ask.waitFor({ timeout: 60_000 });
    // By the time the curl card shows, npm test ran: it must have run without one.
    assert.equal(model.requests.length >= 2, true, "the first card came before npm test's result reached the model");
    const first = toolResultsIn(model, 1).join("\n");
    assert.match(first, /Exit code: 0/, `npm test did not succeed: ${first.slice(0, 600)}`);
    const written = join(session.workspace, "test-output.txt");
    assert.ok(existsSync(written), "npm test's file is not in the workspace");
    assert.equal(readFileSync(written, "utf8"), "tests ran\n");
    const npmRow = frame.locator(".tg-row.tg-tool", { hasText: "npm test" }).first();
    const sandboxLabel = (await npmRow.getByLabel("OS sandbox").textContent()) ?? "";
    assert.equal(sandboxLabel, "sandboxed", `npm test's row says "${sandboxLabel}"`);
    ctx.log(`npm test ran without a card, sandboxed; ${written} exists`);

    const cardText = (await ask.innerText()).replace(/\s+/g, " ");
    assert.match(cardText, /curl -fsS https:\/\/example\.com/, `the card is not about curl: ${cardText.slice(0, 300)}`);
    const why = (await ask.locator(".tg-why").textContent()) ?? "";
    assert.match(why, /reaches the network/, `the card's reason does not name the network: ${why}`);
    ctx.log(`curl card: "${why.trim()}"`);
    for (const shot of await session.screenshotBothThemes("sandboxed-autonomy-network-ask", () => ask.waitFor()))
      ctx.log(`screenshot: ${shot}`);

    await answer(ask, "Reject");
    await requestsAtLeast(model, 3);
    await acceptCompletion(frame, model);
  },
};
