import { describe, expect, it } from "vitest";
import { SettingsBridge } from "../../../src/host/settingsBridge";
import { FakeConfigStore } from "./fakes";
import { makeHost } from "./harness";

describe("settings bridge", () => {
  it("round-trip: a panel toggle writes user scope, and the change comes back to every webview", async () => {
    const h = makeHost();
    const a = h.webview("sidebar");
    const b = h.webview("editor");
    await a.send({ type: "ready" });
    await b.send({ type: "ready" });
    expect(a.store.getState().settings?.autoApprove.actions.editFiles).toBe(false);

    await a.send({
      type: "setSetting",
      requestId: 1,
      change: { key: "autoApprove.action", action: "editFiles", value: true },
    });
    expect(h.config.writes).toEqual([["autoApprove.actions", { editFiles: true }]]);
    h.controller.settingsChanged(); // what onDidChangeConfiguration triggers
    for (const w of [a, b]) {
      const s = w.store.getState().settings!;
      expect(s.autoApprove.actions.editFiles).toBe(true);
      expect(s.autoApprove.actions.readFiles).toBe(true); // other keys keep their defaults
    }
  });

  it("follows changes made elsewhere (settings.json edited by hand)", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    h.config.global.set("mode", "plan");
    h.config.global.set("autoApprove.enabled", false);
    h.controller.settingsChanged();
    expect(w.store.getState().settings?.mode).toBe("plan");
    expect(w.store.getState().settings?.autoApprove.enabled).toBe(false);
  });

  it("ignores loosening values from the workspace and says so; workspace deny/ask lists only add", () => {
    const c = new FakeConfigStore();
    c.workspace.set("mode", "auto");
    c.workspace.set("autoApprove.all", true);
    c.workspace.set("autoApprove.actions", { executeAllCommands: true });
    c.workspace.set("commands.allow", ["curl"]);
    c.workspace.set("permissions.allow", ["Bash(*)"]);
    c.global.set("commands.deny", ["rm"]);
    c.workspace.set("commands.deny", ["git push"]);
    c.folder.set("permissions.deny", ["Read(.env)"]);
    const s = new SettingsBridge(c, () => true);
    const v = s.view();
    expect(v.mode).toBe("normal");
    expect(v.autoApprove.all).toBe(false);
    expect(v.autoApprove.actions.executeAllCommands).toBe(false);
    expect(v.errors).toEqual([]);
    expect([...v.ignoredWorkspaceKeys].sort()).toEqual([
      "toolgate.autoApprove.actions",
      "toolgate.autoApprove.all",
      "toolgate.commands.allow",
      "toolgate.mode",
      "toolgate.permissions.allow",
    ]);
    const g = s.hostSettings().settings;
    expect(g.commands.allow).toEqual([]);
    expect(g.permissions.allow).toEqual([]);
    expect(g.commands.deny).toEqual(["rm", "git push"]);
    expect(g.permissions.deny).toEqual(["Read(.env)"]);
  });

  it("malformed user values never loosen, and the panel gets the errors that stop auto-approval", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    h.config.global.set("mode", "yolo");
    h.config.global.set("autoApprove.all", "yes");
    await w.send({ type: "ready" });
    const v = w.store.getState().settings!;
    expect(v.mode).toBe("normal");
    expect(v.autoApprove.all).toBe(false);
    expect(v.errors.join("\n")).toMatch(/toolgate\.mode/);
    expect(v.errors.join("\n")).toMatch(/toolgate\.autoApprove\.all/);
  });

  it("a settings reader from the gate service (managed policy) replaces the default one", () => {
    const c = new FakeConfigStore();
    const s = new SettingsBridge(c, () => true);
    const base = s.hostSettings();
    s.useReader(() => ({ ...base, settings: { ...base.settings, mode: "plan" } }));
    expect(s.view().mode).toBe("plan");
  });

  it("reports Restricted Mode to the panel and refuses wrongly typed writes", async () => {
    const h = makeHost({ trusted: false });
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    expect(w.store.getState().settings?.workspaceTrusted).toBe(false);
    await expect(h.settings.apply({ key: "autoApprove.maxRequests", value: 1.5 })).rejects.toThrow(/whole number/);
    await expect(h.settings.apply({ key: "mode", value: "yolo" as never })).rejects.toThrow(/Unknown mode/);
    expect(h.config.writes).toEqual([]);
  });

  it("a failed settings write is reported to the webview that asked", async () => {
    const h = makeHost();
    const w = h.webview("sidebar");
    await w.send({ type: "ready" });
    h.config.failNextWrite = "Unable to write into user settings";
    await w.send({ type: "setSetting", requestId: 5, change: { key: "autoApprove.enabled", value: false } });
    expect(w.fake.ofType("result").at(-1)).toEqual({
      type: "result",
      requestId: 5,
      ok: false,
      error: "Unable to write into user settings",
    });
    expect(w.store.getState().settings?.autoApprove.enabled).toBe(true);
  });
});
