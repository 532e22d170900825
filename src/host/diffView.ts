/**
 * The fallback "Open diff" for file-edit rows when the runtime offers no diff reviewer: the file on disk against
 * the proposed full content of a `write_to_file`; for `replace_in_file` (whose result only the agent can
 * compute) it opens the file. The runtime replaces it through the host API.
 */
import * as vscode from "vscode";
import type { TaskMessage } from "../shared/messages";

export const PROPOSED_SCHEME = "toolgate-proposed";

export class ProposedContent implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.path) ?? "";
  }

  set(path: string, content: string): void {
    this.contents.set(path, content);
  }
}

function resolvePath(path: string): vscode.Uri | undefined {
  if (path.startsWith("/")) return vscode.Uri.file(path);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root ? vscode.Uri.joinPath(root, path) : undefined;
}

export async function openDefaultDiff(message: TaskMessage, proposed: ProposedContent): Promise<void> {
  const tool = message.tool;
  const path = tool?.params.path;
  if (!tool || !path) return;
  const file = resolvePath(path);
  if (!file) return;
  if (tool.name === "write_to_file" && tool.params.content !== undefined) {
    const virtualPath = `/${message.id}/${path.replace(/^\/+/, "")}`;
    proposed.set(virtualPath, tool.params.content);
    const right = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: virtualPath });
    let left = file;
    try {
      await vscode.workspace.fs.stat(file);
    } catch {
      left = vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${message.id}/empty` }); // new file: diff against nothing
    }
    await vscode.commands.executeCommand("vscode.diff", left, right, `${path} (proposed by Toolgate)`);
    return;
  }
  await vscode.window.showTextDocument(file, { preview: true });
}
