/**
 * Status bar item: the mode and the auto-approve state at a glance; clicking it opens the auto-approve
 * dropdown in the panel. Its text is computed by a pure function so it is tested without VS Code.
 */
import * as vscode from "vscode";
import type { SettingsView } from "../shared/protocol";
import { statusText } from "./statusText";

export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("toolgate.status", vscode.StatusBarAlignment.Right, 100);
  private settings: SettingsView | undefined;
  private waiting = 0;
  private sandboxNotice: string | undefined;

  /** `command` opens the auto-approve menu; `askCommand` shows the waiting ask while one waits. */
  constructor(
    private readonly command: string,
    private readonly askCommand: string,
  ) {
    this.item.name = "Toolgate";
    this.item.command = command;
    this.item.show();
  }

  update(s: SettingsView): void {
    this.settings = s;
    this.render();
  }

  /** Asks waiting for the person: shown first, so a glance at the status bar tells. */
  setWaiting(count: number): void {
    this.waiting = count;
    this.render();
  }

  /** The OS sandbox is wanted (mode auto/required) but unavailable: one tooltip line with the reason. */
  setSandboxNotice(text: string | undefined): void {
    if (text === this.sandboxNotice) return;
    this.sandboxNotice = text;
    this.render();
  }

  private render(): void {
    if (!this.settings) return;
    const t = statusText(this.settings, this.waiting, vscode.l10n.t, this.sandboxNotice);
    this.item.text = t.text;
    this.item.command = this.waiting > 0 ? this.askCommand : this.command;
    this.item.tooltip = t.tooltip;
    this.item.backgroundColor = t.warning ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    this.item.accessibilityInformation = { label: t.tooltip, role: "button" };
  }

  dispose(): void {
    this.item.dispose();
  }
}
