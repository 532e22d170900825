/**
 * DiffReviewer in VS Code's diff editor: the original on the left (read-only), the proposal on the right in
 * an editable in-memory document. Streamed text is applied in batches (never an edit per token). The result
 * is whatever the right side holds when the person approves; closing saves into memory first, so no
 * "save changes?" prompt appears.
 */
import * as vscode from "vscode";
import * as nodePath from "node:path";
import type { DiffReviewer, DiffSession } from "../../agent/env";

const SCHEME = "toolgate-diff";
const APPLY_EVERY_MS = 100;

/** Minimal in-memory file system for the two sides of each diff. */
class MemoryFs implements vscode.FileSystemProvider {
  private readonly files = new Map<string, Uint8Array>();
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;
  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }
  stat(uri: vscode.Uri): vscode.FileStat {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size: f.length };
  }
  readDirectory(): [string, vscode.FileType][] {
    return [];
  }
  createDirectory(): void {}
  readFile(uri: vscode.Uri): Uint8Array {
    const f = this.files.get(uri.path);
    if (!f) throw vscode.FileSystemError.FileNotFound(uri);
    return f;
  }
  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    this.files.set(uri.path, content);
    this.emitter.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }
  delete(uri: vscode.Uri): void {
    this.files.delete(uri.path);
  }
  rename(): void {
    throw vscode.FileSystemError.NoPermissions("rename");
  }
}

export class VscodeDiffReviewer implements DiffReviewer, vscode.Disposable {
  private readonly memory = new MemoryFs();
  private readonly registration: vscode.Disposable;
  private counter = 0;

  constructor() {
    this.registration = vscode.workspace.registerFileSystemProvider(SCHEME, this.memory, { isCaseSensitive: true });
  }

  async open(path: string, original: string | undefined): Promise<DiffSession> {
    const n = ++this.counter;
    const base = nodePath.basename(path);
    const left = vscode.Uri.from({ scheme: SCHEME, path: `/${n}/original/${base}` });
    const right = vscode.Uri.from({ scheme: SCHEME, path: `/${n}/proposed/${base}` });
    this.memory.writeFile(left, new TextEncoder().encode(original ?? ""));
    this.memory.writeFile(right, new Uint8Array());
    await vscode.commands.executeCommand(
      "vscode.diff",
      left,
      right,
      `${base}: ${original === undefined ? "new file" : "original ↔ proposed"} (Toolgate)`,
      { preview: false },
    );
    const doc = await vscode.workspace.openTextDocument(right);
    return new Session(doc, left, right, this.memory);
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
    private readonly left: vscode.Uri,
    private readonly right: vscode.Uri,
    private readonly memory: MemoryFs,
  ) {}

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
        if (input instanceof vscode.TabInputTextDiff && input.modified.toString() === this.right.toString())
          await vscode.window.tabGroups.close(tab);
      }
    }
    this.memory.delete(this.left);
    this.memory.delete(this.right);
  }
}
