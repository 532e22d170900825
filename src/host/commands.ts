/**
 * Palette commands (ids in ids.ts, matched against package.json by a unit test).
 */
import * as vscode from "vscode";
import type { Mode } from "../core/types";
import type { ChatController } from "./chatController";
import type { ChatWebviews } from "./chatViewProvider";
import { CommandId } from "./ids";
import { SecretKey, type SettingsBridge } from "./settingsBridge";
import { IDLE_STATES } from "./taskSession";

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
        void vscode.window.showErrorMessage(`Toolgate: ${e instanceof Error ? e.message : String(e)}`);
      }
    });

  return [
    reg(CommandId.newTask, async () => {
      const s = controller.currentSession;
      if (s && !IDLE_STATES.includes(s.state)) {
        void vscode.window.showInformationMessage("Toolgate: a task is still running. Cancel it in the panel first.");
      }
      await webviews.reveal();
      controller.reveal("input");
    }),
    reg(CommandId.cycleMode, async () => {
      const next = NEXT_MODE[settings.view().mode];
      if (next === "auto") {
        // YOLO is never one accidental keypress away.
        const ok = await vscode.window.showWarningMessage(
          "Switch Toolgate to auto (YOLO) mode?",
          {
            modal: true,
            detail: "Every tool call that no deny rule refuses will run without asking, including commands and edits.",
          },
          "Switch to auto",
        );
        await settings.apply({ key: "mode", value: ok ? "auto" : "normal" });
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
          { label: "OpenAI-compatible", key: SecretKey.openAiCompatible },
          { label: "Anthropic", key: SecretKey.anthropic },
        ],
        { title: "Toolgate: set API key", placeHolder: "Which provider?" },
      );
      if (!pick) return;
      const value = await vscode.window.showInputBox({
        title: `${pick.label} API key`,
        prompt: "Stored in VS Code's secret storage, never in settings. Leave empty to remove the key.",
        password: true,
        ignoreFocusOut: true,
      });
      if (value === undefined) return;
      if (value.trim() === "") {
        await deps.secrets.delete(pick.key);
        void vscode.window.showInformationMessage(`Toolgate: ${pick.label} API key removed.`);
      } else {
        await deps.secrets.store(pick.key, value.trim());
        void vscode.window.showInformationMessage(`Toolgate: ${pick.label} API key saved.`);
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
    reg(CommandId.showPendingAsk, () => webviews.reveal()),
    reg(CommandId.approvePendingAsk, () => answerByKey("approve")),
    reg(CommandId.rejectPendingAsk, () => answerByKey("reject")),
  ];

  function answerByKey(kind: "approve" | "reject"): void {
    const problem = controller.answerPending(kind);
    if (problem) void vscode.window.showInformationMessage(`Toolgate: ${problem}`);
  }
}
