/**
 * The fallback "Open diff" for file-edit rows when the runtime offers no diff reviewer: the file on disk against
 * the proposed full content of a `write_to_file`; for `replace_in_file` (whose result only the agent can
 * compute) it opens the file. The runtime replaces it through the host API.
 *
 * A new file has nothing on disk to compare with: it opens as an addition titled "new file: PATH", both sides
 * read-only virtual documents named by the file's own path (the message id rides in the query), so neither the
 * tab nor the breadcrumb shows an internal path and nothing reads as a deletion.
 */
import * as vscode from "vscode";
import type { TaskMessage } from "../shared/messages";

export const PROPOSED_SCHEME = "toolgate-proposed";

/** Read-only documents of proposed content, keyed by path and query (the same path may be proposed twice). */
export class ProposedContent implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(contentKey(uri.path, uri.query)) ?? "";
  }

  set(path: string, content: string, query = ""): void {
    this.contents.set(contentKey(path, query), content);
  }
}

function contentKey(path: string, query: string): string {
  return query === "" ? path : `${path}?${query}`;
}

function resolvePath(path: string): vscode.Uri | undefined {
  if (path.startsWith("/")) return vscode.Uri.file(path);
  const root = vscode.workspace.workspaceFolders?.[0]?.uri;
  return root ? vscode.Uri.joinPath(root, path) : undefined;
}

async function exists(file: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(file);
    return true;
  } catch {
    return false;
  }
}

/** The title of a new file's view; also what the e2e suite looks for. */
export function newFileTitle(path: string): string {
  return `new file: ${path}`;
}

/** The virtual documents of a new file's view: an empty original and the proposal, both at the file's own path. */
export function newFileUris(
  messageId: number,
  path: string,
): { readonly empty: vscode.Uri; readonly proposed: vscode.Uri } {
  const shown = `/${path.replace(/^\/+/, "")}`;
  return {
    empty: vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: shown, query: `message=${messageId}&side=none` }),
    proposed: vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: shown, query: `message=${messageId}&side=new` }),
  };
}

export async function openNewFileView(
  messageId: number,
  path: string,
  content: string,
  proposed: ProposedContent,
): Promise<void> {
  const uris = newFileUris(messageId, path);
  proposed.set(uris.empty.path, "", uris.empty.query);
  proposed.set(uris.proposed.path, content, uris.proposed.query);
  await vscode.commands.executeCommand("vscode.diff", uris.empty, uris.proposed, newFileTitle(path), {
    preview: true,
  });
}

export async function openDefaultDiff(message: TaskMessage, proposed: ProposedContent): Promise<void> {
  const tool = message.tool;
  const path = tool?.params.path;
  if (!tool || !path) return;
  const file = resolvePath(path);
  if (!file) return;
  // The runtime sends a file's content as the message text, not in params (see toolBody in the webview).
  const content = tool.name === "write_to_file" ? (tool.params.content ?? message.text) : undefined;
  if (content !== undefined) {
    if (!(await exists(file))) return openNewFileView(message.id, path, content, proposed);
    const right = newFileUris(message.id, path).proposed.with({ query: `message=${message.id}&side=proposed` });
    proposed.set(right.path, content, right.query);
    await vscode.commands.executeCommand("vscode.diff", file, right, `${path} (proposed by Toolgate)`);
    return;
  }
  await vscode.window.showTextDocument(file, { preview: true });
}
