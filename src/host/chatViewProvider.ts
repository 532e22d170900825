/**
 * The `vscode` shell around ChatController for webviews: the sidebar view, editor tabs, and their restore
 * after a window reload. Kept thin: HTML comes from webviewHtml.ts, logic from ChatController.
 */
import { randomBytes } from "node:crypto";
import * as vscode from "vscode";
import type { WebviewBootstrap } from "../shared/protocol";
import type { ChatController } from "./chatController";
import { PANEL_TYPE, VIEW_ID } from "./ids";
import { renderWebviewHtml } from "./webviewHtml";
import { WebviewChannel } from "./webviewChannel";

export { PANEL_TYPE, VIEW_ID };

export class ChatWebviews implements vscode.WebviewViewProvider, vscode.WebviewPanelSerializer, vscode.Disposable {
  private readonly distUri: vscode.Uri;
  private readonly disposables: vscode.Disposable[] = [];
  private view: vscode.WebviewView | undefined;
  private readonly panels = new Set<vscode.WebviewPanel>();
  private badge: vscode.ViewBadge | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: ChatController,
    /** Called whenever a webview is set up: the agent runtime starts on the first one. */
    private readonly onOpen: () => void = () => {},
  ) {
    this.distUri = vscode.Uri.joinPath(extensionUri, "dist");
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.badge = this.badge;
    const { channel, cleanup } = this.setup(view.webview, "sidebar");
    // Without retainContextWhenHidden a hidden view loses its document; it says `ready` again when shown.
    const visibility = view.onDidChangeVisibility(() => {
      if (!view.visible) channel.close();
    });
    view.onDidDispose(() => {
      visibility.dispose();
      cleanup();
      this.view = undefined;
    });
  }

  /** Opens the chat in an editor tab (another view of the same task). */
  openInEditor(): void {
    const panel = vscode.window.createWebviewPanel(PANEL_TYPE, "Toolgate", vscode.ViewColumn.Active, this.options());
    this.setupPanel(panel);
  }

  /** Restores an editor tab after a window reload. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel): Promise<void> {
    panel.webview.options = this.options();
    this.setupPanel(panel);
  }

  /** The count of waiting asks on the view (and so on the activity bar), kept for a view resolved later. */
  setBadge(badge: vscode.ViewBadge | undefined): void {
    this.badge = badge;
    if (this.view) this.view.badge = badge;
  }

  /** Whether the person can see a chat right now: the sidebar view or an editor tab is visible. */
  anyVisible(): boolean {
    if (this.view?.visible) return true;
    for (const p of this.panels) if (p.visible) return true;
    return false;
  }

  /** Shows the sidebar view (creating it if needed). */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${VIEW_ID}.focus`);
  }

  private setupPanel(panel: vscode.WebviewPanel): void {
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, "media", "toolgate.svg");
    const { channel, cleanup } = this.setup(panel.webview, "editor");
    this.panels.add(panel);
    const viewState = panel.onDidChangeViewState(() => {
      if (!panel.visible) channel.close();
    });
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      viewState.dispose();
      cleanup();
    });
  }

  private options(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
    return { enableScripts: true, localResourceRoots: [this.distUri] };
  }

  private setup(
    webview: vscode.Webview,
    surface: WebviewBootstrap["surface"],
  ): { channel: WebviewChannel; cleanup: () => void } {
    webview.options = this.options();
    this.onOpen();
    const channel = new WebviewChannel(surface, (m) => webview.postMessage(m));
    const connection = this.controller.connect(channel);
    const listener = webview.onDidReceiveMessage((raw: unknown) => this.controller.handleMessage(channel, raw));
    const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.distUri, name)).toString();
    webview.html = renderWebviewHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString("base64"),
      scriptUri: asset("webview.js"),
      styleUri: asset("webview.css"),
      codiconUri: asset("codicon.css"),
      bootstrap: { surface },
    });
    this.disposables.push(connection, listener);
    const cleanup = (): void => {
      channel.close();
      connection.dispose();
      listener.dispose();
    };
    return { channel, cleanup };
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
