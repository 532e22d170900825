/**
 * Remembered rules through the real host path (ChatController + RuleStore + SettingsBridge over an in-memory
 * settings store): "always allow" of an MCP tool ticks its server's alwaysAllow and the real gate then runs
 * the tool unasked; the Rules view lists every source; removal touches only the named entry.
 */
import { describe, expect, it } from "vitest";
import { realGateFactory } from "../../../src/agent/approvalGate";
import { mcpView } from "../../../src/host/mcpPanel";
import { rememberedRules } from "../../../src/host/rulesView";
import { StorageKey } from "../../../src/host/settingsBridge";
import type { McpStatusSource, McpToolStatus } from "../../../src/host/taskSession";
import type { ToolInfo } from "../../../src/shared/messages";
import type { RuleEntry } from "../../../src/shared/protocol";
import { makeHost } from "./harness";

const servers = () => ({
  everything: { command: "npx", args: ["-y", "server-everything"], alwaysAllow: ["get-sum"], env: { A: "1" } },
  other: { command: "other-mcp", alwaysAllow: ["ping"] },
});

const echoAsk: ToolInfo = {
  name: "use_mcp_tool",
  params: { server_name: "everything", tool_name: "echo", arguments: "{}" },
  status: "pending",
  decision: {
    decision: "ask",
    reason: '`echo` is not marked "always allow" on `everything`',
    rule: "mcp:not-always-allowed",
    suggestion: "mcp__everything__echo",
  },
};

const managedPolicy = () => [
  {
    source: "/etc/toolgate/managed-settings.json",
    flat: {
      "toolgate.permissions.deny": ["Bash(curl *)"],
    },
  },
];

async function setup() {
  const h = makeHost({ managed: managedPolicy });
  h.config.global.set("mcpServers", servers());
  h.config.global.set("autoApprove.actions", { useMcp: true });
  const a = h.webview("sidebar");
  await a.send({ type: "ready" });
  await a.send({ type: "newTask", requestId: 1, text: "use mcp" });
  const s = h.factory.created[0]!;
  return { h, a, s };
}

async function echoDecision(h: ReturnType<typeof makeHost>) {
  const gate = await realGateFactory({
    settings: () => h.settings.hostSettings().settings,
    extra: () => ({ mcpTools: () => [{ name: "echo" }, { name: "get-sum" }] }),
  })({ roots: ["/tmp"] });
  return gate.decide({
    tool: "use_mcp_tool",
    params: { server_name: "everything", tool_name: "echo", arguments: "{}" },
  });
}

const hubTool = (name: string): McpToolStatus => ({ name, alwaysAllow: false, enabled: true });

const texts = (rules: readonly RuleEntry[]) => rules.map((r) => `${r.source}:${r.effect}:${r.rule}`);

describe("'always allow' of an MCP tool", () => {
  it("with scope 'always' ticks the server's alwaysAllow, the next call runs unasked, the MCP tab shows it ticked", async () => {
    const { h, a, s } = await setup();
    expect((await echoDecision(h)).decision).toBe("ask");
    const askId = s.ask(echoAsk);
    await a.send({
      type: "answerAsk",
      requestId: 2,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "user" },
    });
    expect(a.fake.ofType("result").find((r) => r.requestId === 2)?.ok).toBe(true);
    const written = h.config.global.get("mcpServers") as ReturnType<typeof servers>;
    expect(written.everything.alwaysAllow).toEqual(["get-sum", "echo"]);
    // Every other field and server as written; no permissions rule instead.
    expect(written.everything.env).toEqual({ A: "1" });
    expect(written.other).toEqual(servers().other);
    expect(h.config.global.get("permissions.allow")).toBeUndefined();
    expect(s.events).toEqual(["rules", "answer"]);

    const decision = await echoDecision(h);
    expect(decision.decision).toBe("allow");
    expect(decision.rule).toBe("autoApprove.useMcp+alwaysAllow");

    // The webview's own store (what the MCP tab renders) has echo ticked, with the rule that lets it run.
    const echo = a.store
      .getState()
      .mcp!.servers.find((x) => x.name === "everything")!
      .tools.find((t) => t.name === "echo")!;
    expect(echo.alwaysAllow).toBe(true);
    expect(texts(echo.rules ?? [])).toEqual(["mcpAlwaysAllow:allow:echo"]);
    expect(
      h.logs.some((l) => l.includes('granted toolgate.mcpServers.everything.alwaysAllow rule "mcp__everything__echo"')),
    ).toBe(true);
  });

  it("'always deny' of an MCP tool writes a deny rule and leaves alwaysAllow alone", async () => {
    const { h, a, s } = await setup();
    const askId = s.ask(echoAsk);
    await a.send({
      type: "answerAsk",
      requestId: 3,
      messageId: askId,
      response: { kind: "reject" },
      remember: { effect: "deny", scope: "user" },
    });
    expect(h.config.global.get("permissions.deny")).toEqual(["mcp__everything__echo"]);
    expect(h.config.global.get("mcpServers")).toEqual(servers());
  });

  it("for this task or workspace it stays a permission rule in Toolgate's memory, not alwaysAllow", async () => {
    const { h, a, s } = await setup();
    const askId = s.ask(echoAsk);
    await a.send({
      type: "answerAsk",
      requestId: 4,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "workspace" },
    });
    expect(h.config.writes).toEqual([]);
    expect(h.memento.data.get(StorageKey.workspaceRules)).toMatchObject({
      permissionsAllow: ["mcp__everything__echo"],
    });
  });

  it("a server that is not in the user settings is an error, and nothing is written", async () => {
    const { h, a, s } = await setup();
    const askId = s.ask({ ...echoAsk, decision: { ...echoAsk.decision!, suggestion: "mcp__ghost__echo" } });
    await a.send({
      type: "answerAsk",
      requestId: 5,
      messageId: askId,
      response: { kind: "approve" },
      remember: { effect: "allow", scope: "user" },
    });
    expect(a.fake.ofType("result").find((r) => r.requestId === 5)?.error).toMatch(/no MCP server named "ghost"/);
    expect(h.config.writes).toEqual([]);
  });
});

describe("the Rules view's list", () => {
  async function populated() {
    const r = await setup();
    const { h, s } = r;
    await h.rules.save("task", { list: "commandsAllow", rule: "npm test" }, s.id);
    await h.rules.save("workspace", { list: "permissionsAllow", rule: "read_file(docs/**)" }, s.id);
    await h.rules.save("workspace", { list: "commandsDeny", rule: "git push" }, s.id);
    h.config.global.set("permissions.allow", ["mcp__everything", "Read(src/**)"]);
    h.config.global.set("permissions.ask", ["Bash(git commit *)"]);
    h.config.global.set("commands.allow", ["git log"]);
    h.config.workspace.set("permissions.deny", ["Edit(.env)"]);
    h.controller.settingsChanged();
    return r;
  }

  it("lists every source with its scope and effect; managed and workspace-file rules cannot be removed", async () => {
    const { a } = await populated();
    const view = a.store.getState().rules!;
    expect(texts(view.rules)).toEqual([
      "task:allow:npm test",
      "workspace:deny:git push",
      "workspace:allow:read_file(docs/**)",
      "user:allow:git log",
      "user:allow:mcp__everything",
      "user:allow:Read(src/**)",
      "user:ask:Bash(git commit *)",
      "mcpAlwaysAllow:allow:get-sum",
      "mcpAlwaysAllow:allow:ping",
      "workspaceSettings:deny:Edit(.env)",
      "managed:deny:Bash(curl *)",
    ]);
    const byRule = (r: string) => view.rules.find((e) => e.rule === r)!;
    expect(byRule("Bash(curl *)").ref).toBeUndefined();
    expect(byRule("Bash(curl *)").where).toContain("managed policy (/etc/toolgate/managed-settings.json)");
    expect(byRule("Edit(.env)").ref).toBeUndefined();
    expect(byRule("Bash(git commit *)").where).toBe("toolgate.permissions.ask in your user settings");
    expect(byRule("get-sum").where).toContain('MCP server "everything"');
    expect(view.errors).toEqual([]);
  });

  it("the MCP tab lists, per tool, every rule that lets it run, and no other tool's or server's rule", async () => {
    const { h, s } = await populated();
    await h.rules.save("task", { list: "permissionsAllow", rule: "mcp__everything__echo" }, s.id);
    await h.rules.save("task", { list: "permissionsDeny", rule: "mcp__everything__get-sum" }, s.id);
    const r = rememberedRules({ rules: h.rules, settings: h.settings, taskId: s.id, managed: managedPolicy });
    expect(texts(r.forMcpTool("everything", "echo"))).toEqual([
      "task:allow:mcp__everything__echo",
      "user:allow:mcp__everything",
    ]);
    expect(texts(r.forMcpTool("everything", "get-sum"))).toEqual([
      "task:deny:mcp__everything__get-sum",
      "user:allow:mcp__everything",
      "mcpAlwaysAllow:allow:get-sum",
    ]);
    expect(texts(r.forMcpTool("other", "ping"))).toEqual(["mcpAlwaysAllow:allow:ping"]);
    h.config.global.set("permissions.allow", ["use_mcp_tool"]);
    const all = rememberedRules({ rules: h.rules, settings: h.settings, managed: () => [] });
    expect(texts(all.forMcpTool("other", "ping"))).toEqual(["user:allow:use_mcp_tool", "mcpAlwaysAllow:allow:ping"]);
    // mcpView attaches them to the tools.
    const v = mcpView(h.settings.mcpServers(), undefined, all.forMcpTool);
    expect(texts(v.servers.find((x) => x.name === "other")!.tools[0]!.rules ?? [])).toHaveLength(2);
  });

  it("a denied tool lists every deny and ask rule that applies to it, from every layer, before the allows", async () => {
    const policy = () => [
      { source: "/etc/toolgate/managed-settings.json", flat: { "toolgate.permissions.ask": ["mcp__everything"] } },
    ];
    const h = makeHost({ managed: policy });
    h.config.global.set("mcpServers", { everything: { command: "npx", alwaysAllow: ["*"] } });
    h.config.global.set("permissions.deny", ["mcp__everything__get-env", "mcp__other__get-env"]);
    h.config.workspace.set("permissions.ask", ["use_mcp_tool"]);
    await h.rules.save("workspace", { list: "permissionsDeny", rule: "mcp__everything__*" }, "");
    const r = rememberedRules({ rules: h.rules, settings: h.settings, managed: policy });
    const hub: McpStatusSource = {
      servers: [{ name: "everything", status: "connected", tools: ["get-env", "echo"].map(hubTool) }],
      onDidChange: () => ({ dispose: () => undefined }),
    };
    const v = mcpView(h.settings.mcpServers(), hub, r.forMcpTool);
    const tool = (name: string) => v.servers[0]!.tools.find((t) => t.name === name)!;
    expect(tool("get-env").alwaysAllow).toBe(true);
    expect(tool("get-env").rules!.map((e) => `${e.effect} ${e.rule} — ${e.where}`)).toEqual([
      "deny mcp__everything__* — this workspace, in Toolgate's own storage (permissions.deny)",
      "deny mcp__everything__get-env — toolgate.permissions.deny in your user settings",
      "ask use_mcp_tool — toolgate.permissions.ask in this workspace's .vscode/settings.json (edit that file to change it)",
      "ask mcp__everything — toolgate.permissions.ask in the managed policy (/etc/toolgate/managed-settings.json)",
      'allow * — always allow of MCP server "everything" (toolgate.mcpServers in your user settings)',
    ]);
    expect(texts(tool("echo").rules!)).toEqual([
      "workspace:deny:mcp__everything__*",
      "workspaceSettings:ask:use_mcp_tool",
      "managed:ask:mcp__everything",
      "mcpAlwaysAllow:allow:*",
    ]);
  });

  it("a managed allow list replaces the user's: those entries say they are not in effect and let nothing run", async () => {
    const { h, s } = await populated();
    const policy = () => [
      {
        source: "/etc/toolgate/managed-settings.json",
        flat: { "toolgate.permissions.allow": ["mcp__everything__get-env"] },
      },
    ];
    const r = rememberedRules({ rules: h.rules, settings: h.settings, taskId: s.id, managed: policy });
    const user = r.view.rules.find((e) => e.rule === "mcp__everything")!;
    expect(user.where).toBe(
      "toolgate.permissions.allow in your user settings — not in effect: the managed policy sets this list",
    );
    expect(r.view.rules.find((e) => e.rule === "git log")!.where).toBe("toolgate.commands.allow in your user settings");
    expect(texts(r.forMcpTool("everything", "get-env"))).toEqual(["managed:allow:mcp__everything__get-env"]);
    expect(texts(r.forMcpTool("everything", "get-sum"))).toEqual(["mcpAlwaysAllow:allow:get-sum"]);
  });

  it("removing a rule of each scope removes that entry alone and rebuilds the task's gate", async () => {
    const { h, a, s } = await populated();
    const before = texts(a.store.getState().rules!.rules);
    const remove = async (id: number, ref: unknown, gone: string) => {
      await a.send({ type: "removeRule", requestId: id, ref });
      expect(a.fake.ofType("result").find((r) => r.requestId === id)).toMatchObject({ ok: true });
      const now = texts(a.store.getState().rules!.rules);
      expect(now).toEqual(before.filter((t) => t !== gone && !removed.includes(t)));
      removed.push(gone);
    };
    const removed: string[] = [];
    await remove(10, { source: "task", list: "commandsAllow", rule: "npm test" }, "task:allow:npm test");
    expect(s.options!.extraRules().commandsAllow).toEqual([]);
    expect(s.events).toContain("rules");
    await remove(11, { source: "workspace", list: "commandsDeny", rule: "git push" }, "workspace:deny:git push");
    expect(h.memento.data.get(StorageKey.workspaceRules)).toMatchObject({
      commandsDeny: [],
      permissionsAllow: ["read_file(docs/**)"],
    });
    await remove(
      12,
      { source: "user", list: "permissionsAllow", rule: "mcp__everything" },
      "user:allow:mcp__everything",
    );
    expect(h.config.global.get("permissions.allow")).toEqual(["Read(src/**)"]);
    expect(h.config.global.get("permissions.ask")).toEqual(["Bash(git commit *)"]);
    await remove(
      13,
      { source: "mcpAlwaysAllow", server: "everything", tool: "get-sum" },
      "mcpAlwaysAllow:allow:get-sum",
    );
    const mcp = h.config.global.get("mcpServers") as ReturnType<typeof servers>;
    expect(mcp.everything).toEqual({ ...servers().everything, alwaysAllow: [] });
    expect(mcp.other).toEqual(servers().other);
    // The workspace file was never written.
    expect(h.config.workspace.get("permissions.deny")).toEqual(["Edit(.env)"]);
  });

  it("a rule that is no longer there is an error, not a write", async () => {
    const { h, a } = await populated();
    const writes = h.config.writes.length;
    await a.send({ type: "removeRule", requestId: 20, ref: { source: "user", list: "commandsDeny", rule: "rm" } });
    expect(a.fake.ofType("result").find((r) => r.requestId === 20)?.error).toMatch(
      /no longer in toolgate.commands.deny/,
    );
    expect(h.config.writes.length).toBe(writes);
  });

  it("a malformed user list is shown as an error, offers no removal, and is never rewritten", async () => {
    const { h, a } = await setup();
    h.config.global.set("permissions.allow", ["Read(src/**)", 42, "mcp__everything"]);
    h.config.global.set("mcpServers", { ...servers(), broken: { command: "x", alwaysAllow: "echo" } });
    h.controller.settingsChanged();
    const view = a.store.getState().rules!;
    expect(view.errors).toEqual([
      "toolgate.permissions.allow in your user settings is not a list of rules (strings); fix it in settings.json",
      'The alwaysAllow of MCP server "broken" is not a list of tool names; fix it in settings.json',
    ]);
    expect(view.rules.filter((r) => r.source === "user").map((r) => [r.rule, r.ref])).toEqual([
      ["Read(src/**)", undefined],
      ["mcp__everything", undefined],
    ]);
    const writes = h.config.writes.length;
    await a.send({
      type: "removeRule",
      requestId: 21,
      ref: { source: "user", list: "permissionsAllow", rule: "Read(src/**)" },
    });
    await a.send({
      type: "removeRule",
      requestId: 22,
      ref: { source: "mcpAlwaysAllow", server: "broken", tool: "echo" },
    });
    expect(a.fake.ofType("result").find((r) => r.requestId === 21)?.error).toMatch(/not a list of rules/);
    expect(a.fake.ofType("result").find((r) => r.requestId === 22)?.error).toMatch(/not a list of tool names/);
    // Saving a rule into the malformed list is refused too (it would drop the 42).
    await expect(h.settings.addUserRule("permissions.allow", "Read(docs/**)")).rejects.toThrow(/not a list of rules/);
    expect(h.config.writes.length).toBe(writes);
    expect(h.config.global.get("permissions.allow")).toEqual(["Read(src/**)", 42, "mcp__everything"]);
  });
});

describe("the removeRule message", () => {
  it("names a removable place; the managed policy and workspace files are not one", async () => {
    const { parseWebviewMessage } = await import("../../../src/host/protocolGuard");
    const ok = { type: "removeRule", requestId: 1, ref: { source: "user", list: "permissionsAsk", rule: "Bash(x)" } };
    expect(await parseWebviewMessage(ok)).toEqual(ok);
    const mcp = { type: "removeRule", requestId: 2, ref: { source: "mcpAlwaysAllow", server: "s", tool: "t" } };
    expect(await parseWebviewMessage(mcp)).toEqual(mcp);
    for (const source of ["managed", "workspaceSettings"])
      expect(
        await parseWebviewMessage({
          type: "removeRule",
          requestId: 3,
          ref: { source, list: "permissionsDeny", rule: "x" },
        }),
      ).toBeUndefined();
    expect(
      await parseWebviewMessage({
        type: "removeRule",
        requestId: 4,
        ref: { source: "task", list: "permissionsAsk", rule: "x" },
      }),
    ).toBeUndefined();
  });
});
