import { describe, expect, it } from "vitest";
import { applyMcpChange, enabledToolCount, mcpView, NOT_STARTED, statusFromHub } from "../../../src/host/mcpPanel";
import type { McpStatusSource } from "../../../src/host/taskSession";
import { makeHost } from "./harness";

const config = {
  fs: {
    command: "npx",
    args: ["-y", "server-filesystem", "/tmp"],
    alwaysAllow: ["read_file"],
    disabledTools: ["delete_file"],
  },
  web: { url: "http://127.0.0.1:9/mcp", disabled: true },
};

const live: McpStatusSource = {
  servers: [
    {
      name: "fs",
      status: "connected",
      tools: [
        { name: "read_file", description: "Read a file", readOnlyHint: true, alwaysAllow: false, enabled: true },
        { name: "write_file", destructiveHint: true, alwaysAllow: false, enabled: true },
        { name: "delete_file", destructiveHint: true, alwaysAllow: false, enabled: true },
      ],
    },
  ],
  onDidChange: () => ({ dispose() {} }),
};

describe("MCP view model", () => {
  it("without a hub: servers from settings, not faked as connected", () => {
    const v = mcpView(config, undefined);
    expect(v.live).toBe(false);
    expect(v.servers.map((s) => [s.name, s.status, s.error])).toEqual([
      ["fs", "error", NOT_STARTED],
      ["web", "disabled", undefined],
    ]);
    expect(v.servers[0]!.tools.map((t) => [t.name, t.alwaysAllow, t.enabled])).toEqual([
      ["delete_file", false, false],
      ["read_file", true, true],
    ]);
  });

  it("with a hub: status and annotations from the hub, always-allow and enabled from settings", () => {
    const v = mcpView(config, live);
    const fs = v.servers[0]!;
    expect(fs.status).toBe("connected");
    expect(
      fs.tools.map((t) => [t.name, t.alwaysAllow, t.enabled, t.readOnlyHint ?? null, t.destructiveHint ?? null]),
    ).toEqual([
      ["read_file", true, true, true, null],
      ["write_file", false, true, null, true],
      ["delete_file", false, false, null, true],
    ]);
    expect(enabledToolCount(v)).toBe(2);
  });

  it("lists tools the hub hides because they are disabled, so they can be enabled again", () => {
    const hub = statusFromHub([
      {
        name: "fs",
        status: "connected",
        tools: [{ server: "fs", name: "read_file", readOnlyHint: true }],
        resources: [],
      },
    ]);
    const v = mcpView(config, { servers: hub, onDidChange: () => ({ dispose() {} }) });
    expect(v.servers[0]!.tools.map((t) => [t.name, t.enabled, t.alwaysAllow])).toEqual([
      ["read_file", true, true],
      ["delete_file", false, false],
    ]);
  });

  it("maps the hub's connecting/disconnected states and keeps its error message", () => {
    const hub = statusFromHub([
      {
        name: "fs",
        status: "disconnected",
        error: "server exited with code 1; reconnecting",
        tools: [],
        resources: [],
      },
      { name: "web", status: "connecting", tools: [], resources: [] },
    ]);
    const v = mcpView(
      { fs: config.fs, web: { url: "http://x" } },
      { servers: hub, onDidChange: () => ({ dispose() {} }) },
    );
    expect(v.servers.map((s) => [s.status, s.error ?? null])).toEqual([
      ["disconnected", "server exited with code 1; reconnecting"],
      ["connecting", null],
    ]);
  });

  it("toggles rewrite only alwaysAllow / disabledTools / disabled and keep the rest", () => {
    let c: Record<string, unknown> = config;
    c = applyMcpChange(c, { kind: "toolAlwaysAllow", server: "fs", tool: "write_file", value: true }, []);
    c = applyMcpChange(c, { kind: "toolEnabled", server: "fs", tool: "delete_file", value: true }, []);
    c = applyMcpChange(c, { kind: "serverEnabled", server: "web", value: true }, []);
    expect(c).toEqual({
      fs: {
        command: "npx",
        args: ["-y", "server-filesystem", "/tmp"],
        alwaysAllow: ["read_file", "write_file"],
        disabledTools: [],
      },
      web: { url: "http://127.0.0.1:9/mcp" },
    });
    expect(config.fs.alwaysAllow).toEqual(["read_file"]); // input untouched
  });

  it("unticking one tool under 'always allow all' expands * so only that tool stops being allowed", () => {
    let c: Record<string, unknown> = applyMcpChange(
      config,
      { kind: "serverAlwaysAllowAll", server: "fs", value: true },
      [],
    );
    expect((c.fs as { alwaysAllow: string[] }).alwaysAllow).toEqual(["read_file", "*"]);
    c = applyMcpChange(c, { kind: "toolAlwaysAllow", server: "fs", tool: "delete_file", value: false }, [
      "read_file",
      "write_file",
      "delete_file",
    ]);
    expect((c.fs as { alwaysAllow: string[] }).alwaysAllow.sort()).toEqual(["read_file", "write_file"]);
    c = applyMcpChange(c, { kind: "serverAlwaysAllowAll", server: "fs", value: false }, []);
    expect((c.fs as { alwaysAllow: string[] }).alwaysAllow.sort()).toEqual(["read_file", "write_file"]);
  });

  it("refuses a change to a server that is not in the user's settings", () => {
    expect(() => applyMcpChange(config, { kind: "toolEnabled", server: "nope", tool: "x", value: false }, [])).toThrow(
      /no MCP server/,
    );
  });

  it("the panel's checkbox writes toolgate.mcpServers at user scope and the view follows", async () => {
    const h = makeHost();
    h.config.global.set("mcpServers", config);
    h.controller.setMcpSource(live);
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    expect(w.store.getState().mcp?.live).toBe(true);
    await w.send({
      type: "mcpChange",
      requestId: 3,
      change: { kind: "toolAlwaysAllow", server: "fs", tool: "write_file", value: true },
    });
    expect(h.config.writes[0]![0]).toBe("mcpServers");
    h.controller.settingsChanged();
    const tool = w.store.getState().mcp?.servers[0]?.tools.find((t) => t.name === "write_file");
    expect(tool?.alwaysAllow).toBe(true);
  });
});
