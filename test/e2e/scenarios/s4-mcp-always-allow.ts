/**
 * Scenario 4, against the real @modelcontextprotocol/server-everything over stdio: ticking
 * "Always allow" for its echo tool lets the next echo call run without asking; get-sum of the same server
 * still asks; the tick survives a window reload.
 */
import assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import {
  answer,
  approvalCard,
  modelSettings,
  requestsAtLeast,
  startModel,
  startTask,
  toolResultsIn,
} from "../harness/agent";
import { eventually, openPanel } from "../harness/panel";
import type { Scenario } from "../harness/scenario";
import type { Session } from "../harness/session";
import { toolgateFrame } from "../harness/webview";

async function mcpTab(session: Session): Promise<Frame> {
  let frame = await openPanel(session);
  await frame.getByRole("tab", { name: /MCP/ }).click();
  frame = await toolgateFrame(session.page);
  return frame;
}

export const mcpAlwaysAllow: Scenario = {
  id: "s4",
  title:
    "MCP: 'always allow' on one server-everything tool runs it without asking; another still asks; survives a reload",
  needs: ["vsix", "panel", "agent", "scriptedModel"],
  plan: [
    "settings: toolgate.mcpServers.everything (stdio), useMcp on; the MCP view shows it connected with its tools",
    "tick 'Always allow' for echo: user settings.json alwaysAllow contains echo",
    "the model calls use_mcp_tool(everything, echo): runs without an ask, the echo reaches the model",
    "the model calls use_mcp_tool(everything, get-sum): an ask appears (Approve: 5 reaches the model)",
    "reload the window: the echo box is still ticked",
  ],
  timeoutMs: 240_000,
  run: async (ctx) => {
    const model = await startModel(ctx, [
      {
        steps: [
          {
            tool: "use_mcp_tool",
            args: {
              server_name: "everything",
              tool_name: "echo",
              arguments: JSON.stringify({ message: "hello from e2e" }),
            },
          },
        ],
      },
      {
        steps: [
          {
            tool: "use_mcp_tool",
            args: { server_name: "everything", tool_name: "get-sum", arguments: JSON.stringify({ a: 2, b: 3 }) },
          },
        ],
      },
      { steps: [{ tool: "attempt_completion", args: { result: "Called both tools." } }] },
    ]);
    const session = await ctx.openSession({
      settings: {
        ...modelSettings(ctx, model),
        "toolgate.mcpServers": ctx.info.mcpServers,
        "toolgate.autoApprove.actions": { useMcp: true },
      },
    });
    let frame = await mcpTab(session);
    const server = frame.getByRole("region", { name: "everything" });
    await server.getByText("connected", { exact: true }).waitFor({ timeout: 60_000 });
    const echoBox = () =>
      frame
        .getByRole("region", { name: "everything" })
        .getByRole("listitem", { name: "Tool echo" })
        .getByRole("checkbox", { name: /^Always allow/ });
    await echoBox().click();
    await eventually("alwaysAllow to contain echo in user settings.json", () => {
      const s = session.readUserSettings()["toolgate.mcpServers"] as
        Record<string, { alwaysAllow?: string[] }> | undefined;
      return s?.everything?.alwaysAllow?.includes("echo") ? true : undefined;
    });
    ctx.log("ticked 'Always allow' for echo: settings.json alwaysAllow has echo");
    for (const shot of await session.screenshotBothThemes("mcp-view")) ctx.log(`screenshot: ${shot}`);

    await frame.getByRole("tab", { name: "Chat" }).click();
    frame = await toolgateFrame(session.page);
    await startTask(frame, "Use the MCP tools.");
    await requestsAtLeast(model, 2, 60_000);
    assert.ok(
      toolResultsIn(model, 1).some((r) => r.includes("hello from e2e")),
      `echo's result did not reach the model: ${toolResultsIn(model, 1).join(" | ")}`,
    );
    ctx.log("echo ran without an ask and its result reached the model");

    const card = approvalCard(frame).filter({ hasText: "get-sum" });
    await card.waitFor({ timeout: 30_000 });
    ctx.log("get-sum asks");
    await answer(card, "Approve");
    await requestsAtLeast(model, 3, 60_000);
    assert.ok(
      toolResultsIn(model, 2).some((r) => /\b5\b/.test(r)),
      `get-sum's result did not reach the model: ${toolResultsIn(model, 2).join(" | ")}`,
    );

    await session.reload();
    frame = await mcpTab(session);
    await echoBox().waitFor({ timeout: 60_000 });
    assert.equal(await echoBox().isChecked(), true, "echo's 'Always allow' did not survive the reload");
    ctx.log("after a window reload echo's box is still ticked");
  },
};
