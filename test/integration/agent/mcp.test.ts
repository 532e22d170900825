import { afterEach, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import * as nodePath from "node:path";
import { McpHub } from "../../../src/agent/mcp/hub";
import { toolCountWarning } from "../../../src/agent/mcp/format";
import type { McpServerConfig, McpServers } from "../../../src/core/settingsModel";
import type { McpServerSummary } from "../../../src/agent/mcp/types";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";

const EVERYTHING = nodePath.resolve("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const stdio = (over: Partial<McpServerConfig> = {}): McpServerConfig => ({
  command: process.execPath,
  args: [EVERYTHING, "stdio"],
  alwaysAllow: [],
  disabled: false,
  disabledTools: [],
  ...over,
});

let hub: McpHub | undefined;
let h: Harness | undefined;
let httpServer: ChildProcess | undefined;
afterEach(async () => {
  await h?.close();
  await hub?.dispose();
  httpServer?.kill();
  h = undefined;
  hub = undefined;
  httpServer = undefined;
});

function newHub(): McpHub {
  hub = new McpHub({ reconnect: { baseDelayMs: 50, maxDelayMs: 200, maxAttempts: 5 }, connectTimeoutMs: 20_000 });
  return hub;
}

async function waitFor<T>(fn: () => T | undefined | false, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const never = new AbortController().signal;

describe("MCP hub against the real server-everything", () => {
  it("stdio: tools with annotations, disabledTools hidden, calls and resources work", async () => {
    const hub = newHub();
    await hub.updateConfig({ everything: stdio({ disabledTools: ["get-env"] }) });
    const [s] = hub.servers();
    expect(s!.status).toBe("connected");
    const names = s!.tools.map((t) => t.name);
    expect(names).toContain("echo");
    expect(names).not.toContain("get-env");
    expect(s!.tools.find((t) => t.name === "echo")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect((await hub.callTool("everything", "echo", { message: "hi there" }, never)).text).toBe("Echo: hi there");
    await expect(hub.callTool("everything", "get-env", {}, never)).rejects.toThrow(/disabled or does not exist/);
    // Name repair: a hyphen/underscore variant of a real tool.
    expect(hub.resolveToolName("everything", "get_sum")).toBe("get-sum");
    expect(s!.resources.length).toBeGreaterThan(0);
    const res = s!.resources.find((r) => r.mimeType?.startsWith("text/")) ?? s!.resources[0]!;
    expect((await hub.readResource("everything", res.uri, never)).text.length).toBeGreaterThan(0);
  });

  it("streamable HTTP: connects by url and calls a tool", async () => {
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, "127.0.0.1", () => {
        const p = (srv.address() as { port: number }).port;
        srv.close(() => resolve(p));
      });
    });
    httpServer = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let log = "";
    httpServer.stderr!.on("data", (d: Buffer) => (log += d.toString()));
    await waitFor(() => log.includes("listening"), "the HTTP server");
    const hub = newHub();
    await hub.updateConfig({
      web: { url: `http://127.0.0.1:${port}/mcp`, alwaysAllow: [], disabled: false, disabledTools: [] },
    });
    expect(hub.servers()[0]!.status).toBe("connected");
    expect((await hub.callTool("web", "get-sum", { a: 2, b: 40 }, never)).text).toMatch(/42/);
  });

  it("a server killed mid-call: the call fails clearly, the hub reconnects, later calls work", async () => {
    const hub = newHub();
    await hub.updateConfig({ everything: stdio() });
    const pid = hub.connection("everything")!.pid!;
    const call = hub.callTool("everything", "trigger-long-running-operation", { duration: 5, steps: 5 }, never);
    await new Promise((r) => setTimeout(r, 300));
    process.kill(pid, "SIGKILL");
    await expect(call).rejects.toThrow(/closed/i);
    await waitFor(
      () => hub.servers()[0]!.status === "connected" && hub.connection("everything")!.pid !== pid,
      "the reconnect",
    );
    expect((await hub.callTool("everything", "echo", { message: "back" }, never)).text).toBe("Echo: back");
  });

  it("updating alwaysAllow / disabledTools neither restarts the server nor cancels a running call; changing args restarts", async () => {
    const hub = newHub();
    const base = stdio();
    await hub.updateConfig({ everything: base });
    const pid = hub.connection("everything")!.pid;
    const call = hub.callTool("everything", "trigger-long-running-operation", { duration: 1, steps: 2 }, never);
    await hub.updateConfig({
      everything: { ...base, alwaysAllow: ["echo", "trigger-long-running-operation"], disabledTools: ["get-env"] },
    });
    expect(hub.connection("everything")!.pid).toBe(pid);
    expect((await call).text).toMatch(/Long running operation completed/);
    expect(hub.servers()[0]!.tools.map((t) => t.name)).not.toContain("get-env");
    await hub.updateConfig({ everything: { ...base, args: [EVERYTHING, "stdio", "--again"] } });
    expect(hub.connection("everything")!.pid).not.toBe(pid);
    await hub.updateConfig({ everything: { ...base, disabled: true } });
    expect(hub.servers()).toEqual([{ name: "everything", status: "disabled", tools: [], resources: [] }]);
  });

  it("cancelling a call aborts it at once", async () => {
    const hub = newHub();
    await hub.updateConfig({ everything: stdio() });
    const ac = new AbortController();
    const call = hub.callTool("everything", "trigger-long-running-operation", { duration: 10, steps: 10 }, ac.signal);
    setTimeout(() => ac.abort(), 100);
    await expect(call).rejects.toThrow();
    expect(hub.servers()[0]!.status).toBe("connected");
  });
});

const mcpSettings = (servers: McpServers) => ({
  "toolgate.autoApprove.actions": { useMcp: true },
  "toolgate.mcpServers": Object.fromEntries(
    Object.entries(servers).map(([k, v]) => [k, { command: v.command, args: v.args, alwaysAllow: v.alwaysAllow }]),
  ),
});

describe("MCP in a task", () => {
  it("an always-allowed MCP tool runs without asking and the model gets its result; the server list is in the prompt", async () => {
    const hub = newHub();
    const servers = { everything: stdio({ alwaysAllow: ["echo"] }) };
    await hub.updateConfig(servers);
    h = await startHarness({
      mcp: hub,
      settings: mcpSettings(servers),
      turns: [
        {
          steps: [
            {
              tool: "use_mcp_tool",
              args: { server_name: "everything", tool_name: "echo", arguments: '{"message":"from the model"}' },
              chunks: 5,
            },
          ],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "ok" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    expect(toolResultsIn(h.model, 1)[0]).toBe("Echo: from the model");
    expect(h.asks.asks.map((a) => a.message.kind)).toEqual(["completion"]);
    const system = (h.model.requests[0]!.body.messages as { content: string }[])[0]!.content;
    expect(system).toContain("## everything");
    expect(system).toMatch(/- echo \(read-only\): Echoes back the input string/);
    const row = h.view.find((m) => m.tool?.name === "use_mcp_tool")!;
    expect(row.tool).toMatchObject({ serverName: "everything", toolName: "echo", status: "done" });
  });

  it("the MCP server dies mid-call: the model gets a clear error and the task goes on", async () => {
    const hub = newHub();
    const servers = { everything: stdio({ alwaysAllow: ["trigger-long-running-operation"] }) };
    await hub.updateConfig(servers);
    const pid = hub.connection("everything")!.pid!;
    h = await startHarness({
      mcp: hub,
      settings: mcpSettings(servers),
      turns: [
        {
          steps: [
            {
              tool: "use_mcp_tool",
              args: {
                server_name: "everything",
                tool_name: "trigger-long-running-operation",
                arguments: '{"duration":5,"steps":5}',
              },
            },
          ],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "carried on" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    const done = h.task.run();
    await waitFor(
      () => h!.view.find((m) => m.tool?.name === "use_mcp_tool" && m.tool.status === "running"),
      "the call to run",
    );
    process.kill(pid, "SIGKILL");
    expect(await done).toBe("completed");
    expect(toolResultsIn(h.model, 1)[0]).toMatch(
      /^The MCP tool `trigger-long-running-operation` on `everything` failed: .*closed.*The server may have stopped/i,
    );
  });
});

describe("tool count warning", () => {
  const server = (n: number, status: McpServerSummary["status"] = "connected"): McpServerSummary => ({
    name: `s${n}`,
    status,
    tools: Array.from({ length: n }, (_, i) => ({ server: "s", name: `t${i}` })),
    resources: [],
  });
  it("warns past 60 enabled tools of connected servers only", () => {
    expect(toolCountWarning([server(30), server(30)])).toBeUndefined();
    expect(toolCountWarning([server(30), server(31)])).toMatch(/^61 MCP tools are enabled \(more than 60\)/);
    expect(toolCountWarning([server(30), server(40, "error")])).toBeUndefined();
  });
});

describe("MCP calls run what was decided", () => {
  it("a misspelled tool name is repaired before the rules: a deny rule on the real name holds", async () => {
    const hub = newHub();
    const servers = { everything: stdio({ alwaysAllow: ["*"] }) };
    await hub.updateConfig(servers);
    h = await startHarness({
      mcp: hub,
      settings: {
        ...mcpSettings(servers),
        "toolgate.mode": "auto",
        "toolgate.permissions.deny": ["mcp__everything__get-env"],
      },
      turns: [
        {
          steps: [{ tool: "use_mcp_tool", args: { server_name: "everything", tool_name: "get_env", arguments: "{}" } }],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    await h.task.run();
    const [result] = toolResultsIn(h.model, 1);
    expect(result).toMatch(/Refused by the gate: `mcp__everything__get-env` is denied/);
    expect(result).not.toMatch(/PATH|HOME/);
  });

  it("in Restricted Mode no server starts until a call to it is approved", async () => {
    hub = new McpHub({ connectTimeoutMs: 20_000, holdStart: () => true });
    const servers = { everything: stdio({ alwaysAllow: ["*"] }) };
    await hub.updateConfig(servers);
    expect(hub.connection("everything")!.pid).toBeUndefined();
    const asked: string[] = [];
    h = await startHarness({
      mcp: hub,
      trusted: false,
      settings: mcpSettings(servers),
      turns: [
        {
          steps: [
            {
              tool: "use_mcp_tool",
              args: { server_name: "everything", tool_name: "echo", arguments: '{"message":"hi"}' },
            },
          ],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
      ],
      answer: (m) => {
        if (m.tool?.name === "use_mcp_tool") {
          asked.push(m.tool.decision?.rule ?? "");
          // Nothing was started before the person approved.
          expect(hub!.connection("everything")!.pid).toBeUndefined();
        }
        return { kind: "approve" };
      },
    });
    await h.task.run();
    expect(asked).toEqual(["workspace:untrusted"]);
    expect(toolResultsIn(h.model, 1)[0]).toBe("Echo: hi");
    expect(hub.connection("everything")!.pid).toBeDefined();
  });
});

describe("MCP resources that are files", () => {
  it("an ignored .env named by a file: URI never reaches the server or the model; other resources still read", async () => {
    const hub = newHub();
    const servers = { everything: stdio() };
    await hub.updateConfig(servers);
    const read: string[] = [];
    const realRead = hub.readResource.bind(hub);
    hub.readResource = (server, uri, signal) => {
      read.push(uri);
      return realRead(server, uri, signal);
    };
    h = await startHarness({
      mcp: hub,
      files: { ".env": "SECRET=hunter2", ".toolgateignore": ".env\n" },
      settings: mcpSettings(servers),
      turns: [
        {
          steps: [
            { tool: "access_mcp_resource", args: { server_name: "everything", uri: "file://.env" } },
            { tool: "access_mcp_resource", args: { server_name: "everything", uri: "file:.%65nv" } },
            {
              tool: "access_mcp_resource",
              args: { server_name: "everything", uri: "demo://resource/static/document/architecture.md" },
            },
          ],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    const results = toolResultsIn(h.model, 1);
    expect(results[0]).toMatch(/Refused by the gate: .*excluded by \.toolgateignore/);
    expect(results[1]).toMatch(/Refused by the gate: .*excluded by \.toolgateignore/);
    expect(results.join("\n")).not.toContain("hunter2");
    expect(read).toEqual(["demo://resource/static/document/architecture.md"]);
    expect(h.asks.asks.map((a) => a.message.kind)).toEqual(["completion"]);
  });
});
