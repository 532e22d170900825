import { describe, expect, it } from "vitest";
import { settingsFromInspect } from "../../../src/core/settingsLayers";
import { SECTION, SettingsBridge, type SettingKey } from "../../../src/host/settingsBridge";
import { FakeConfigStore } from "./fakes";

/** The bridge reading as the host wires it: the store's inspect() plus a managed policy layer. */
function bridgeWith(c: FakeConfigStore, managed: Record<string, unknown>): SettingsBridge {
  const s = new SettingsBridge(c, () => true);
  s.useReader(() =>
    settingsFromInspect(
      (key) => (key.startsWith(`${SECTION}.`) ? c.inspect(key.slice(SECTION.length + 1) as SettingKey) : undefined),
      [{ source: "managed", flat: managed }],
    ),
  );
  return s;
}

describe("settings fixed by the managed policy, in the panel", () => {
  it("are reported as locked with the policy's values, and a panel write to them is refused", async () => {
    const c = new FakeConfigStore();
    c.global.set("autoApprove.all", true);
    c.global.set("mode", "auto");
    const s = bridgeWith(c, {
      "toolgate.autoApprove.all": false,
      "toolgate.mode": "normal",
      "toolgate.autoApprove.actions": { executeAllCommands: false },
    });
    const v = s.view();
    expect(v.autoApprove.all).toBe(false);
    expect(v.mode).toBe("normal");
    expect([...(v.locked ?? [])].sort()).toEqual(["autoApprove.action:executeAllCommands", "autoApprove.all"]);
    expect(v.modeCeiling).toBe("normal");
    await expect(s.apply({ key: "autoApprove.all", value: true })).rejects.toThrow(/administrator/);
    await expect(s.apply({ key: "autoApprove.action", action: "executeAllCommands", value: true })).rejects.toThrow(
      /administrator/,
    );
    await expect(s.apply({ key: "mode", value: "auto" })).rejects.toThrow(/does not allow auto mode/);
    // Under the ceiling the person still chooses; settings the policy leaves alone stay theirs.
    await s.apply({ key: "mode", value: "plan" });
    await s.apply({ key: "autoApprove.action", action: "editFiles", value: true });
    expect(c.writes).toEqual([
      ["mode", "plan"],
      ["autoApprove.actions", { editFiles: true }],
    ]);
  });
});
