import { describe, expect, it } from "vitest";
import { DeltaBatcher } from "../../../src/host/deltaBatcher";
import { DecisionLog, formatDecision } from "../../../src/host/decisionLog";
import { CommandId, PANEL_TYPE, VIEW_CONTAINER_ID, VIEW_ID } from "../../../src/host/ids";
import { ruleTarget } from "../../../src/host/rememberedRules";
import { SettingKey } from "../../../src/host/settingsBridge";
import { statusText } from "../../../src/host/statusText";
import { unavailableNotice } from "../../../src/core/sandbox/sandboxPlan";
import { contentSecurityPolicy, escapeHtml, renderWebviewHtml } from "../../../src/host/webviewHtml";
import type { MessageDelta } from "../../../src/shared/messages";
import type { SettingsView } from "../../../src/shared/protocol";
import { ManualTimer, packageJson } from "./fakes";

describe("webview HTML", () => {
  const html = renderWebviewHtml({
    cspSource: "https://file+.vscode-resource.vscode-cdn.net",
    nonce: "abc123==",
    scriptUri: "https://x/dist/webview.js",
    styleUri: "https://x/dist/webview.css",
    codiconUri: "https://x/dist/codicon.css",
    bootstrap: { surface: "sidebar" },
  });

  it("has a strict CSP: nothing by default, scripts only by nonce, no inline styles or scripts", () => {
    const csp = contentSecurityPolicy("https://src", "N");
    expect(csp.startsWith("default-src 'none'")).toBe(true);
    expect(csp).toContain("script-src 'nonce-N'");
    expect(csp).not.toContain("unsafe");
    expect(csp).toContain("style-src https://src;");
    expect(html).toContain(`<script type="module" nonce="abc123==" src="https://x/dist/webview.js">`);
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("puts bootstrap data in an escaped attribute", () => {
    expect(html).toContain(`data-bootstrap="{&#34;surface&#34;:&#34;sidebar&#34;}"`);
    expect(escapeHtml(`"><script>alert(1)</script>`)).toBe("&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;");
  });
});

describe("delta batcher", () => {
  it("merges adjacent appends and patches, keeps order across messages", () => {
    const timer = new ManualTimer();
    const out: MessageDelta[][] = [];
    const b = new DeltaBatcher((d) => out.push([...d]), 16, timer);
    b.push({ type: "append", id: 1, text: "a" });
    b.push({ type: "append", id: 1, text: "b" });
    b.push({ type: "append", id: 2, text: "c" });
    b.push({ type: "append", id: 1, text: "d" });
    b.push({ type: "patch", id: 1, patch: { partial: false } });
    b.push({ type: "patch", id: 1, patch: { askState: "pending" } });
    expect(timer.pending).toBe(1);
    timer.runAll();
    expect(out).toEqual([
      [
        { type: "append", id: 1, text: "ab" },
        { type: "append", id: 2, text: "c" },
        { type: "append", id: 1, text: "d" },
        { type: "patch", id: 1, patch: { partial: false, askState: "pending" } },
      ],
    ]);
  });
});

describe("rule targets", () => {
  it("puts command prefixes in commands.*, Tool(...) and MCP rules in permissions.*", () => {
    expect(ruleTarget("execute_command", "git log", "allow")).toEqual({ list: "commandsAllow", rule: "git log" });
    expect(ruleTarget("execute_command", "Bash(npm test)", "deny")).toEqual({
      list: "permissionsDeny",
      rule: "Bash(npm test)",
    });
    expect(ruleTarget("read_file", "read_file(src/**)", "allow")).toEqual({
      list: "permissionsAllow",
      rule: "read_file(src/**)",
    });
    expect(ruleTarget("use_mcp_tool", "mcp__fs__read", "allow")).toEqual({
      list: "permissionsAllow",
      rule: "mcp__fs__read",
    });
  });
  it("refuses blank, multi-line or malformed suggestions", () => {
    expect(ruleTarget("execute_command", "  ", "allow")).toBeUndefined();
    expect(ruleTarget("execute_command", "git log\nrm -rf /", "allow")).toBeUndefined();
    expect(ruleTarget("read_file", "src/** ; x", "allow")).toBeUndefined();
    expect(ruleTarget("read_file", undefined, "allow")).toBeUndefined();
  });
});

describe("decision log", () => {
  it("writes one line per decision, with the rule and invisible characters escaped", () => {
    const lines: Array<[string, string]> = [];
    const log = new DecisionLog({
      info: (m) => lines.push(["info", m]),
      warn: (m) => lines.push(["warn", m]),
      error: (m) => lines.push(["error", m]),
    });
    log.logDecision(
      { tool: "execute_command", params: { command: "ls\u200b; rm -rf /" } },
      { decision: "deny", reason: "`rm` is denied", rule: "commands.deny: rm" },
      "t1",
    );
    log.logDecision(
      { tool: "read_file", params: { path: "src/a.ts" } },
      { decision: "allow", reason: "reading inside the workspace", rule: "autoApprove.readFiles" },
    );
    expect(lines[0]![0]).toBe("warn");
    expect(lines[0]![1]).toContain("\\u200b");
    expect(lines[0]![1]).toContain("rule: commands.deny: rm");
    expect(lines[1]).toEqual([
      "info",
      `ALLOW read_file {"path":"src/a.ts"} — reading inside the workspace (rule: autoApprove.readFiles)`,
    ]);
    expect(
      formatDecision({ tool: "x", params: { a: "y".repeat(1000) } }, { decision: "ask", reason: "r", rule: "q" })
        .length,
    ).toBeLessThan(400);
  });
});

describe("status bar text", () => {
  const base: SettingsView = {
    mode: "normal",
    autoApprove: {
      enabled: true,
      all: false,
      actions: {
        readFiles: true,
        readFilesExternally: false,
        editFiles: false,
        editFilesExternally: false,
        executeSafeCommands: true,
        executeInSandbox: false,
        executeAllCommands: false,
        useMcp: false,
        webFetch: false,
      },
      maxRequests: 0,
      maxCost: 0,
    },
    workspaceTrusted: true,
    errors: [],
    ignoredWorkspaceKeys: [],
    toggleShortcut: "Ctrl+Alt+A",
  };
  it("says when settings errors stop all auto-approval", () => {
    expect(statusText({ ...base, errors: ["user settings: `toolgate.mode` must be …"] })).toMatchObject({
      text: "$(error) Toolgate: settings error",
      warning: true,
    });
  });
  it("shows mode and auto-approve state, warns for YOLO, and says restricted when untrusted", () => {
    expect(statusText(base).text).toBe("$(shield) Normal · auto-approve on");
    expect(statusText({ ...base, autoApprove: { ...base.autoApprove, enabled: false } }).text).toContain(
      "auto-approve off",
    );
    expect(statusText({ ...base, mode: "auto" })).toMatchObject({ text: "$(warning) Toolgate: YOLO", warning: true });
    expect(statusText({ ...base, workspaceTrusted: false }).text).toContain("restricted");
  });
  it("adds the OS sandbox line to the tooltip only when there is one, whatever else it says", () => {
    expect(statusText(base).tooltip).not.toMatch(/sandbox/);
    const line = unavailableNotice("required", { available: false, mechanism: "none", reason: "bwrap not found" });
    expect(statusText(base, 0, undefined, line).tooltip).toMatch(/\nNo OS sandbox: bwrap not found\. .*ask instead/);
    expect(statusText({ ...base, mode: "auto" }, 2, undefined, line).tooltip).toMatch(/No OS sandbox/);
    expect(unavailableNotice("off", { available: false, mechanism: "none", reason: "x" })).toBeUndefined();
  });
});

describe("package.json contributions", () => {
  const c = packageJson.contributes as unknown as {
    commands: Array<{ command: string }>;
    keybindings: Array<{ command: string; key: string }>;
    viewsContainers: { activitybar: Array<{ id: string; icon: string }> };
    views: Record<string, Array<{ id: string; type: string }>>;
    menus: Record<string, Array<{ command: string }>>;
    configuration: { properties: Record<string, unknown> };
  };
  it("declares exactly the commands the host registers", () => {
    expect(c.commands.map((x) => x.command).sort()).toEqual(Object.values(CommandId).sort());
    for (const list of [c.keybindings, ...Object.values(c.menus)])
      for (const x of list) expect(Object.values(CommandId)).toContain(x.command);
    expect(c.keybindings.find((k) => k.command === CommandId.toggleAutoApprove)?.key).toBe("ctrl+alt+a");
  });
  it("declares the view container, the webview view and panel restore", () => {
    expect(c.viewsContainers.activitybar[0]).toMatchObject({ id: VIEW_CONTAINER_ID, icon: "media/toolgate.svg" });
    expect(c.views[VIEW_CONTAINER_ID]).toEqual([expect.objectContaining({ id: VIEW_ID, type: "webview" })]);
    expect(packageJson.activationEvents).toContain(`onWebviewPanel:${PANEL_TYPE}`);
    expect(packageJson.capabilities).toEqual({
      untrustedWorkspaces: expect.objectContaining({ supported: "limited" }),
    });
  });
  it("every settings key the bridge uses exists in contributes.configuration", () => {
    for (const key of Object.values(SettingKey)) expect(c.configuration.properties).toHaveProperty([`toolgate.${key}`]);
  });
});
