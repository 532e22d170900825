import * as path from "node:path";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../../support/cli";
import { tempTree } from "../../support/workspace";
import { claudeCodeAdapter } from "../../../src/cli/hooks/claudeCode";
import { decideHook } from "../../../src/cli/hooks/decide";
import { toolgate } from "./cliProcess";

// Where no server's tool list is known (`check`, the hooks), a deny or ask rule must hold for every spelling
// of the tool it names (`-`/`_`, letter case), while an allow is never lent to another spelling.
const t = tempTree({
  "ws/src/a.ts": "a",
  "user/settings.json": JSON.stringify({
    "toolgate.mode": "auto",
    "toolgate.permissions.deny": ["mcp__ev__get_env", "mcp__My-Srv__drop", "mcp__other_agent__wipe"],
    "toolgate.permissions.ask": ["mcp__ev__run-thing"],
    "toolgate.mcpServers": {
      ev: { command: "node", alwaysAllow: ["get-sum"] },
      my_srv: { command: "node", alwaysAllow: ["*"] },
    },
    "toolgate.autoApprove.actions": { useMcp: true },
  }),
  "fine/settings.json": JSON.stringify({
    "toolgate.mcpServers": { ev: { command: "node", alwaysAllow: ["get-sum"] } },
    "toolgate.autoApprove.actions": { useMcp: true },
  }),
});
let cli = "";
beforeAll(async () => {
  cli = await buildCli();
});
afterAll(() => t.cleanup());

const mcp = (server_name: string, tool_name: string) => ({
  tool: "use_mcp_tool",
  params: { server_name, tool_name, arguments: "{}" },
});

describe("toolgate check: MCP rule spellings with no tool list", () => {
  it("a deny or ask rule holds for every spelling, in auto mode too", () => {
    const calls = [
      mcp("ev", "get_env"),
      mcp("ev", "get-env"),
      mcp("ev", "GET-ENV"),
      mcp("ev", "Get_Env"),
      mcp("my_srv", "drop"),
      mcp("my_srv", "DROP"),
      mcp("ev", "run_thing"),
      mcp("ev", "Run-Thing"),
    ];
    const r = toolgate(cli, ["check", "--settings", t.path("user/settings.json"), "--workspace", t.path("ws")], {
      input: calls,
    });
    expect(r.status).toBe(0);
    expect(r.lines.map((l) => [l.decision, l.rule])).toEqual([
      ["deny", "permissions.deny: mcp__ev__get_env"],
      ["deny", "permissions.deny: mcp__ev__get_env"],
      ["deny", "permissions.deny: mcp__ev__get_env"],
      ["deny", "permissions.deny: mcp__ev__get_env"],
      ["deny", "permissions.deny: mcp__My-Srv__drop"],
      ["deny", "permissions.deny: mcp__My-Srv__drop"],
      ["ask", "permissions.ask: mcp__ev__run-thing"],
      ["ask", "permissions.ask: mcp__ev__run-thing"],
    ]);
  });

  it("alwaysAllow is lent to no other spelling", () => {
    const r = toolgate(cli, ["check", "--settings", t.path("fine/settings.json"), "--workspace", t.path("ws")], {
      input: [mcp("ev", "get-sum"), mcp("ev", "get_sum"), mcp("ev", "GET-SUM")],
    });
    expect(r.lines.map((l) => [l.decision, l.rule])).toEqual([
      ["allow", "autoApprove.useMcp+alwaysAllow"],
      ["ask", "mcp:not-always-allowed"],
      ["ask", "mcp:not-always-allowed"],
    ]);
  });
});

describe("toolgate hook claude-code: MCP rule spellings", () => {
  const hermetic: NodeJS.ProcessEnv = {
    ...process.env,
    VSCODE_APPDATA: path.join(tmpdir(), "toolgate-no-vscode-settings"),
    // Each call is its own session in a state folder of this test's: an MCP call taints its session (the
    // untrusted-content guard), which would make the next call's MCP tool a way out that asks.
    XDG_STATE_HOME: t.path("state"),
    CLAUDE_PROJECT_DIR: t.path("ws"),
  };
  let sessions = 0;
  delete hermetic.TOOLGATE_MANAGED_SETTINGS;
  const input = (tool_name: string) =>
    JSON.stringify({
      session_id: `spelling-${++sessions}`,
      transcript_path: "/tmp/t.jsonl",
      cwd: t.path("ws"),
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name,
      tool_input: {},
    });
  const decide = (tool: string, settings = "user/settings.json") =>
    decideHook(claudeCodeAdapter, input(tool), ["--settings", t.path(settings)], hermetic);

  it("a hyphen or upper-case spelling does not beat an underscore deny rule", async () => {
    for (const name of ["mcp__ev__get_env", "mcp__ev__get-env", "mcp__ev__GET_ENV", "mcp__MY_SRV__drop"]) {
      const d = await decide(name);
      expect([name, d.decision]).toEqual([name, "deny"]);
      expect(d.reason).toMatch(/is denied by your settings/);
    }
    // A server only Claude Code knows (stubbed for the decision) is matched the same way.
    expect((await decide("mcp__other-agent__Wipe")).decision).toBe("deny");
    expect((await decide("mcp__ev__run_thing")).decision).toBe("ask");
  });

  it("an allow stays with its exact tool", async () => {
    expect((await decide("mcp__ev__get-sum", "fine/settings.json")).decision).toBe("allow");
    expect((await decide("mcp__ev__get_sum", "fine/settings.json")).decision).toBe("ask");
  });

  it("the real entry point answers the same", () => {
    const r = toolgate(cli, ["hook", "claude-code", "--settings", t.path("user/settings.json")], {
      input: input("mcp__ev__Get-Env"),
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
  });
});
