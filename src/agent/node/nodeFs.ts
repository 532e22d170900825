/** AgentFs over node:fs, for the CLI and tests. */
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import * as nodePath from "node:path";
import type { AgentFs, DirEntry, FileStat } from "../env";
import { readResolved, statResolved, writeResolved } from "./noFollowFs";

export class NodeFs implements AgentFs {
  readonly statResolved = statResolved;
  readonly readResolved = readResolved;
  readonly writeResolved = writeResolved;

  async readFile(path: string): Promise<Uint8Array> {
    return readFile(path);
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await mkdir(nodePath.dirname(path), { recursive: true });
    await writeFile(path, data);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    try {
      const s = await stat(path);
      return { type: s.isFile() ? "file" : s.isDirectory() ? "directory" : "other", size: s.size, mtimeMs: s.mtimeMs };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR")
        return undefined;
      throw e;
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.map((e) => ({
      name: e.name,
      type: e.isSymbolicLink() ? "link" : e.isFile() ? "file" : e.isDirectory() ? "directory" : "other",
    }));
  }
}
