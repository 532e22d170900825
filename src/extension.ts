/**
 * Thin entry point: everything else loads lazily inside activate(), so a failure while building the host is
 * reported to the person instead of leaving a silently dead extension.
 */
import * as vscode from "vscode";
import type { ToolgateHostApi } from "./host/activate";

export async function activate(context: vscode.ExtensionContext): Promise<ToolgateHostApi | undefined> {
  try {
    const { activateHost } = await import("./host/activate");
    const api = activateHost(context);
    // The panel works without the runtime (settings, MCP config); a runtime failure is reported, not fatal.
    try {
      const { connectRuntime } = await import("./host/runtime");
      await connectRuntime(context, api);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      void vscode.window.showErrorMessage(`Toolgate could not start its agent runtime: ${detail}`);
      console.error("Toolgate runtime failed", e);
    }
    return api;
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    void vscode.window.showErrorMessage(`Toolgate failed to start: ${detail}`);
    console.error("Toolgate activation failed", e);
    return undefined;
  }
}

export function deactivate(): void {
  // Everything is registered in context.subscriptions and disposed by VS Code.
}
