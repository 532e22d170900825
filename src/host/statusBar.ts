/**
 * Status bar item: the mode and the auto-approve state at a glance; clicking it opens the auto-approve
 * dropdown in the panel. Its text is computed by a pure function so it is tested without VS Code.
 */
import * as vscode from "vscode";
import type { SettingsView } from "../shared/protocol";
import { statusText } from "./statusText";

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("toolgate.status", vscode.StatusBarAlignment.Right, 100);

  constructor(command: string) {
    this.item.name = "Toolgate";
    this.item.command = command;
    this.item.show();
  }

  update(s: SettingsView): void {
    const t = statusText(s, vscode.l10n.t);
    this.item.text = t.text;
    this.item.tooltip = t.tooltip;
    this.item.backgroundColor = t.warning ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.item.accessibilityInformation = { label: t.tooltip, role: "button" };
  }

  dispose(): void {
    this.item.dispose();
  }
}
