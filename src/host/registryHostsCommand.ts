/**
 * The walkthrough's one click: add the common package registries (`core/sandbox/registryHosts.ts`, the one
 * list) to `toolgate.sandbox.network` at user scope, after a modal that names every host. What is listed
 * already stays, in order; `off` becomes the list. A value the managed policy fixes, or a malformed one, is
 * not rewritten (the person fixes it in settings.json).
 */
import * as vscode from "vscode";
import { SANDBOX_SETTING_KEYS } from "../core/sandbox/sandboxSettings";
import { COMMON_REGISTRIES, registryHosts } from "../core/sandbox/registryHosts";
import { SECTION, type SettingsBridge } from "./settingsBridge";

const KEY = SANDBOX_SETTING_KEYS.network.slice(SECTION.length + 1);

export async function allowRegistryHosts(settings: SettingsBridge): Promise<void> {
  if (settings.hostSettings().locked.includes(SANDBOX_SETTING_KEYS.network))
    throw new Error(`${SANDBOX_SETTING_KEYS.network} is set by your administrator (managed policy).`);
  const config = vscode.workspace.getConfiguration(SECTION);
  const now = config.inspect(KEY)?.globalValue;
  let listed: string[];
  if (now === undefined || now === "off") listed = [];
  else if (Array.isArray(now) && now.every((h) => typeof h === "string")) listed = [...(now as string[])];
  else throw new Error(`${SANDBOX_SETTING_KEYS.network} in your user settings is malformed; fix it in settings.json.`);
  const adding = registryHosts(COMMON_REGISTRIES).filter((h) => !listed.includes(h));
  if (adding.length === 0) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t("Toolgate: the common package registries are listed already."),
    );
    return;
  }
  const allow = vscode.l10n.t("Allow these hosts");
  const names = COMMON_REGISTRIES.map((r) => r.name).join(", ");
  const ok = await vscode.window.showWarningMessage(
    vscode.l10n.t("Let sandboxed commands reach the package registries ({0})?", names),
    {
      modal: true,
      detail: vscode.l10n.t(
        "Adds {0} to toolgate.sandbox.network in your user settings. Installs from these registries then run in the sandbox without a click; every other host still asks.",
        adding.join(", "),
      ),
    },
    allow,
  );
  if (ok !== allow) return;
  await config.update(KEY, [...listed, ...adding], vscode.ConfigurationTarget.Global);
}
