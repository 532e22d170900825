// @vitest-environment jsdom
import "./support/shims";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { HostState, McpServerView, RuleEntry, RulesView as Model } from "../../src/shared/protocol";
import { App } from "../src/App";
import { McpView } from "../src/mcp/McpView";
import { RulesView } from "../src/rules/RulesView";
import { Bridge } from "../src/state/bridge";
import { Store } from "../src/state/store";
import { fakeApi, settingsView, setup } from "./support/render";

afterEach(cleanup);

const taskRule: RuleEntry = {
  source: "task",
  effect: "allow",
  rule: "npm test",
  where: "this task only (commands.allow)",
  ref: { source: "task", list: "commandsAllow", rule: "npm test" },
};
const userAsk: RuleEntry = {
  source: "user",
  effect: "ask",
  rule: "Bash(git commit *)",
  where: "toolgate.permissions.ask in your user settings",
  ref: { source: "user", list: "permissionsAsk", rule: "Bash(git commit *)" },
};
const echoAllow: RuleEntry = {
  source: "mcpAlwaysAllow",
  effect: "allow",
  rule: "echo",
  where: 'always allow of MCP server "everything" (toolgate.mcpServers in your user settings)',
  ref: { source: "mcpAlwaysAllow", server: "everything", tool: "echo" },
};
const managedDeny: RuleEntry = {
  source: "managed",
  effect: "deny",
  rule: "Bash(curl *)",
  where: "toolgate.permissions.deny in the managed policy (/etc/toolgate/managed-settings.json)",
};
const managedEcho: RuleEntry = {
  source: "managed",
  effect: "allow",
  rule: "mcp__everything__echo",
  where: "toolgate.permissions.allow in the managed policy (/etc/toolgate/managed-settings.json)",
};

const model = (rules: RuleEntry[], errors: string[] = []): Model => ({ rules, errors });
const group = (name: string) => screen.getByRole("region", { name });

describe("Rules view", () => {
  it("groups rules by where they are kept, with effect, exact text and place", () => {
    setup().view(<RulesView rules={model([taskRule, userAsk, echoAllow, managedDeny])} />);
    expect(screen.getByRole("heading", { name: "Remembered rules" }).tagName).toMatch(/^H\d$/);
    const task = within(group("This task")).getByRole("listitem", { name: "Rule npm test" });
    expect(within(task).getByText("allow").className).toContain("tg-tag-ok");
    expect(task.querySelector(".tg-rule-where")?.textContent).toBe("this task only (commands.allow)");
    const ask = within(group("User settings")).getByRole("listitem", { name: "Rule Bash(git commit *)" });
    expect(within(ask).getByText("ask").className).toContain("tg-tag-warn");
    expect(ask.querySelector(".tg-rule-where")?.textContent).toBe("toolgate.permissions.ask in your user settings");
    expect(
      within(group("MCP always allow"))
        .getAllByRole("listitem")
        .map((li) => li.querySelector(".tg-rule-text")?.textContent),
    ).toEqual(["echo"]);
    expect(within(group("Managed policy")).getByText("deny").className).toContain("tg-tag-error");
  });

  it("Remove asks the host to remove exactly that rule", () => {
    const s = setup();
    s.view(<RulesView rules={model([taskRule, userAsk])} />);
    fireEvent.click(screen.getByRole("button", { name: "Remove Bash(git commit *)" }));
    expect(s.intents()).toEqual([{ type: "removeRule", ref: userAsk.ref }]);
  });

  it("managed rules have no Remove button and say the administrator set them", () => {
    setup().view(<RulesView rules={model([managedDeny])} />);
    const item = within(group("Managed policy")).getByRole("listitem", { name: "Rule Bash(curl *)" });
    expect(within(item).queryByRole("button")).toBeNull();
    expect(item.querySelector(".tg-rule-fixed")?.textContent).toBe(
      "Set by your administrator: it cannot be removed here.",
    );
  });

  it("shows a malformed list as an error", () => {
    setup().view(
      <RulesView
        rules={model(
          [{ ...userAsk, ref: undefined } as RuleEntry],
          ["toolgate.permissions.ask in your user settings is not a list of rules (strings); fix it in settings.json"],
        )}
      />,
    );
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain(
      "toolgate.permissions.ask in your user settings is not a list of rules (strings); fix it in settings.json",
    );
    expect(screen.queryByRole("button", { name: /Remove/ })).toBeNull();
  });

  it("with no rules, says how they are made", () => {
    setup().view(<RulesView rules={model([])} />);
    expect(screen.getByText(/No remembered rules yet/)).toBeTruthy();
  });
});

describe("MCP tab: the rules that let a tool run", () => {
  const server: McpServerView = {
    name: "everything",
    status: "connected",
    alwaysAllowAll: false,
    tools: [
      { name: "echo", alwaysAllow: true, enabled: true, rules: [echoAllow, managedEcho] },
      { name: "get-sum", alwaysAllow: false, enabled: true, rules: [] },
    ],
  };

  it("lists each rule under its tool with its scope; each removable one has its own Remove", () => {
    const s = setup();
    s.view(<McpView mcp={{ servers: [server], live: true }} useMcp />);
    const echo = screen.getByRole("listitem", { name: "Tool echo" });
    const list = within(echo).getByRole("list", { name: "Rules that let it run" });
    const always = within(list).getByRole("listitem", { name: "Rule echo" });
    expect(within(always).getByText("MCP always allow").className).toContain("tg-tag-neutral");
    const managed = within(list).getByRole("listitem", { name: "Rule mcp__everything__echo" });
    expect(within(managed).getByText("Managed policy").className).toContain("tg-tag-neutral");
    expect(managed.querySelector(".tg-rule-fixed")?.textContent).toBe(
      "Set by your administrator: it cannot be removed here.",
    );
    expect(within(managed).queryByRole("button")).toBeNull();
    fireEvent.click(within(always).getByRole("button", { name: "Remove echo" }));
    expect(s.intents()).toEqual([{ type: "removeRule", ref: echoAllow.ref }]);
    // A tool nothing lets run shows no rule list.
    expect(
      within(screen.getByRole("listitem", { name: "Tool get-sum" })).queryByRole("list", {
        name: "Rules that let it run",
      }),
    ).toBeNull();
  });
});

describe("app: the Rules tab", () => {
  it("is a tab, and the host's reveal (toolgate.showRules) opens it", () => {
    const { api } = fakeApi();
    const store = new Store((fn) => fn());
    render(<App store={store} bridge={new Bridge(api, store)} />);
    const state: HostState = {
      task: null,
      settings: settingsView(),
      mcp: { servers: [], live: false },
      agentAvailable: true,
      rules: model([taskRule]),
    };
    act(() => store.receive({ type: "state", state }));
    expect(screen.getByRole("tab", { name: /Rules/ }).getAttribute("aria-selected")).toBe("false");
    act(() => store.receive({ type: "reveal", target: "rules" }));
    expect(screen.getByRole("tab", { name: /Rules/ }).getAttribute("aria-selected")).toBe("true");
    const panel = screen.getByRole("tabpanel");
    expect(
      within(panel)
        .getAllByRole("listitem")
        .map((li) => li.getAttribute("aria-label")),
    ).toEqual(["Rule npm test"]);
    // A later rules message replaces the list.
    act(() => store.receive({ type: "rules", rules: model([userAsk]) }));
    expect(within(panel).queryByRole("listitem", { name: "Rule npm test" })).toBeNull();
    expect(
      within(panel)
        .getAllByRole("listitem")
        .map((li) => li.getAttribute("aria-label")),
    ).toEqual(["Rule Bash(git commit *)"]);
  });
});

describe("the card's 'always' text for an MCP tool", () => {
  it("says 'always allow' ticks the tool in the MCP tab and 'always deny' writes a deny rule", async () => {
    const { whereSaved } = await import("../src/chat/ApprovalCard");
    const text = whereSaved("user", "use_mcp_tool", "mcp__everything__echo");
    expect(text).toContain("Always allow ticks echo in the MCP tab (alwaysAllow of everything in toolgate.mcpServers");
    expect(text).toContain("Always deny: toolgate.permissions.deny");
    expect(whereSaved("user", "execute_command", "git log")).toBe(
      "saved in your user settings (toolgate.commands.allow or toolgate.commands.deny)",
    );
  });
});
