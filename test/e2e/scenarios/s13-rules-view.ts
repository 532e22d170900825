/**
 * Scenario 13, against the real @modelcontextprotocol/server-everything: "Always allow" with the scope
 * "Always" on an MCP tool's card ticks the tool in its server's alwaysAllow (not a permissions rule), the
 * next call runs unasked, the MCP tab shows the box ticked and the rule that lets it run; the Rules view,
 * opened from the command palette, lists every remembered rule, and removing one rewrites only that entry.
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { approvalCard, modelSettings, requestsAtLeast, startModel, startTask, toolResultsIn } from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";
import type { Session } from "../harness/session";
import { toolgateFrame } from "../harness/webview";
import { runCommand } from "../harness/workbench";

type Servers = Record<string, { alwaysAllow?: string[]; command?: string; args?: string[] }>;

const echo = (message: string) => ({
  tool: "use_mcp_tool",
  args: { server_name: "everything", tool_name: "echo", arguments: JSON.stringify({ message }) },
});

async function tab(session: Session, name: RegExp): Promise<Frame> {
  let frame = await toolgateFrame(session.page);
  await frame.getByRole("tab", { name }).click();
  frame = await toolgateFrame(session.page);
  return frame;
}

export const rulesView: Scenario = {
  id: "s13",
  title:
    "Rules: 'always allow' of an MCP tool ticks its alwaysAllow; the MCP tab and the Rules view (command palette) list and remove rules",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: server-everything, useMcp on, commands.allow [git log], permissions.allow [Read(docs/**)]",
    "the model calls echo: the card asks; choose 'Always' and 'Always allow'",
    "user settings.json: everything.alwaysAllow has echo, permissions.allow is unchanged",
    "the model calls echo again: it runs without an ask",
    "MCP tab: echo's 'Always allow' box is ticked and lists the alwaysAllow rule",
    "palette 'Toolgate: Show Remembered Rules' opens the Rules tab listing git log, Read(docs/**) and echo",
    "Remove git log: commands.allow no longer has it; permissions.allow and alwaysAllow are untouched",
  ],
  timeoutMs: 300_000,
  run: async (ctx) => {
    const model = await startModel(ctx, [
      { steps: [echo("first")] },
      { steps: [echo("second")] },
      { steps: [{ tool: "attempt_completion", args: { result: "Echoed twice." } }] },
    ]);
    const session = await ctx.openSession({
      settings: {
        ...modelSettings(ctx, model),
        "toolgate.mcpServers": ctx.info.mcpServers,
        "toolgate.autoApprove.actions": { useMcp: true },
        "toolgate.commands.allow": ["git log"],
        "toolgate.permissions.allow": ["Read(docs/**)"],
      },
    });
    const servers = () => session.readUserSettings()["toolgate.mcpServers"] as Servers | undefined;

    await openPanel(session);
    let frame = await tab(session, /MCP/);
    await frame
      .getByRole("region", { name: "everything" })
      .getByText("connected", { exact: true })
      .waitFor({ timeout: 60_000 });
    frame = await tab(session, /Chat/);
    await startTask(frame, "Echo twice.");

    const card = approvalCard(frame).filter({ hasText: "echo" });
    await card.waitFor({ timeout: 60_000 });
    await card.getByRole("radio", { name: /^Always$/ }).check();
    await card.getByText(/alwaysAllow of everything/).waitFor({ timeout: 10_000 });
    ctx.log("the card says 'Always allow' ticks echo in the MCP tab (alwaysAllow of everything)");
    for (const shot of await session.screenshotBothThemes("rules-card-always")) ctx.log(`screenshot: ${shot}`);
    await card.getByRole("button", { name: /^Always allow/ }).click();

    await eventually("alwaysAllow of everything to contain echo in user settings.json", () =>
      servers()?.everything?.alwaysAllow?.includes("echo") ? true : undefined,
    );
    const afterGrant = session.readUserSettings();
    assert.deepEqual(afterGrant["toolgate.permissions.allow"], ["Read(docs/**)"], "a permissions rule was written");
    ctx.log(`alwaysAllow = ${JSON.stringify(servers()?.everything?.alwaysAllow)}; permissions.allow unchanged`);

    await requestsAtLeast(model, 3, 60_000);
    assert.ok(
      toolResultsIn(model, 2).some((r) => r.includes("second")),
      `the second echo did not run: ${toolResultsIn(model, 2).join(" | ")}`,
    );
    // The first echo's card is answered; a second one would mean the grant did not reach the gate.
    await eventually("no echo card to be pending", async () =>
      (await approvalCard(frame).filter({ hasText: "echo" }).count()) === 0 ? true : undefined,
    );
    ctx.log("the second echo ran without an ask and reached the model");
    for (const shot of await session.screenshotBothThemes("rules-chat-after")) ctx.log(`screenshot: ${shot}`);

    frame = await tab(session, /MCP/);
    const echoItem = frame.getByRole("region", { name: "everything" }).getByRole("listitem", { name: "Tool echo" });
    await eventually("echo's box to be ticked", async () =>
      (await echoItem.getByRole("checkbox", { name: /^Always allow/ }).isChecked()) ? true : undefined,
    );
    const because = echoItem.getByRole("list", { name: "Rules that let it run" });
    await because.getByRole("listitem", { name: "Rule echo" }).getByText("MCP always allow").waitFor();
    ctx.log("MCP tab: echo ticked, listed under 'Rules that let it run' as MCP always allow");
    for (const shot of await session.screenshotBothThemes("rules-mcp-tab", async () => {
      await echoItem.scrollIntoViewIfNeeded();
    }))
      ctx.log(`screenshot: ${shot}`);

    await runCommand(session.page, "Toolgate: Show Remembered Rules");
    frame = await toolgateFrame(session.page);
    await eventually("the Rules tab to be selected", async () =>
      (await frame.getByRole("tab", { name: /Rules/ }).getAttribute("aria-selected")) === "true" ? true : undefined,
    );
    const user = frame.getByRole("region", { name: "User settings" });
    await user.getByRole("listitem", { name: "Rule git log" }).waitFor({ timeout: 10_000 });
    await user.getByRole("listitem", { name: "Rule Read(docs/**)" }).waitFor();
    await frame
      .getByRole("region", { name: "MCP always allow" })
      .getByRole("listitem", { name: "Rule echo" })
      .waitFor();
    ctx.log("the palette command opened the Rules tab: git log, Read(docs/**) and echo are listed");
    for (const shot of await session.screenshotBothThemes("rules-view")) ctx.log(`screenshot: ${shot}`);

    await user.getByRole("button", { name: "Remove git log" }).click();
    await eventually("git log to leave toolgate.commands.allow", () => {
      const v = session.readUserSettings()["toolgate.commands.allow"];
      return v === undefined || (Array.isArray(v) && !v.includes("git log")) ? true : undefined;
    });
    const after = session.readUserSettings();
    assert.deepEqual(after["toolgate.permissions.allow"], ["Read(docs/**)"], "another list was changed");
    assert.ok(servers()?.everything?.alwaysAllow?.includes("echo"), "the alwaysAllow lost echo");
    const configured = (ctx.info.mcpServers as Servers).everything!;
    assert.equal(servers()?.everything?.command, configured.command, "the server's command was changed");
    await user.getByRole("listitem", { name: "Rule git log" }).waitFor({ state: "detached", timeout: 10_000 });
    ctx.log("Remove git log: commands.allow no longer has it; permissions.allow and alwaysAllow untouched");
    for (const shot of await session.screenshotBothThemes("rules-view-removed")) ctx.log(`screenshot: ${shot}`);
  },
};
