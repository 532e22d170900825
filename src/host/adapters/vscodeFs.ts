/**
 * AgentFs over `vscode.workspace.fs`, so remote workspaces (SSH, containers, WSL) work: an absolute path is
 * mapped into the URI space of the workspace folder that contains it (same scheme and authority).
 */
import * as vscode from "vscode";
import * as nodePath from "node:path";
import type { AgentFs, DirEntry, FileStat } from "../../agent/env";
import { readResolved, statResolved, writeResolved } from "../../agent/node/noFollowFs";

/** `SymbolicLink | Directory` is a link: nothing walks through it. */
function kind(t: vscode.FileType): "file" | "directory" | "link" | "other" {
  if (t & vscode.FileType.SymbolicLink) return "link";
  if (t & vscode.FileType.Directory) return "directory";
  if (t & vscode.FileType.File) return "file";
  return "other";
}

export class VscodeFs implements AgentFs {
  toUri(path: string): vscode.Uri {
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const root = f.uri.scheme === "file" ? f.uri.fsPath : f.uri.path;
      const rel = nodePath.relative(root, path);
      if (!rel.startsWith("..") && !nodePath.isAbsolute(rel))
        return f.uri.scheme === "file"
          ? vscode.Uri.file(path)
          : f.uri.with({ path: nodePath.posix.join(f.uri.path, rel.split(nodePath.sep).join("/")) });
    }
    const first = vscode.workspace.workspaceFolders?.[0]?.uri;
    return first && first.scheme !== "file"
      ? first.with({ path: path.split(nodePath.sep).join("/") })
      : vscode.Uri.file(path);
  }

  /** Only `file:` roots can be read and written without following a final link (Node's fs, O_NOFOLLOW). */
  private local(path: string): string {
    if (this.toUri(path).scheme !== "file")
      throw new Error(
        `\`${path}\` is not on a local (file:) folder, so it cannot be written without following links; it counts as external`,
      );
    return path;
  }

  statResolved(real: string): Promise<"file" | "directory" | "other" | undefined> {
    return statResolved(this.local(real));
  }

  readResolved(real: string): Promise<Uint8Array> {
    return readResolved(this.local(real));
  }

  writeResolved(real: string, data: Uint8Array): Promise<void> {
    return writeResolved(this.local(real), data);
  }

  async readFile(path: string): Promise<Uint8Array> {
    return vscode.workspace.fs.readFile(this.toUri(path));
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const uri = this.toUri(path);
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, ".."));
    await vscode.workspace.fs.writeFile(uri, data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await vscode.workspace.fs.stat(this.toUri(path));
      const k = kind(s.type);
      return { type: k === "link" ? "other" : k, size: s.size, mtimeMs: s.mtime };
    } catch (e) {
      if (e instanceof vscode.FileSystemError && (e.code === "FileNotFound" || e.code === "EntryNotFound"))
        return undefined;
      throw e;
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await vscode.workspace.fs.readDirectory(this.toUri(path));
    return entries.map(([name, t]) => ({ name, type: kind(t) }));
  }
}
