import { afterAll, describe, expect, it } from "vitest";
import { Gate } from "../../../src/core/gate";
import { parseJsonc } from "../../../src/core/jsonc";
import { loadSettingsFiles, managedSettingsPath, vscodeUserSettingsPath } from "../../../src/core/settingsFiles";
import { resolveSettings, settingsFromInspect } from "../../../src/core/settingsLayers";
import { tempTree } from "../../support/workspace";

const t = tempTree({
  "ws/src/a.ts": "a",
  "ws/keys/id_rsa": "secret",
  "ws/keys/id_rsa.pub": "public",
  "ws/keys/notes.txt": "n",
});
afterAll(() => t.cleanup());

async function gateFor(r: ReturnType<typeof resolveSettings>, headless = false): Promise<Gate> {
  return Gate.create({ settings: r.settings, roots: [t.path("ws")], settingsErrors: r.errors, headless });
}
const cmd = (command: string) => ({ tool: "execute_command", params: { command } });

describe("one malformed value never drops another layer's lists", () => {
  it("user maxCost -1 keeps the administrator's deny of curl a deny (not an ask the user can approve)", async () => {
    const r = resolveSettings({
      user: { source: "user", flat: { "toolgate.autoApprove.maxCost": -1, "toolgate.commands.deny": ["wget"] } },
      managed: [{ source: "managed", flat: { "toolgate.commands.deny": ["curl"] } }],
    });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/maxCost/);
    expect(r.settings.commands.deny).toEqual(["wget", "curl"]);
    const gate = await gateFor(r);
    expect(gate.decide(cmd("curl https://x.test")).decision).toBe("deny");
    expect(gate.decide(cmd("wget https://x.test")).decision).toBe("deny");
    // The error still stops every auto-approval: what was allowed now asks, never the other way round.
    expect(gate.decide({ tool: "read_file", params: { path: "src/a.ts" } }).decision).toBe("ask");
  });

  it("the same through the host's inspect() reading", async () => {
    const r = settingsFromInspect(
      (k) => (k === "toolgate.autoApprove.maxCost" ? { globalValue: -1, defaultValue: 0 } : undefined),
      [{ source: "managed", flat: { "toolgate.commands.deny": ["curl"] } }],
    );
    expect((await gateFor(r)).decide(cmd("curl x")).decision).toBe("deny");
  });

  it("a malformed entry of a deny list drops that entry alone; a bare string still denies", () => {
    const r = resolveSettings({
      user: {
        source: "user",
        flat: {
          "toolgate.permissions.deny": ["Read(.env)", 42, "Bash(curl)"],
          "toolgate.commands.deny": "rm",
          "toolgate.permissions.ask": { not: "a list" },
          "toolgate.commands.allow": "git push",
        },
      },
    });
    expect(r.settings.permissions.deny).toEqual(["Read(.env)", "Bash(curl)"]);
    expect(r.settings.commands.deny).toEqual(["rm"]);
    expect(r.settings.commands.allow).toEqual([]);
    expect(r.errors).toHaveLength(4);
  });

  it("a malformed workspace or managed value is reported; their other lists still hold", () => {
    const r = resolveSettings({
      workspace: [{ source: "ws", flat: { "toolgate.permissions.deny": ["Read(.env)", null], "toolgate.mode": 3 } }],
      managed: [
        {
          source: "managed",
          flat: { "toolgate.mode": "yolo", "toolgate.permissions.ask": ["Bash(git push)"], "toolgate.x": 1 },
        },
      ],
    });
    expect(r.settings.permissions.deny).toEqual(["Read(.env)"]);
    expect(r.settings.permissions.ask).toEqual(["Bash(git push)"]);
    expect(r.ignoredWorkspaceKeys).toEqual(["toolgate.mode"]);
    expect(r.locked).toContain("toolgate.mode");
    expect(r.errors.join("\n")).toMatch(/toolgate\.mode[\s\S]*toolgate\.x|toolgate\.x[\s\S]*toolgate\.mode/);
  });

  it("an entry that is not a rule (`Frob(x)`) is reported; the list's other rules still refuse", async () => {
    const r = resolveSettings({
      managed: [{ source: "managed", flat: { "toolgate.permissions.deny": ["Frob(x)", "Bash(curl)", "Read(.env)"] } }],
    });
    const gate = await gateFor(r);
    expect(gate.errors.join()).toMatch(/Frob/);
    expect(gate.decide(cmd("curl x")).decision).toBe("deny");
    expect(gate.decide({ tool: "read_file", params: { path: ".env" } }).decision).toBe("deny");
  });

  it("`Read(**/id_rsa{.pub,})` survives JSONC parsing intact and still denies the private key", async () => {
    const text = '{\n  // keys\n  "toolgate.permissions.deny": ["Read(**/id_rsa{.pub,})",],\n}\n';
    const flat = parseJsonc(text) as Record<string, unknown>;
    expect(flat["toolgate.permissions.deny"]).toEqual(["Read(**/id_rsa{.pub,})"]);
    const gate = await gateFor(resolveSettings({ user: { source: "user", flat } }));
    expect(gate.decide({ tool: "read_file", params: { path: "keys/id_rsa" } }).decision).toBe("deny");
    expect(gate.decide({ tool: "read_file", params: { path: "keys/id_rsa.pub" } }).decision).toBe("deny");
    expect(gate.decide({ tool: "read_file", params: { path: "keys/notes.txt" } }).decision).toBe("allow");
  });
});

describe("the managed policy", () => {
  it("adds to deny and ask lists, fixes the keys it sets, and caps the mode and the limits", () => {
    const managed = {
      source: "managed",
      flat: {
        "toolgate.mode": "normal",
        "toolgate.autoApprove.all": false,
        "toolgate.autoApprove.actions": { executeAllCommands: false },
        "toolgate.autoApprove.maxCost": 5,
        "toolgate.commands.allow": [],
        "toolgate.permissions.ask": ["Edit(package.json)"],
        "toolgate.sandbox.mode": "required",
        "toolgate.openai.baseUrl": "https://llm.example.test/v1",
      },
    };
    const user = {
      source: "user",
      flat: {
        "toolgate.mode": "auto",
        "toolgate.autoApprove.all": true,
        "toolgate.autoApprove.actions": { executeAllCommands: true, editFiles: true },
        "toolgate.autoApprove.maxCost": 50,
        "toolgate.commands.allow": ["make"],
        "toolgate.permissions.ask": ["Bash(git push)"],
        "toolgate.sandbox.mode": "off",
        "toolgate.openai.baseUrl": "https://elsewhere.test/v1",
      },
    };
    const r = resolveSettings({ user, managed: [managed] });
    expect(r.errors).toEqual([]);
    expect(r.settings.mode).toBe("normal");
    expect(r.notices.join()).toMatch(/does not allow auto mode/);
    expect(r.settings.autoApprove.all).toBe(false);
    expect(r.settings.autoApprove.actions).toMatchObject({ executeAllCommands: false, editFiles: true });
    expect(r.settings.autoApprove.maxCost).toBe(5);
    expect(r.settings.commands.allow).toEqual([]);
    expect(r.settings.permissions.ask).toEqual(["Bash(git push)", "Edit(package.json)"]);
    expect(r.values["toolgate.sandbox.mode"]).toBe("required");
    expect(r.values["toolgate.openai.baseUrl"]).toBe("https://llm.example.test/v1");
    expect([...r.locked].sort()).toEqual(
      [
        "toolgate.autoApprove.actions.executeAllCommands",
        "toolgate.autoApprove.all",
        "toolgate.autoApprove.maxCost",
        "toolgate.commands.allow",
        "toolgate.mode",
        "toolgate.openai.baseUrl",
        "toolgate.sandbox.mode",
      ].sort(),
    );
    // A stricter choice of the person stays theirs under a ceiling.
    const strict = resolveSettings({
      user: { source: "user", flat: { "toolgate.mode": "plan", "toolgate.autoApprove.maxCost": 1 } },
      managed: [managed],
    });
    expect(strict.settings.mode).toBe("plan");
    expect(strict.settings.autoApprove.maxCost).toBe(1);
  });

  it("a second managed file (--managed, the environment variable) adds to the system one and cannot unset it", () => {
    const r = resolveSettings({
      user: { source: "user", flat: { "toolgate.autoApprove.all": true } },
      managed: [
        { source: "system", flat: { "toolgate.autoApprove.all": false, "toolgate.commands.deny": ["curl"] } },
        { source: "extra", flat: { "toolgate.autoApprove.all": true, "toolgate.commands.deny": ["wget"] } },
      ],
    });
    expect(r.settings.autoApprove.all).toBe(false);
    expect(r.settings.commands.deny).toEqual(["curl", "wget"]);
  });

  it("the flags layer: rules add, the mode replaces the user's but not past the policy, limits only go down", () => {
    const r = resolveSettings({
      user: {
        source: "user",
        flat: { "toolgate.permissions.deny": ["Bash(rm)"], "toolgate.autoApprove.maxRequests": 5 },
      },
      flags: {
        source: "flags",
        flat: {
          "toolgate.mode": "auto",
          "toolgate.permissions.ask": ["Bash(git push)"],
          "toolgate.autoApprove.maxRequests": 9,
        },
      },
      managed: [{ source: "managed", flat: { "toolgate.mode": "normal" } }],
    });
    expect(r.settings.mode).toBe("normal");
    expect(r.settings.permissions.ask).toEqual(["Bash(git push)"]);
    expect(r.settings.permissions.deny).toEqual(["Bash(rm)"]);
    expect(r.settings.autoApprove.maxRequests).toBe(5);
  });
});

describe("settings files", () => {
  it("VS Code's user settings and the managed policy live at their per-OS paths", () => {
    expect(vscodeUserSettingsPath("linux", {}, "/home/u")).toBe("/home/u/.config/Code/User/settings.json");
    expect(vscodeUserSettingsPath("linux", { XDG_CONFIG_HOME: "/x" }, "/home/u")).toBe("/x/Code/User/settings.json");
    expect(vscodeUserSettingsPath("darwin", {}, "/Users/u")).toBe(
      "/Users/u/Library/Application Support/Code/User/settings.json",
    );
    expect(vscodeUserSettingsPath("win32", { APPDATA: "C:\\Users\\u\\AppData\\Roaming" }, "C:\\Users\\u")).toBe(
      "C:\\Users\\u\\AppData\\Roaming\\Code\\User\\settings.json",
    );
    expect(managedSettingsPath("linux")).toBe("/etc/toolgate/managed-settings.json");
    expect(managedSettingsPath("darwin")).toBe("/Library/Application Support/Toolgate/managed-settings.json");
    expect(managedSettingsPath("win32", { ProgramData: "D:\\PD" })).toBe("D:\\PD\\Toolgate\\managed-settings.json");
  });

  it("loads user, workspace (tighten only) and managed files; unreadable required files are errors", () => {
    const tree = tempTree({
      "appdata/Code/User/settings.json": '{"toolgate.commands.deny": ["rm"], /* c */ "editor.tabSize": 2,}',
      "root/.vscode/settings.json": '{"toolgate.permissions.deny": ["Read(.env)"], "toolgate.mode": "auto"}',
      "managed.json": '{"toolgate.commands.deny": ["curl"]}',
      "broken.json": "{",
    });
    try {
      const env = { VSCODE_APPDATA: tree.path("appdata") };
      const r = loadSettingsFiles({ roots: [tree.path("root")], managedFile: tree.path("managed.json"), env });
      expect(r.errors).toEqual([]);
      expect(r.settings.commands.deny).toEqual(["rm", "curl"]);
      expect(r.settings.permissions.deny).toEqual(["Read(.env)"]);
      expect(r.settings.mode).toBe("normal");
      expect(r.ignoredWorkspaceKeys).toEqual(["toolgate.mode"]);
      const bad = loadSettingsFiles({ roots: [], settingsFile: tree.path("broken.json"), env });
      expect(bad.errors.join()).toMatch(/not valid JSON/);
      const missing = loadSettingsFiles({ roots: [], userSettingsFile: tree.path("nope.json"), env });
      expect(missing.errors.join()).toMatch(/ENOENT/);
      // No user file at the default path is simply no layer.
      expect(loadSettingsFiles({ roots: [], env: { VSCODE_APPDATA: tree.path("none") } }).errors).toEqual([]);
    } finally {
      tree.cleanup();
    }
  });
});
