import { afterAll, describe, expect, it } from "vitest";
import { ruleMatches, parseRule } from "../../../src/core/permissionRules";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const t = tempTree({ "ws/a.ts": "a" });
afterAll(() => t.cleanup());
const rule = (s: string, effect: "allow" | "deny" = "deny") => {
  const r = parseRule(s, effect, "user");
  if (!r.ok) throw new Error(r.error);
  return r.rule;
};
const use = (server: string, tool: string) => ({ tool: "use_mcp_tool" as const, mcp: { server, tool } });

describe("MCP rules and the spellings of a tool", () => {
  it("deny and ask match every spelling; allow only the exact name", () => {
    const r = rule("mcp__my-srv__get_env");
    for (const [server, tool] of [
      ["my-srv", "get_env"],
      ["my_srv", "get-env"],
      ["MY-SRV", "Get-Env"],
    ] as const)
      expect(ruleMatches(r, use(server, tool), false)).toBe(true);
    expect(ruleMatches(r, use("my-srv", "get_envx"), false)).toBe(false);
    expect(ruleMatches(r, use("my-srv", "getenv"), false)).toBe(false);
    expect(ruleMatches(r, use("my-srv", "get_env"), true)).toBe(true);
    expect(ruleMatches(r, use("my-srv", "get-env"), true)).toBe(false);
    expect(ruleMatches(r, use("my_srv", "get_env"), true)).toBe(false);
    expect(ruleMatches(rule("mcp__My_Srv"), { tool: "access_mcp_resource", mcp: { server: "my-srv" } }, false)).toBe(
      true,
    );
  });

  it("with the server's tool list: a deny rule spelled unlike the real tool still holds after repair", async () => {
    const g = await gateWith(
      {
        "toolgate.mode": "auto",
        "toolgate.permissions.deny": ["mcp__ev__GET_ENV"],
        "toolgate.mcpServers": { ev: { command: "node", alwaysAllow: ["*"] } },
      },
      [t.path("ws")],
      { mcpTools: () => [{ name: "get-env" }, { name: "echo" }] },
    );
    for (const name of ["get-env", "get_env"])
      expect(g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: name, arguments: "{}" }))).toMatchObject({
        decision: "deny",
        rule: "permissions.deny: mcp__ev__GET_ENV",
      });
    expect(g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "echo", arguments: "{}" })).decision).toBe(
      "allow",
    );
  });
});
