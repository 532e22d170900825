/**
 * The fallback "Open diff" for file-edit rows when the runtime offers no diff reviewer: the file on disk against
 * the proposed full content of a `write_to_file`; for `replace_in_file` (whose result only the agent can
 * compute) it opens the file. The runtime replaces it through the host API.
 *
 * A new file has nothing on disk to compare with: it opens alone as a read-only document named "new file: NAME"
 * under the file's own folders (the message id rides in the query), so neither the tab nor the breadcrumb shows
 * an internal path, and no empty side or removed line makes it read as a deletion.
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

/** The name a new file's view goes by (its tab and last breadcrumb): "new file: NAME". */
export function newFileTitle(path: string): string {
  return `new file: ${path.split("/").pop() ?? path}`;
}

/** The read-only documents of proposed content for message `messageId` at `path`, the message id in the query. */
export function proposedUris(
  messageId: number,
  path: string,
): { readonly asNamed: vscode.Uri; readonly newFile: vscode.Uri } {
  const rel = path.replace(/^\/+/, "");
  const slash = rel.lastIndexOf("/");
  const dir = slash < 0 ? "" : `/${rel.slice(0, slash)}`;
  return {
    asNamed: vscode.Uri.from({ scheme: PROPOSED_SCHEME, path: `/${rel}`, query: `message=${messageId}` }),
    newFile: vscode.Uri.from({
      scheme: PROPOSED_SCHEME,
      path: `${dir}/${newFileTitle(rel)}`,
      query: `message=${messageId}`,
    }),
  };
}

/**
 * A new file has nothing to compare with, and a diff against an empty document shows a removed empty line: it
 * opens alone, read-only, named "new file: NAME" under its own folders, in the language its real name implies.
 */
export async function openNewFileView(
  messageId: number,
  path: string,
  content: string,
  proposed: ProposedContent,
): Promise<void> {
  const uris = proposedUris(messageId, path);
  proposed.set(uris.asNamed.path, "", uris.asNamed.query);
  proposed.set(uris.newFile.path, content, uris.newFile.query);
  const language = (await vscode.workspace.openTextDocument(uris.asNamed)).languageId;
  let doc = await vscode.workspace.openTextDocument(uris.newFile);
  if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
  await vscode.window.showTextDocument(doc, { preview: true });
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
    const right = proposedUris(message.id, path).asNamed;
    proposed.set(right.path, content, right.query);
    await vscode.commands.executeCommand("vscode.diff", file, right, `${path} (proposed by Toolgate)`);
    return;
  }
  await vscode.window.showTextDocument(file, { preview: true });
}

export const CHECKPOINT_SCHEME = "toolgate-checkpoint";

/** A workspace path as the person reads it: with the folder's name only in a multi-root workspace. */
export function relPath(abs: string): string {
  return vscode.workspace.asRelativePath(abs, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** One file of a checkpoint diff: each side is the file on disk, given bytes, or absent (an empty side). */
export interface CheckpointFileDiff {
  readonly abs: string;
  readonly left: "disk" | Uint8Array | undefined;
  readonly right: "disk" | Uint8Array | undefined;
}

/** Past this many remembered sides the oldest diffs' virtual sides are dropped (their tabs then show empty). */
const MAX_SIDES = 400;

/**
 * The diffs of checkpoints (what a restore undoes, all changes of a task): one file in VS Code's diff
 * editor, several in the multi-file diff editor (`vscode.changes`), or — where that command is missing — a
 * quick pick of the files, each opening its own diff. Virtual sides are read-only documents of this scheme,
 * named after the file so the editor picks its language.
 */
export class CheckpointDiffs implements vscode.TextDocumentContentProvider {
  private readonly contents = new Map<string, string>();
  private seq = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(`${uri.path}?${uri.query}`) ?? "";
  }

  /**
   * Both virtual sides of a file share its path (the query tells them apart), so the editors name the file
   * and the multi-file diff does not read the pair as a rename.
   */
  private side(f: CheckpointFileDiff, which: "left" | "right"): vscode.Uri {
    const side = f[which];
    if (side === "disk") return vscode.Uri.file(f.abs);
    const path = `/${relPath(f.abs).replace(/^\/+/, "")}`;
    const query = `${this.seq}-${which}`;
    while (this.contents.size >= MAX_SIDES) this.contents.delete(this.contents.keys().next().value!);
    this.contents.set(`${path}?${query}`, side ? new TextDecoder().decode(side) : "");
    return vscode.Uri.from({ scheme: CHECKPOINT_SCHEME, path, query });
  }

  /** `title` says what the two sides are ("now ↔ before step 3"). */
  async open(title: string, files: readonly CheckpointFileDiff[]): Promise<void> {
    this.seq++;
    const pairs = files.map((f) => ({ f, left: this.side(f, "left"), right: this.side(f, "right") }));
    const one = async (p: (typeof pairs)[number]) =>
      vscode.commands.executeCommand("vscode.diff", p.left, p.right, `${relPath(p.f.abs)} (${title})`, {
        preview: false,
      });
    if (pairs.length === 1) return void (await one(pairs[0]!));
    try {
      // An absent side is left out, so the multi-file diff marks the file added or deleted.
      await vscode.commands.executeCommand(
        "vscode.changes",
        title,
        pairs.map((p) => [
          vscode.Uri.file(p.f.abs),
          p.f.left === undefined ? undefined : p.left,
          p.f.right === undefined ? undefined : p.right,
        ]),
      );
    } catch {
      const picked = await vscode.window.showQuickPick(
        pairs.map((p) => ({ label: relPath(p.f.abs), pair: p })),
        { title, placeHolder: vscode.l10n.t("Choose a file to see its diff") },
      );
      if (picked) await one(picked.pair);
    }
  }
}
