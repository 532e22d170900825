/** `ConfigStore` over `vscode.workspace.getConfiguration("toolgate")`: reads inspect(), writes user scope. */
import * as vscode from "vscode";
import { SECTION, type ConfigInspection, type ConfigStore, type SettingKey } from "./settingsBridge";

export class VscodeConfigStore implements ConfigStore {
  inspect(key: SettingKey): ConfigInspection | undefined {
    return vscode.workspace.getConfiguration(SECTION).inspect(key);
  }

  async updateGlobal(key: SettingKey, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
  }
}

/** The label shown for the toggle shortcut; must match `contributes.keybindings` in package.json. */
export function toggleShortcutLabel(): string {
  return process.platform === "darwin" ? "⌥⌘A" : "Ctrl+Alt+A";
}
