// @vitest-environment jsdom
import "./support/shims";
import { cleanup, fireEvent, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerView, McpView as Model, RuleEntry } from "../../src/shared/protocol";
import { McpView } from "../src/mcp/McpView";
import { setup } from "./support/render";

afterEach(cleanup);

const github: McpServerView = {
  name: "github",
  status: "connected",
  alwaysAllowAll: false,
  tools: [
    { name: "search_issues", description: "Search issues.", readOnlyHint: true, alwaysAllow: true, enabled: true },
    {
      name: "delete_branch",
      description: "Delete a branch.",
      destructiveHint: true,
      alwaysAllow: false,
      enabled: false,
    },
  ],
};
const broken: McpServerView = {
  name: "everything",
  status: "error",
  error: "spawn npx ENOENT",
  alwaysAllowAll: false,
  tools: [],
};
const off: McpServerView = { name: "fs", status: "disabled", alwaysAllowAll: true, tools: [] };
const model = (servers: McpServerView[], live = true): Model => ({ servers, live });

const section = (name: string) => screen.getByRole("region", { name });

describe("MCP view", () => {
  it("shows each server's status, and an error with its message", () => {
    setup().view(<McpView mcp={model([github, broken, off])} useMcp />);
    expect(within(section("github")).getByText("connected").className).toContain("tg-tag-ok");
    expect(within(section("everything")).getByText("error").className).toContain("tg-tag-error");
    expect(within(section("everything")).getByRole("note").textContent).toBe("spawn npx ENOENT");
    expect(within(section("fs")).getByText("disabled").className).toContain("tg-tag-neutral");
    expect(within(section("github")).queryByRole("note")).toBeNull();
  });

  it("shows a server that is connecting, and a disconnected one with the hub's message", () => {
    setup().view(
      <McpView
        mcp={model([
          { ...broken, name: "a", status: "connecting" },
          { ...broken, name: "b", status: "disconnected", error: "exited; reconnecting in 4 s" },
        ])}
        useMcp
      />,
    );
    expect(within(section("a")).getByText(/connecting/).className).toContain("tg-tag-info");
    // A server still connecting has no error to show yet, even if the hub kept an old one.
    expect(within(section("a")).queryByRole("note")).toBeNull();
    expect(within(section("b")).getByText("disconnected").className).toContain("tg-tag-warn");
    expect(within(section("b")).getByRole("note").textContent).toBe("exited; reconnecting in 4 s");
  });

  it("lists tools with descriptions and read-only / destructive badges", () => {
    setup().view(<McpView mcp={model([github])} useMcp />);
    const search = screen.getByRole("listitem", { name: "Tool search_issues" });
    // The description describes the tool's "Always allow" box, so a screen reader reads what is allowed.
    const described = within(search).getByRole("checkbox", { name: "Always allow" }).getAttribute("aria-describedby");
    expect(document.getElementById(described!)?.textContent).toBe("Search issues.");
    expect(within(search).getByText("read-only").className).toContain("tg-tag-ok");
    expect(within(search).queryByText("destructive")).toBeNull();
    const del = screen.getByRole("listitem", { name: "Tool delete_branch" });
    expect(within(del).getByText("destructive").className).toContain("tg-tag-error");
    expect(within(del).queryByText("read-only")).toBeNull();
  });

  it("per-tool 'always allow' and 'enabled' are intents for the host to rewrite toolgate.mcpServers", () => {
    const s = setup();
    s.view(<McpView mcp={model([github])} useMcp />);
    const search = screen.getByRole("listitem", { name: "Tool search_issues" });
    const del = screen.getByRole("listitem", { name: "Tool delete_branch" });
    expect(
      (within(search).getByRole("checkbox", { name: "Always allow" }) as HTMLElement & { checked: boolean }).checked,
    ).toBe(true);
    fireEvent.click(within(search).getByRole("checkbox", { name: "Always allow" }));
    fireEvent.click(within(del).getByRole("checkbox", { name: "Enabled" }));
    expect(s.intents()).toEqual([
      { type: "mcpChange", change: { kind: "toolAlwaysAllow", server: "github", tool: "search_issues", value: false } },
      { type: "mcpChange", change: { kind: "toolEnabled", server: "github", tool: "delete_branch", value: true } },
    ]);
  });

  it("a tool a deny rule refuses never reads as allowed: it says denied and lists each deny and ask with its layer", () => {
    const entry = (effect: RuleEntry["effect"], source: RuleEntry["source"], rule: string, where: string) =>
      ({ effect, source, rule, where }) satisfies RuleEntry;
    const rules = [
      entry("deny", "user", "mcp__everything__get-env", "toolgate.permissions.deny in your user settings"),
      entry("ask", "managed", "mcp__everything", "toolgate.permissions.ask in the managed policy (/etc/x.json)"),
      entry("allow", "mcpAlwaysAllow", "*", 'always allow of MCP server "everything"'),
    ];
    const server: McpServerView = {
      name: "everything",
      status: "connected",
      alwaysAllowAll: true,
      tools: [
        { name: "get-env", alwaysAllow: true, enabled: true, rules },
        { name: "echo", alwaysAllow: true, enabled: true, rules: rules.slice(1) },
        { name: "add", alwaysAllow: true, enabled: true, rules: rules.slice(2) },
      ],
    };
    setup().view(<McpView mcp={model([server])} useMcp />);
    const getEnv = screen.getByRole("listitem", { name: "Tool get-env" });
    expect(within(getEnv).getByRole("note").textContent?.trim()).toBe(
      "Refused: a deny rule below applies, so “Always allow” has no effect.",
    );
    expect(within(getEnv).getByTitle("A deny rule refuses every call of this tool").textContent).toBe("denied");
    const refuse = within(getEnv).getByRole("list", { name: "Rules that refuse it" });
    expect(within(refuse).getByRole("listitem").textContent).toContain("User settings");
    expect(within(refuse).getByRole("listitem").textContent).toContain(
      "toolgate.permissions.deny in your user settings",
    );
    const asks = within(getEnv).getByRole("list", { name: "Rules that make it ask" });
    expect(within(asks).getByRole("listitem").textContent).toContain("Managed policy");
    expect(within(getEnv).queryByRole("list", { name: "Rules that let it run" })).toBeNull();
    expect(
      within(within(getEnv).getByRole("list", { name: "Allow rules, overruled by the rules above" })).getAllByRole(
        "listitem",
      ),
    ).toHaveLength(1);

    const echo = screen.getByRole("listitem", { name: "Tool echo" });
    expect(within(echo).getByRole("note").textContent?.trim()).toBe(
      "Asks every time: an ask rule below applies, so “Always allow” has no effect.",
    );
    expect(within(echo).queryByText("denied")).toBeNull();
    expect(within(echo).getByText("always asks").className).toContain("tg-tag-warn");

    const add = screen.getByRole("listitem", { name: "Tool add" });
    expect(within(add).queryByRole("note")).toBeNull();
    expect(
      within(within(add).getByRole("list", { name: "Rules that let it run" })).getAllByRole("listitem"),
    ).toHaveLength(1);
  });

  it("server-level 'always allow all tools' and 'enabled'", () => {
    const s = setup();
    s.view(<McpView mcp={model([github, off])} useMcp />);
    fireEvent.click(within(section("github")).getByRole("checkbox", { name: "Always allow all tools" }));
    fireEvent.click(within(section("fs")).getByRole("checkbox", { name: "Server enabled" }));
    expect(s.intents()).toEqual([
      { type: "mcpChange", change: { kind: "serverAlwaysAllowAll", server: "github", value: true } },
      { type: "mcpChange", change: { kind: "serverEnabled", server: "fs", value: true } },
    ]);
  });

  it("warns past 60 enabled tools, counting only enabled tools of enabled servers", () => {
    const many = (n: number, name: string, status: McpServerView["status"] = "connected"): McpServerView => ({
      name,
      status,
      alwaysAllowAll: false,
      tools: Array.from({ length: n }, (_, i) => ({ name: `t${i}`, alwaysAllow: false, enabled: true })),
    });
    setup().view(<McpView mcp={model([many(60, "a"), many(10, "b", "disabled")])} useMcp />);
    expect(screen.queryByText(/tools are enabled/)).toBeNull();
    cleanup();
    setup().view(<McpView mcp={model([many(40, "a"), many(21, "b")])} useMcp />);
    expect(screen.getByRole("note").textContent?.trim()).toBe(
      "61 tools are enabled. Past 60, models pick tools less reliably: disable the ones you do not need.",
    );
  });

  it("'Add server' opens the setting; says when servers come from settings only and when useMcp is off", () => {
    const s = setup();
    s.view(<McpView mcp={model([], false)} useMcp={false} />);
    fireEvent.click(screen.getByText("Add server"));
    expect(s.posted).toEqual([{ type: "addMcpServer" }]);
    expect(screen.getAllByRole("note").map((n) => n.textContent?.trim())).toEqual([
      "The MCP hub starts with the agent runtime, which is not connected yet: servers below come from your settings.",
      "“Use MCP” auto-approval is off, so every MCP call asks, even for tools marked “always allow”.",
    ]);
    expect(screen.getByText(/No MCP servers configured yet/).textContent).toBe(
      "No MCP servers configured yet. “Add server” opens the setting.",
    );
  });
});
