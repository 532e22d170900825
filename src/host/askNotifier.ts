/**
 * Never miss an ask: the Toolgate view's badge (shown on the activity bar even while the panel is closed), the
 * status bar's count, a `toolgate.askPending` context key for the answer keybindings, and a notification with
 * "Show" when an ask arrives while the panel is hidden (`toolgate.notifyOnAsk`). A notification only shows the
 * panel: every answer is given there (or by its keybindings), never from the notification.
 */
import * as vscode from "vscode";
import { badgeOf, NO_ATTENTION, parseNotifyOnAsk, shouldNotify, type Attention } from "./askAttention";
import type { ChatWebviews } from "./chatViewProvider";
import type { StatusBar } from "./statusBar";

export const ASK_PENDING_CONTEXT = "toolgate.askPending";

export class AskNotifier {
  private current: Attention = NO_ATTENTION;

  constructor(
    private readonly webviewsOf: () => ChatWebviews,
    private readonly statusBar: StatusBar,
  ) {}

  update(next: Attention): void {
    const previous = this.current;
    this.current = next;
    this.webviewsOf().setBadge(badgeOf(next));
    this.statusBar.setWaiting(next.count);
    if (previous.count > 0 !== next.count > 0) {
      void vscode.commands.executeCommand("setContext", ASK_PENDING_CONTEXT, next.count > 0);
    }
    if (next.latestId === undefined || next.latestId === previous.latestId) return;
    // Application scope like every setting that changes what reaches the person: a repository cannot mute it.
    const inspected = vscode.workspace.getConfiguration("toolgate").inspect<unknown>("notifyOnAsk");
    const setting = parseNotifyOnAsk(inspected?.globalValue ?? inspected?.defaultValue);
    if (shouldNotify(setting, this.webviewsOf().anyVisible(), previous, next)) void this.notify(next);
  }

  private async notify(a: Attention): Promise<void> {
    const show = vscode.l10n.t("Show");
    const choice = await vscode.window.showInformationMessage(
      vscode.l10n.t("Toolgate is waiting for you: {0}.", a.summary ?? vscode.l10n.t("a step needs your answer")),
      show,
    );
    if (choice === show && this.current.latestId === a.latestId) await this.webviewsOf().reveal();
  }
}
