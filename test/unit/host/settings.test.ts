import { describe, expect, it } from "vitest";
import { SettingsBridge } from "../../../src/host/settings";
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

    await a.send({ type: "setSetting", requestId: 1, change: { key: "autoApprove.action", action: "editFiles", value: true } });
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

  it("ignores loosening values from the workspace; workspace deny/ask lists only add", () => {
    const c = new FakeConfigStore();
    c.workspace.set("mode", "auto");
    c.workspace.set("autoApprove.all", true);
    c.workspace.set("autoApprove.actions", { executeAllCommands: true });
    c.workspace.set("commands.allow", ["curl"]);
    c.workspace.set("permissions.allow", ["Bash(*)"]);
    c.global.set("commands.deny", ["rm"]);
    c.workspace.set("commands.deny", ["git push", "rm"]);
    c.folder.set("permissions.deny", ["Read(.env)"]);
    const s = new SettingsBridge(c, () => true);
    const v = s.view();
    expect(v.mode).toBe("normal");
    expect(v.autoApprove.all).toBe(false);
    expect(v.autoApprove.actions.executeAllCommands).toBe(false);
    const flat = s.flat();
    expect(flat["toolgate.mode"]).toBe("normal");
    expect(flat["toolgate.commands.allow"]).toEqual([]);
    expect(flat["toolgate.permissions.allow"]).toEqual([]);
    expect(flat["toolgate.commands.deny"]).toEqual(["rm", "git push"]);
    expect(flat["toolgate.permissions.deny"]).toEqual(["Read(.env)"]);
  });

  it("shows malformed user values the way that does not loosen", () => {
    const c = new FakeConfigStore();
    c.global.set("mode", "yolo");
    c.global.set("autoApprove.actions", { editFiles: "yes", readFiles: 1 });
    c.global.set("autoApprove.maxRequests", -3);
    const v = new SettingsBridge(c, () => true).view();
    expect(v.mode).toBe("normal");
    expect(v.autoApprove.actions.editFiles).toBe(false);
    expect(v.autoApprove.actions.readFiles).toBe(false);
    expect(v.autoApprove.maxRequests).toBe(0);
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
    expect(w.fake.ofType("result").at(-1)).toEqual({ type: "result", requestId: 5, ok: false, error: "Unable to write into user settings" });
    expect(w.store.getState().settings?.autoApprove.enabled).toBe(true);
  });
});
