import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * DESIGN steps 2 and 3 hold in every mode: refusals, then hard asks, then auto / approve-all. These run the
 * same lines under normal (with "run all commands"), approve-all and auto, and expect the same refusals and asks.
 */
const t = tempTree({
  "ws/src/a.ts": "a",
  "ws/src/b.ts": "b",
  "ws/lib/c.ts": "c",
  "ws/.env": "SECRET=1",
  "ws/.toolgateignore": ".env\n",
});
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const cmd = (command: string, extra: Record<string, unknown> = {}) => call("execute_command", { command, ...extra });

const MODES: Record<string, Record<string, unknown>> = {
  "run all commands": { "toolgate.autoApprove.actions": { executeSafeCommands: true, executeAllCommands: true } },
  "approve-all": { "toolgate.autoApprove.all": true },
  auto: { "toolgate.mode": "auto" },
};

describe.each(Object.entries(MODES))("under %s", (_name, flat) => {
  it("code a sub-language or option runs is never let through, and denied programs in it are refused", async () => {
    const g = await gateWith({ ...flat, "toolgate.commands.deny": ["rm", "curl"] }, roots);
    expect(g.decide(cmd("rg --pre rm x")).decision).toBe("deny");
    expect(g.decide(cmd("awk 'BEGIN { system(\"curl -s x\") }'")).decision).toBe("deny");
    expect(g.decide(cmd("GIT_SSH_COMMAND='curl x' git fetch")).decision).toBe("deny");
    for (const line of [
      "awk '{ print | \"sh\" }' src/a.ts",
      "sed '1e touch x' src/a.ts",
      "tar -tf a.tar -I 'sh -c x'",
      "git -c core.fsmonitor='touch x' status",
      "git --git-dir=vendor status",
      "read PATH <<< ../outside; ls",
      "LESSOPEN='|touch x %s' less src/a.ts",
    ])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
  });

  it("a program the catalogue does not know is refused an ignored file it is given", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("less .env")).decision).toBe("deny");
    expect(g.decide(cmd("xxd --seek=0 ./.env")).decision).toBe("deny");
  });

  it("a link made in the line cannot lead a later read to an ignored or denied file", async () => {
    const g = await gateWith({ ...flat, "toolgate.permissions.deny": ["Read(src/b.ts)"] }, roots);
    expect(g.decide(cmd("ln -s .env link && cat link")).decision).toBe("deny");
    expect(g.decide(cmd("ln src/b.ts copy && cat copy")).decision).toBe("deny");
    // Where the kernel resolves the target from another folder, the analysis does not model it: ask.
    expect(g.decide(cmd("ln -s ../.env src/l && cat src/l")).decision).toBe("ask");
    expect(g.decide(cmd("ln -s src/a.ts a-link")).decision).toBe("allow");
  });

  const withRules = { ...flat, "toolgate.permissions.deny": ["Read(src/b.ts)", "Edit(src/a.ts)"] };

  it("a Read deny rule refuses a command that reads the file, and a recursive read covering it asks", async () => {
    const g = await gateWith(withRules, roots);
    expect(g.decide(cmd("cat src/b.ts")).decision).toBe("deny");
    expect(g.decide(cmd("head -3 ./src/../src/b.ts")).decision).toBe("deny");
    expect(g.decide(cmd("cat < src/b.ts")).decision).toBe("deny");
    const rec = g.decide(cmd("grep -r x src"));
    expect(rec.decision).toBe("ask");
    expect(rec.reason).toMatch(/Read\(src\/b\.ts\)/);
    // A directory the rule cannot reach runs.
    expect(g.decide(cmd("grep -r x lib")).decision).toBe("allow");
  });

  it("an Edit deny rule refuses sed -i, redirects, tee and cp onto the file", async () => {
    const g = await gateWith(withRules, roots);
    for (const line of [
      "sed -i s/a/b/ src/a.ts",
      "echo x > src/a.ts",
      "echo x >> src/a.ts",
      "echo x | tee src/a.ts",
      "cp lib/c.ts src/a.ts",
    ])
      expect(g.decide(cmd(line)).decision, line).toBe("deny");
  });

  it("a deny effect hidden behind another reason to ask is still a deny", async () => {
    const g = await gateWith(withRules, roots);
    // `eval` makes the line unsafe first; the read of the denied file must still be found.
    expect(g.decide(cmd("awk 'BEGIN{system(\"x\")}'; cat src/b.ts")).decision).toBe("deny");
  });

  it("protected paths, deletion, ignored files, requires_approval and unparseable lines ask or refuse", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd("echo x > .git/hooks/pre-commit")).decision).toBe("ask");
    expect(g.decide(cmd("rm src/a.ts")).decision).toBe("ask");
    expect(g.decide(cmd("cat .env")).decision).toBe("deny");
    expect(g.decide(cmd("ls", { requires_approval: true })).decision).toBe("ask");
    expect(g.decide(cmd("echo 'unterminated")).decision).toBe("ask");
    expect(g.decide(call("write_to_file", { path: ".vscode/settings.json", content: "{}" })).decision).toBe("ask");
    // and ordinary work still runs
    expect(g.decide(cmd("ls src")).decision).toBe("allow");
  });

  it("a write whose target is known only at run time asks", async () => {
    const g = await gateWith(flat, roots);
    expect(g.decide(cmd('echo x > "$F"')).decision).toBe("ask");
  });

  it("fetching a loopback, private or link-local address asks, also after DNS resolution", async () => {
    const g = await gateWith({ ...flat, "toolgate.autoApprove.actions": { webFetch: true } }, roots);
    for (const url of [
      "http://127.0.0.1/",
      "http://localhost./",
      "http://[::127.0.0.1]/",
      "http://[::ffff:169.254.169.254]/",
      "http://[64:ff9b::a9fe:a9fe]/",
    ])
      expect(g.decide(call("web_fetch", { url })).decision, url).toBe("ask");
    const rebound = {
      tool: "web_fetch",
      params: { url: "http://169.254.169.254.nip.io/" },
      facts: { addresses: ["169.254.169.254"] },
    };
    expect(g.decide(rebound).decision).toBe("ask");
    const pub = { tool: "web_fetch", params: { url: "http://example.com/" }, facts: { addresses: ["93.184.215.14"] } };
    expect(g.decide(pub).decision).toBe(_name === "run all commands" ? "allow" : "allow");
  });
});

describe("plan mode", () => {
  it("refuses before the hard asks: an edit of a protected path is refused, not asked", async () => {
    const g = await gateWith({ "toolgate.mode": "plan" }, roots);
    expect(g.decide(call("write_to_file", { path: ".vscode/settings.json", content: "{}" })).decision).toBe("deny");
    expect(g.decide(cmd("echo x > .git/hooks/pre-commit")).decision).toBe("deny");
  });
});

describe("MCP names", () => {
  const servers = {
    "toolgate.mcpServers": { ev: { command: "x", alwaysAllow: ["*"] } },
    "toolgate.autoApprove.actions": { useMcp: true },
  };
  const tools = () => [
    { name: "get_env" },
    { name: "wipe", destructiveHint: true },
    { name: "peek", readOnlyHint: true },
  ];

  it("are repaired before the rules look at them", async () => {
    const g = await gateWith({ ...servers, "toolgate.permissions.deny": ["mcp__ev__get_env"] }, roots, {
      mcpTools: (s) => (s === "ev" ? tools() : undefined),
    });
    const d = g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "get-env", arguments: "{}" }));
    expect(d.decision).toBe("deny");
  });

  it("carry the canonical name into the resolved call", async () => {
    const g = await gateWith(servers, roots, { mcpTools: () => tools() });
    const d = g.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "get-env", arguments: "{}" }));
    expect(d.decision).toBe("allow");
    expect(d.resolved?.mcp?.tool).toBe("get_env");
    expect(d.resolved?.params.tool_name).toBe("get_env");
  });

  it("destructiveHint asks in auto mode; plan mode runs only readOnlyHint tools", async () => {
    const auto = await gateWith({ ...servers, "toolgate.mode": "auto" }, roots, { mcpTools: () => tools() });
    expect(auto.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "wipe" })).decision).toBe("ask");
    const plan = await gateWith({ ...servers, "toolgate.mode": "plan" }, roots, { mcpTools: () => tools() });
    expect(plan.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "get_env" })).decision).toBe("deny");
    expect(plan.decide(call("use_mcp_tool", { server_name: "ev", tool_name: "peek" })).decision).toBe("allow");
  });

  it("a server name with `__` is refused", async () => {
    const g = await gateWith({}, roots);
    expect(g.decide(call("use_mcp_tool", { server_name: "my__srv", tool_name: "t" })).rule).toBe("mcp:server-name");
  });
});
