import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, parseMcpFile, parseSettings } from "../../../src/core/settingsModel";
import { resolveSettings, settingsFromInspect } from "../../../src/core/settingsLayers";
import { parseJsonc } from "../../../src/core/jsonc";
import { readFileSync } from "node:fs";

describe("settings", () => {
  it("missing keys take the defaults a new user gets", () => {
    const r = parseSettings({});
    expect(r.ok && r.value).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.autoApprove.actions).toMatchObject({
      readFiles: true,
      executeSafeCommands: true,
      editFiles: false,
      useMcp: false,
    });
  });

  it("keeps the defaults of actions that are not mentioned", () => {
    const r = parseSettings({ "toolgate.autoApprove.actions": { editFiles: true } });
    expect(r.ok && r.value.autoApprove.actions).toMatchObject({ editFiles: true, readFiles: true });
  });

  it("reports every malformed value instead of guessing", () => {
    const r = parseSettings({
      "toolgate.mode": "yolo",
      "toolgate.autoApprove.all": "yes",
      "toolgate.autoApprove.actions": { browser: true },
      "toolgate.autoApprove.maxRequests": -1,
      "toolgate.commands.allow": "git log",
      "toolgate.comands.deny": ["rm"],
      "editor.fontSize": 14,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errors).toHaveLength(6);
      expect(r.errors.join("\n")).toContain("toolgate.comands.deny");
    }
  });

  it("the package.json manifest declares exactly the settings the core reads, with the same defaults", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8"));
    const props = pkg.contributes.configuration.properties as Record<string, { default: unknown; scope: string }>;
    const fromManifest = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.default]));
    const r = parseSettings(fromManifest);
    expect(r.ok && r.value).toEqual(DEFAULT_SETTINGS);
    for (const k of [
      "toolgate.mode",
      "toolgate.autoApprove.all",
      "toolgate.autoApprove.actions",
      "toolgate.commands.allow",
      "toolgate.permissions.allow",
      "toolgate.mcpServers",
      "toolgate.ignoreFile",
    ]) {
      expect(props[k]!.scope, k).toBe("application");
    }
  });

  it("a workspace can only tighten", () => {
    const r = resolveSettings({
      workspace: [
        {
          source: "ws",
          flat: {
            "toolgate.mode": "auto",
            "toolgate.commands.allow": ["curl"],
            "toolgate.commands.deny": ["rm"],
            "toolgate.permissions.deny": ["Read(.env)"],
          },
        },
      ],
    });
    expect(r.ignoredWorkspaceKeys).toEqual(["toolgate.mode", "toolgate.commands.allow"]);
    expect(r.settings.mode).toBe("normal");
    expect(r.settings.commands).toEqual({ allow: [], deny: ["rm"] });
    expect(r.settings.permissions.deny).toEqual(["Read(.env)"]);
  });

  it("layers: managed fixes the keys it sets, and every layer's denies add up", () => {
    const r = resolveSettings({
      user: {
        source: "user",
        flat: { "toolgate.mode": "auto", "toolgate.commands.deny": ["rm"], "toolgate.autoApprove.all": true },
      },
      workspace: [{ source: "ws", flat: { "toolgate.permissions.deny": ["Read(.env)"] } }],
      managed: [{ source: "managed", flat: { "toolgate.mode": "normal", "toolgate.commands.deny": ["curl"] } }],
    });
    expect(r.settings.mode).toBe("normal");
    expect(r.settings.autoApprove.all).toBe(true);
    expect(r.settings.commands.deny).toEqual(["rm", "curl"]);
    expect(r.settings.permissions.deny).toEqual(["Read(.env)"]);
    expect(r.locked).toEqual(["toolgate.mode"]);
  });

  it("from the editor: loosening keys only from user scope, workspace lists only tighten", () => {
    const values: Record<string, { globalValue?: unknown; workspaceValue?: unknown; defaultValue?: unknown }> = {
      "toolgate.mode": { defaultValue: "normal", workspaceValue: "auto" },
      "toolgate.autoApprove.actions": {
        defaultValue: DEFAULT_SETTINGS.autoApprove.actions,
        globalValue: { editFiles: true },
        workspaceValue: { editFilesExternally: true },
      },
      "toolgate.commands.allow": { defaultValue: [], workspaceValue: ["curl"] },
      "toolgate.commands.deny": { defaultValue: [], globalValue: ["rm"], workspaceValue: ["git push"] },
    };
    const r = settingsFromInspect((k) => values[k]);
    expect(r.errors).toEqual([]);
    expect(r.ignoredWorkspaceKeys).toEqual([
      "toolgate.mode",
      "toolgate.autoApprove.actions",
      "toolgate.commands.allow",
    ]);
    expect(r.settings.mode).toBe("normal");
    expect(r.settings.autoApprove.actions.editFiles).toBe(true);
    expect(r.settings.autoApprove.actions.editFilesExternally).toBe(false);
    expect(r.settings.commands).toEqual({ allow: [], deny: ["rm", "git push"] });
  });

  it("from the editor: a malformed user value is reported and the defaults never loosen past it", () => {
    const r = settingsFromInspect((k) =>
      k === "toolgate.autoApprove.all"
        ? { globalValue: "yes", defaultValue: false }
        : k === "toolgate.commands.deny"
          ? { workspaceValue: ["rm"] }
          : undefined,
    );
    expect(r.errors).toHaveLength(1);
    expect(r.settings.autoApprove.all).toBe(false);
    expect(r.settings.commands.deny).toEqual(["rm"]);
  });

  it("parses an mcpServers file and rejects a server with neither command nor url", () => {
    expect(parseMcpFile({ mcpServers: { a: { command: "node", alwaysAllow: ["x"] } } }).ok).toBe(true);
    expect(parseMcpFile({ mcpServers: { a: { args: [] } } }).ok).toBe(false);
    expect(parseMcpFile({ servers: {} }).ok).toBe(false);
  });

  it("reads settings.json with comments and trailing commas, but not other syntax errors", () => {
    expect(parseJsonc('{\n // c\n "a": "// not a comment", /* b */ "c": [1,2,],\n}')).toEqual({
      a: "// not a comment",
      c: [1, 2],
    });
    expect(() => parseJsonc('{"a": }')).toThrow();
  });
});
