/**
 * Scenario 16: with no model configured, the panel shows the first-run card and the model line says so;
 * "Choose a provider" walks through the provider, endpoint and model in the workbench's own pickers, after
 * which the card is gone and the model line names the new model; the walkthrough opens from the card.
 */
import { modelSettings, startModel } from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

export const firstRun: Scenario = {
  id: "s16",
  title: "first run without a model: the first-run card, choosing a provider, the model line, the walkthrough",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "no provider settings: the card 'Connect a model to start' with Choose a provider / Set API key / Open settings",
    "the model line says no model is set up; light and dark screenshots",
    "Choose a provider → OpenAI-compatible server → the scripted model's URL → model name",
    "the card is gone and the model line names OpenAI-compatible and the model",
    "the card's walkthrough link (from a fresh panel) opens 'Get started with Toolgate'",
  ],
  timeoutMs: 240_000,
  run: async (ctx) => {
    const model = await startModel(ctx, []);
    const baseKey = Object.keys(modelSettings(ctx, model)).find((k) => /baseUrl$/i.test(k));
    const session = await ctx.openSession({});
    const frame = await openPanel(session);
    const card = frame.getByRole("region", { name: "Connect a model to start" });
    await card.waitFor({ timeout: 30_000 });
    for (const name of ["Choose a provider", "Set API key", "Open settings"])
      ctx.softCheck(
        (await card.getByRole("button", { name }).count()) === 1,
        `the first-run card has no "${name}" button`,
      );
    const line = frame.getByRole("note", { name: "Model in use" });
    const lineText = (await line.innerText()).replace(/\s+/g, " ").trim();
    ctx.log(`model line: "${lineText}"`);
    ctx.softCheck(/No model/.test(lineText), `the model line does not say no model is set up: "${lineText}"`);
    for (const shot of await session.screenshotBothThemes("first-run")) ctx.log(`screenshot: ${shot}`);

    const page = session.page;
    const quick = page.locator(".quick-input-widget");
    const input = quick.locator("input");
    await card.getByRole("button", { name: "Choose a provider" }).click();
    await quick.getByText("OpenAI-compatible server").first().waitFor({ timeout: 15_000 });
    await input.fill("OpenAI-compatible server");
    await page.keyboard.press("Enter");
    await quick.getByText("OpenAI-compatible base URL").waitFor({ timeout: 10_000 });
    await input.fill(model.openAiBaseUrl);
    await page.keyboard.press("Enter");
    await quick.getByText("Model name").waitFor({ timeout: 10_000 });
    await input.fill("scripted-model");
    await page.keyboard.press("Enter");
    const after = await eventually(
      "the model line to name the chosen model",
      async () => {
        const t = (await line.innerText()).replace(/\s+/g, " ").trim();
        return /OpenAI-compatible · scripted-model/.test(t) ? t : undefined;
      },
      20_000,
    );
    ctx.log(`model line after choosing: "${after}" (${baseKey ?? "base URL"} = ${model.openAiBaseUrl})`);
    ctx.softCheck((await card.count()) === 0, "the first-run card is still shown after a model was chosen");
    for (const shot of await session.screenshotBothThemes("first-run-chosen")) ctx.log(`screenshot: ${shot}`);

    // The walkthrough, from a fresh session's card.
    const fresh = await ctx.openSession({});
    const frame2 = await openPanel(fresh);
    const card2 = frame2.getByRole("region", { name: "Connect a model to start" });
    await card2.waitFor({ timeout: 30_000 });
    await card2.getByRole("button", { name: "Open the getting-started walkthrough" }).click();
    await fresh.page.getByText("Get started with Toolgate").first().waitFor({ timeout: 20_000 });
    ctx.log("the walkthrough 'Get started with Toolgate' opened");
    for (const shot of await fresh.screenshotBothThemes("walkthrough")) ctx.log(`screenshot: ${shot}`);
  },
};
