/**
 * search_files through ripgrep (`rg --json`), e.g. the binary VS Code ships. Hidden files are searched,
 * .git and node_modules skipped; .gitignore is not consulted so results match the JS fallback (the
 * handler applies the Toolgate ignore file to both).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import * as nodePath from "node:path";
import type { SearchMatch, SearchOptions, Searcher } from "../env";

interface RgJson {
  type: string;
  data?: { path?: { text?: string }; line_number?: number; lines?: { text?: string } };
}

export class RipgrepSearcher implements Searcher {
  constructor(private readonly rgPath: string) {}

  search(o: SearchOptions): Promise<SearchMatch[]> {
    const args = [
      "--json",
      "--no-config",
      "--no-ignore",
      "--hidden",
      "--glob",
      "!.git",
      "--glob",
      "!node_modules",
      "--max-filesize",
      "2M",
      "-e",
      o.regex,
    ];
    if (o.filePattern) args.push("--glob", o.filePattern);
    args.push("--", o.dir);
    return new Promise((resolve, reject) => {
      const child = spawn(this.rgPath, args, { stdio: ["ignore", "pipe", "pipe"], signal: o.signal });
      const out: SearchMatch[] = [];
      let buf = "";
      let stderr = "";
      const onLine = (line: string): void => {
        if (out.length >= o.maxResults || line === "") return;
        let j: RgJson;
        try {
          j = JSON.parse(line) as RgJson;
        } catch {
          return;
        }
        if (j.type !== "match" || !j.data?.path?.text) return;
        const p = j.data.path.text;
        out.push({
          path: nodePath.isAbsolute(p) ? p : nodePath.resolve(o.dir, p),
          line: j.data.line_number ?? 0,
          text: (j.data.lines?.text ?? "").replace(/\r?\n$/, ""),
        });
        if (out.length >= o.maxResults) child.kill();
      };
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        buf += d;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          onLine(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      });
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      child.on("error", (e) =>
        o.signal.aborted ? reject(e) : reject(new Error(`ripgrep failed to start: ${e.message}`)),
      );
      child.on("close", (code) => {
        onLine(buf);
        // 0 = matches, 1 = none, killed after enough results is fine too.
        if (code === 0 || code === 1 || out.length >= o.maxResults) resolve(out);
        else if (code === 2 && out.length > 0) resolve(out);
        else reject(new Error(`ripgrep exited with ${code}: ${stderr.trim().slice(0, 300)}`));
      });
    });
  }
}

/** Where VS Code ships ripgrep under its app root (asar-unpacked in packaged builds). */
export function findVscodeRipgrep(appRoot: string): string | undefined {
  const bin = process.platform === "win32" ? "rg.exe" : "rg";
  for (const dir of ["node_modules", "node_modules.asar.unpacked"]) {
    const p = nodePath.join(appRoot, dir, "@vscode", "ripgrep", "bin", bin);
    if (existsSync(p)) return p;
  }
  return undefined;
}
