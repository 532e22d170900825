/**
 * Scenario 18: the OS sandbox's "keep or remove" ask survives a window reload. With "run all commands" on,
 * the model runs a script that creates `.vscode/settings.json` (the workspace had no `.vscode`, so nothing
 * could be bound read-only there): the sandboxed command succeeds, and the card asks whether to keep or
 * remove the protected change. The window reloads while it asks; the same card is back; Remove undoes the
 * change (the file and its folder are gone, nothing else is) and the model is told, once.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { modelSettings, requestsAtLeast, startModel, startTask, toolResultsIn } from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";

const SCRIPT = "mkdir -p .vscode && printf '{ \"files.trimTrailingWhitespace\": true }\\n' > .vscode/settings.json\n";

export const sandboxReloadProtectedAsk: Scenario = {
  id: "s18",
  title: "OS sandbox: the keep-or-remove ask for a protected change survives a reload; Remove undoes it once",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.autoApprove.actions.executeAllCommands = true; the workspace has make.sh and no .vscode",
    "the model runs `bash make.sh` (auto-approved; the script creates .vscode/settings.json inside the sandbox)",
    "the card 'A sandboxed command changed protected paths' lists .vscode (screenshot)",
    "reload the window 3 s later; open the panel: the same card is back (screenshots light and dark)",
    "Remove (undo): .vscode is gone, make.sh stays; the model gets one result saying the person removed it",
  ],
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [{ tool: "execute_command", args: { command: "bash make.sh" } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "Done." } }] },
      { steps: [{ tool: "attempt_completion", args: { result: "(a duplicate run would get here)" } }] },
    ]);
    const session = await ctx.openSession({
      settings: { ...modelSettings(ctx, model), "toolgate.autoApprove.actions": { executeAllCommands: true } },
      files: { "make.sh": SCRIPT },
    });
    const settingsFile = join(session.workspace, ".vscode", "settings.json");
    let frame = await openPanel(session);
    await startTask(frame, "Configure the editor.");
    const cardOf = (f: typeof frame) =>
      f.locator("section.tg-protected-card", { hasText: "A sandboxed command changed protected paths" });
    await cardOf(frame).waitFor({ timeout: 30_000 });
    assert.equal(existsSync(settingsFile), true, "the sandboxed script did not create .vscode/settings.json");
    await cardOf(frame)
      .getByText(/editor configuration \(\.vscode\)/)
      .first()
      .waitFor();
    ctx.log(`screenshot: ${await session.screenshot("protected-ask-before-reload")}`);
    ctx.log("the keep-or-remove card is pending; reloading the window in 3 s");
    await session.page.waitForTimeout(3000);

    await session.reload();
    frame = await openPanel(session);
    const card = cardOf(frame);
    await card.waitFor({ timeout: 30_000 }).catch(() => {
      throw new Error("after the reload the keep-or-remove card is gone: the protected change would be kept silently");
    });
    const listed = (await card.getByRole("list", { name: "Protected paths changed" }).textContent()) ?? "";
    assert.match(listed, /\.vscode/, `the restored card does not list .vscode: ${listed}`);
    assert.equal(model.requests.length, 1, "the agent went on while the protected change was still pending");
    ctx.log("after the reload the same card is shown and the agent waits");
    for (const shot of await session.screenshotBothThemes("protected-ask-after-reload", () => card.waitFor()))
      ctx.log(`screenshot: ${shot}`);

    await card.getByRole("button", { name: "Remove (undo)" }).click();
    await eventually(
      "the .vscode folder removed",
      () => (existsSync(join(session.workspace, ".vscode")) ? undefined : true),
      20_000,
    );
    assert.equal(existsSync(join(session.workspace, "make.sh")), true, "Remove deleted more than the change");
    await requestsAtLeast(model, 2);
    const result = toolResultsIn(model, 1).join("\n");
    assert.match(
      result,
      /appeared: .*\.vscode .*— removed/,
      `the model was not told the change was removed: ${result}`,
    );
    assert.match(result, /chose to REMOVE/);
    assert.doesNotMatch(result, /editor was closed/, "the call was reported as of unknown outcome");
    await session.page.waitForTimeout(3000); // a duplicate run would send another request by now
    assert.equal(model.requests.length, 2, `the model got ${model.requests.length} requests: the call ran again`);
    const lists = frame.getByRole("list", { name: "Protected paths changed" });
    if ((await lists.count()) > 0)
      ctx.log(`the list after the answer: ${JSON.stringify(((await lists.last().textContent()) ?? "").slice(0, 200))}`);
    ctx.log(`screenshot: ${await session.screenshot("protected-ask-removed")}`);
    ctx.log("Remove after the reload: .vscode is gone, make.sh stays, the model read that it was removed, once");
  },
};
