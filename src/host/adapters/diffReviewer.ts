/**
 * DiffReviewer in VS Code's editors. An existing file: the diff editor, the original on the left (read-only in
 * effect), the proposal on the right in an editable in-memory document. A new file has nothing to compare with
 * (a diff against an empty side reads as a deletion): its proposal opens alone, editable, named "new file: NAME".
 * Either way the documents sit at the file's workspace-relative path (the review's number rides in the query),
 * so neither tab nor breadcrumb shows an internal path. Streamed text is applied in batches (never an edit per
 * token). The result is whatever the proposal's document holds when the person approves; closing saves into
 * memory first, so no "save changes?" prompt appears.
 */
import * as vscode from "vscode";
import * as nodePath from "node:path";
import type { DiffReviewer, DiffSession } from "../../agent/env";

const SCHEME = "toolgate-diff";
const APPLY_EVERY_MS = 100;

/** The key of one in-memory document: its path and query (both sides of a diff share the path). */
function keyOf(uri: vscode.Uri): string {
  return `${uri.path}?${uri.query}`;
}

/** Minimal in-memory file system for the documents of each review. */
class MemoryFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Uint8Array>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(keyOf(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size: f.length };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(keyOf(uri));
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(keyOf(uri), content);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(keyOf(uri));
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions("rename");
  }
}

function diffTitle(path: string): string {
  return `${nodePath.basename(path)}: original ↔ proposed (Toolgate)`;
}

/** The name a new file's review goes by (its tab and last breadcrumb). */
export function newFileReviewName(path: string): string {
  return `new file: ${nodePath.basename(path)}`;
}

/**
 * Where a review's documents sit: the file's path as the person reads it (relative to the workspace when inside
 * it), the last part renamed for a new file; `query` tells the reviews and sides apart.
 */
export function reviewPath(readable: string, isNew: boolean): string {
  const rel = readable.replace(/\\/g, "/").replace(/^\/+/, "");
  if (!isNew) return `/${rel}`;
  const slash = rel.lastIndexOf("/");
  return `/${slash < 0 ? "" : `${rel.slice(0, slash)}/`}${newFileReviewName(rel)}`;
}

export class VscodeDiffReviewer implements DiffReviewer, vscode.Disposable {
  private readonly memory = new MemoryFs();
  private readonly registration: vscode.Disposable;
  private counter = 0;
  /** Reviews open now, by the file's absolute path (the newest one per path). */
  private readonly sessions = new Map<string, Session>();

  constructor() {
    this.registration = vscode.workspace.registerFileSystemProvider(SCHEME, this.memory, { isCaseSensitive: true });
  }

  async open(path: string, original: string | undefined): Promise<DiffSession> {
    const n = ++this.counter;
    const isNew = original === undefined;
    const readable = vscode.workspace.asRelativePath(path, false);
    const at = reviewPath(readable, isNew);
    const right = vscode.Uri.from({ scheme: SCHEME, path: at, query: `review=${n}&side=proposed` });
    this.memory.writeFile(right, new Uint8Array());
    if (isNew) {
      // Its own editor, in the language the real name implies (a name like "Makefile" has no extension to keep).
      const named = vscode.Uri.from({
        scheme: SCHEME,
        path: reviewPath(readable, false),
        query: `review=${n}&side=name`,
      });
      this.memory.writeFile(named, new Uint8Array());
      const language = (await vscode.workspace.openTextDocument(named)).languageId;
      this.memory.delete(named);
      let doc = await vscode.workspace.openTextDocument(right);
      if (doc.languageId !== language) doc = await vscode.languages.setTextDocumentLanguage(doc, language);
      await vscode.window.showTextDocument(doc, { preview: false });
      return this.track(path, new Session(doc, undefined, right, this.memory));
    }
    const left = vscode.Uri.from({ scheme: SCHEME, path: at, query: `review=${n}&side=original` });
    this.memory.writeFile(left, new TextEncoder().encode(original));
    await vscode.commands.executeCommand("vscode.diff", left, right, diffTitle(path), { preview: false });
    const doc = await vscode.workspace.openTextDocument(right);
    return this.track(path, new Session(doc, left, right, this.memory, diffTitle(path)));
  }

  /**
   * Shows the open review of `path` (absolute, or relative to a workspace folder) and says whether there was one.
   */
  async reveal(path: string): Promise<boolean> {
    const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
    const candidates = nodePath.isAbsolute(path) ? [path] : roots.map((r) => nodePath.resolve(r, path));
    for (const abs of candidates) {
      const session = this.sessions.get(abs);
      if (session) {
        await session.show();
        return true;
      }
    }
    return false;
  }

  private track(path: string, session: Session): Session {
    this.sessions.set(path, session);
    session.onClose(() => {
      if (this.sessions.get(path) === session) this.sessions.delete(path);
    });
    return session;
  }

  dispose(): void {
    this.registration.dispose();
  }
}

class Session implements DiffSession {
  private pending: string[] = [];
  private replaceWith: string | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private applying: Promise<void> = Promise.resolve();
  /** The text we put there; anything else in the document is the person's edit. */
  private ours = "";

  constructor(
    private readonly doc: vscode.TextDocument,
    /** The original's document; none for a new file. */
    private readonly left: vscode.Uri | undefined,
    private readonly right: vscode.Uri,
    private readonly memory: MemoryFs,
    /** The diff editor's title; none for a new file (its editor is named by its document). */
    private readonly title?: string,
  ) {}

  private closed: (() => void) | undefined;

  onClose(fn: () => void): void {
    this.closed = fn;
  }

  /** Brings the review's editor to the front (reopening it if the person closed its tab). */
  async show(): Promise<void> {
    if (this.left && this.title !== undefined)
      await vscode.commands.executeCommand("vscode.diff", this.left, this.right, this.title, { preview: false });
    else await vscode.window.showTextDocument(this.doc, { preview: false });
  }

  append(text: string): void {
    this.pending.push(text);
    this.schedule();
  }

  setContent(text: string): void {
    this.pending = [];
    this.replaceWith = text;
    this.schedule();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.applying = this.applying.then(() => this.apply());
    }, APPLY_EVERY_MS);
  }

  private async apply(): Promise<void> {
    const edit = new vscode.WorkspaceEdit();
    if (this.replaceWith !== undefined) {
      const full = new vscode.Range(this.doc.positionAt(0), this.doc.positionAt(this.doc.getText().length));
      edit.replace(this.right, full, this.replaceWith);
      this.ours = this.replaceWith;
      this.replaceWith = undefined;
    }
    if (this.pending.length > 0) {
      const text = this.pending.join("");
      this.pending = [];
      edit.insert(this.right, this.doc.positionAt(this.doc.getText().length), text);
      this.ours += text;
    }
    await vscode.workspace.applyEdit(edit);
  }

  async result(): Promise<{ content: string; edited: boolean }> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.applying = this.applying.then(() => this.apply());
    }
    await this.applying;
    const content = this.doc.getText();
    return { content, edited: content !== this.ours };
  }

  async close(): Promise<void> {
    if (this.doc.isDirty) await this.doc.save();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        const shown =
          input instanceof vscode.TabInputTextDiff
            ? input.modified
            : input instanceof vscode.TabInputText
              ? input.uri
              : undefined;
        if (shown?.toString() === this.right.toString()) await vscode.window.tabGroups.close(tab);
      }
    }
    this.closed?.();
    if (this.left) this.memory.delete(this.left);
    this.memory.delete(this.right);
  }
}
