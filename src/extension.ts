/**
 * Thin entry point. Activation builds only the host shell (settings bridge, status bar, view providers,
 * commands); the agent runtime (grammar, gate service, MCP servers, task history) starts the first time a
 * chat webview opens, from its own bundle (dist/runtime.js). A failure while building the host is reported to
 * the person instead of leaving a silently dead extension.
 */
import * as vscode from "vscode";
import type { ToolgateHostApi } from "./host/activate";

export async function activate(context: vscode.ExtensionContext): Promise<ToolgateHostApi | undefined> {
  try {
    const { activateHost } = await import("./host/activate");
    return activateHost(context, async (api) => {
      const { connectRuntime } = await import("./host/runtime");
      await connectRuntime(context, api);
    });
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(vscode.l10n.t("Toolgate failed to start: {0}", detail));
    console.error("Toolgate activation failed", e);
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is registered in context.subscriptions and disposed by VS Code.
}
