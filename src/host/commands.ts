/**
 * Palette commands (ids in ids.ts, matched against package.json by a unit test).
 */
import * as vscode from "vscode";
import type { Mode } from "../core/types";
import type { ChatController } from "./chatController";
import type { ChatWebviews } from "./chatViewProvider";
import { CommandId } from "./ids";
import { SecretKey, type SettingsBridge } from "./settingsBridge";
import { chooseProviderFlow } from "./modelSetup";
import { allowRegistryHosts } from "./registryHostsCommand";

export const NEXT_MODE: Readonly<Record<Mode, Mode>> = { normal: "plan", plan: "auto", auto: "normal" };

export interface CommandDeps {
  readonly controller: ChatController;
  readonly webviews: ChatWebviews;
  readonly settings: SettingsBridge;
  readonly secrets: vscode.SecretStorage;
}

export async function openToolgateSettings(query?: string): Promise<void> {
  await vscode.commands.executeCommand("workbench.action.openSettings", query ?? "@ext:toolgate.toolgate");
}

export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { controller, webviews, settings } = deps;
  const reg = (id: string, fn: () => unknown) =>
    vscode.commands.registerCommand(id, async () => {
      try {
        await fn();
      } catch (e) {
        void vscode.window.showErrorMessage(vscode.l10n.t("Toolgate: {0}", e instanceof Error ? e.message : String(e)));
      }
    });

  return [
    reg(CommandId.newTask, async () => {
      await webviews.reveal();
      if (!controller.startOver())
        void vscode.window.showInformationMessage(
          vscode.l10n.t("Toolgate: a task is still running. Cancel it in the panel first."),
        );
    }),
    reg(CommandId.cycleMode, async () => {
      const next = NEXT_MODE[settings.view().mode];
      if (next === "auto") {
        // YOLO is never one accidental keypress away.
        const switchToAuto = vscode.l10n.t("Switch to auto");
        const ok = await vscode.window.showWarningMessage(
          vscode.l10n.t("Switch Toolgate to auto (YOLO) mode?"),
          {
            modal: true,
            detail: vscode.l10n.t(
              "Every tool call that no deny rule refuses will run without asking, including commands and edits.",
            ),
          },
          switchToAuto,
        );
        await settings.apply({ key: "mode", value: ok === switchToAuto ? "auto" : "normal" });
        return;
      }
      await settings.apply({ key: "mode", value: next });
    }),
    reg(CommandId.toggleAutoApprove, () =>
      settings.apply({ key: "autoApprove.enabled", value: !settings.view().autoApprove.enabled }),
    ),
    reg(CommandId.setApiKey, async () => {
      const pick = await vscode.window.showQuickPick(
        [
          { label: vscode.l10n.t("OpenAI-compatible"), key: SecretKey.openAiCompatible },
          { label: vscode.l10n.t("Anthropic"), key: SecretKey.anthropic },
        ],
        { title: vscode.l10n.t("Toolgate: set API key"), placeHolder: vscode.l10n.t("Which provider?") },
      );
      if (!pick) return;
      const value = await vscode.window.showInputBox({
        title: vscode.l10n.t("{0} API key", pick.label),
        prompt: vscode.l10n.t("Stored in VS Code's secret storage, never in settings. Leave empty to remove the key."),
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return;
      if (value.trim() === "") {
        await deps.secrets.delete(pick.key);
        void vscode.window.showInformationMessage(vscode.l10n.t("Toolgate: {0} API key removed.", pick.label));
      } else {
        await deps.secrets.store(pick.key, value.trim());
        void vscode.window.showInformationMessage(vscode.l10n.t("Toolgate: {0} API key saved.", pick.label));
      }
    }),
    reg(CommandId.openSettings, () => openToolgateSettings()),
    reg(CommandId.openInEditor, () => webviews.openInEditor()),
    reg(CommandId.showAutoApproveMenu, async () => {
      await webviews.reveal();
      controller.reveal("autoApprove");
    }),
    reg(CommandId.showMcpServers, async () => {
      await webviews.reveal();
      controller.reveal("mcp");
    }),
    reg(CommandId.showRules, async () => {
      await webviews.reveal();
      controller.reveal("rules");
    }),
    reg(CommandId.showPendingAsk, () => webviews.reveal()),
    reg(CommandId.approvePendingAsk, () => answerByKey("approve")),
    reg(CommandId.rejectPendingAsk, () => answerByKey("reject")),
    // Feedback goes with the answer the person then gives on the card (Escape rejects, Ctrl+Enter approves).
    reg(CommandId.feedbackPendingAsk, async () => {
      await webviews.reveal();
      controller.reveal("askFeedback");
    }),
    reg(CommandId.chooseProvider, () => chooseProviderFlow(() => vscode.commands.executeCommand(CommandId.setApiKey))),
    reg(CommandId.choosePreset, async () => {
      await webviews.reveal();
      controller.offerPresets();
    }),
    reg(CommandId.allowRegistryHosts, () => allowRegistryHosts(settings)),
  ];

  function answerByKey(kind: "approve" | "reject"): void {
    const problem = controller.answerPending(kind);
    if (problem) void vscode.window.showInformationMessage(vscode.l10n.t("Toolgate: {0}", problem));
  }
}
