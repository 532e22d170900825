/**
 * The pure-JS search_files backend for when ripgrep is not available: walks the tree through AgentFs
 * (skipping .git and node_modules), filters names with the glob, and runs the regex line by line on text
 * files. Ignore-file filtering happens in the handler, for every backend alike. Links are never followed (a
 * `link` entry is neither walked nor read), and files are read without following a final link, so a search
 * never leaves the directory the gate decided on.
 */
import * as nodePath from "node:path";
import { minimatch } from "minimatch";
import type { AgentFs, SearchMatch, SearchOptions, Searcher } from "../env";
import { isBinary, SKIPPED_DIRS } from "../tools/workspaceFiles";

const MAX_FILE_BYTES = 2 * 1024 * 1024;

export class JsSearcher implements Searcher {
  constructor(
    private readonly fs: AgentFs,
    /** Directories skipped by name besides .git and node_modules (the handler filters the ignore file). */
    private readonly skip: (absDir: string) => boolean = () => false,
  ) {}

  async search(o: SearchOptions): Promise<SearchMatch[]> {
    const re = new RegExp(o.regex, "u");
    const out: SearchMatch[] = [];
    const st = await this.fs.statResolved(o.dir).catch(() => undefined);
    const queue = st === "directory" ? [o.dir] : [];
    const files = st === "file" ? [o.dir] : [];
    const decoder = new TextDecoder();
    const scan = async (file: string): Promise<void> => {
      const s = await this.fs.stat(file);
      if (!s || s.size > MAX_FILE_BYTES) return;
      let bytes: Uint8Array;
      try {
        bytes = await this.fs.readResolved(file);
      } catch {
        return; // it became a link or vanished since it was listed
      }
      if (isBinary(bytes)) return;
      const lines = decoder.decode(bytes).split(/\r?\n/);
      for (let i = 0; i < lines.length && out.length < o.maxResults; i++) {
        if (re.test(lines[i]!)) out.push({ path: file, line: i + 1, text: lines[i]! });
      }
    };
    for (const f of files) await scan(f);
    while (queue.length > 0 && out.length < o.maxResults) {
      if (o.signal.aborted) throw new Error("cancelled");
      const dir = queue.shift()!;
      const entries = (await this.fs.readDir(dir)).sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        if (out.length >= o.maxResults) break;
        const abs = nodePath.join(dir, e.name);
        if (e.type === "directory") {
          if (!SKIPPED_DIRS.has(e.name) && !this.skip(abs)) queue.push(abs);
        } else if (e.type === "file") {
          if (
            o.filePattern &&
            !minimatch(e.name, o.filePattern, { dot: true }) &&
            !minimatch(nodePath.relative(o.dir, abs).split(nodePath.sep).join("/"), o.filePattern, { dot: true })
          )
            continue;
          await scan(abs);
        }
      }
    }
    return out;
  }
}
