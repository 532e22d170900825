/**
 * Restricted Mode at the default side bar width: the banner is one line with "Trust this folder…" (which opens
 * VS Code's workspace trust editor), and the approval card gives the call's own risks below "not trusted" —
 * `rm -rf build` marked, deletion named, Reject primary.
 */
import { answer, approvalCard, modelSettings, requestsAtLeast, startModel, startTask } from "../harness/agent";
import { openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";
import { cardShots } from "./cardShots";

const LINE = "git status; rm -rf build";

export const cardRestricted: Scenario = {
  id: "s12c",
  title: "Restricted Mode: one-line banner with 'Trust this folder…'; the card shows the call's own risks",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "open an untrusted folder; the banner is one line and offers 'Trust this folder…'",
    `the model runs '${LINE}': the card points at the banner (no second 'Restricted Mode'), then its own risks (deletes), 'rm -rf build' marked`,
    "Reject is the primary button; screenshots light and dark; Reject",
    "'Trust this folder…' opens the Workspace Trust editor",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "execute_command", args: { command: LINE, requires_approval: false } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Done." } }] },
    ]);
    const session = await ctx.openSession({
      trusted: false,
      settings: modelSettings(ctx, model),
      files: { "build/keep.txt": "keep\n" },
    });
    const frame = await openPanel(session);
    const banner = frame.getByRole("note", { name: /^Restricted Mode/ });
    await banner.waitFor({ timeout: 10_000 });
    const lines = await banner.evaluate((el) => {
      const lh = parseFloat(getComputedStyle(el).lineHeight) || 18;
      const cs = getComputedStyle(el);
      const inner = el.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
      return Math.round(inner / lh);
    });
    ctx.softCheck(lines <= 1, `the Restricted Mode banner takes ${lines} lines`);
    ctx.log(`banner: "${(await banner.innerText()).replace(/\s+/g, " ")}" in ${lines} line(s)`);

    await startTask(frame, "Clean the build.");
    const card = approvalCard(frame).filter({ hasText: "Run this command?" });
    await card.getByRole("button", { name: /Approve/ }).waitFor({ timeout: 30_000 });
    const own = (await card.getByRole("group", { name: "Its own risks" }).innerText()).replace(/\s+/g, " ");
    const cardText = await card.innerText();
    ctx.softCheck(!cardText.includes("Restricted Mode"), "the card repeats the banner's 'Restricted Mode'");
    const said = ((await frame.locator("body").innerText()).match(/Restricted Mode/g) ?? []).length;
    ctx.softCheck(said === 1, `"Restricted Mode" is on screen ${said} times in the panel, not once`);
    ctx.softCheck(/\brm\b/.test(own) && /delet/i.test(own), `own risks: "${own}"`);
    const marked = (await card.getByLabel("Exactly what will run").locator("mark").allInnerTexts()).join("");
    ctx.softCheck(marked.replace(/\s+/g, " ") === "rm -rf build", `marked: "${marked}"`);
    const rejectClass = (await card.getByRole("button", { name: "Reject", exact: true }).getAttribute("class")) ?? "";
    ctx.softCheck(rejectClass.includes("tg-button-primary"), `Reject is not primary: ${rejectClass}`);
    ctx.log(`card: own risks "${own}"; marked "${marked}"`);
    for (const shot of await cardShots(session, "card-restricted")) ctx.log(`screenshot: ${shot}`);
    await answer(card, "Reject");
    await requestsAtLeast(model, 2);

    await banner.getByRole("button", { name: "Trust this folder…" }).click();
    // VS Code 1.139 opens the trust editor as a modal editor: its own heading is what shows.
    await session.page.getByText("You are in Restricted Mode").first().waitFor({ timeout: 15_000 });
    ctx.log("'Trust this folder…' opened the Workspace Trust editor");
    ctx.log(`screenshot: ${await session.screenshot("card-restricted-trust-editor")}`);
  },
};
