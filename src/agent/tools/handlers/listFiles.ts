import * as nodePath from "node:path";
import { boolParam } from "../../../core/validator";
import { errorResult, str, type ToolHandler } from "../types";
import { IgnoreFilter, SKIPPED_DIRS, relativeForDisplay } from "../workspaceFiles";

/** Breadth-first, so a capped listing shows the top of the tree rather than one deep corner. */
export const listFilesHandler: ToolHandler = {
  name: "list_files",
  async execute(params, ctx) {
    const path = str(params, "path");
    const abs = ctx.resolve(path);
    const recursive = boolParam(params.recursive) === true;
    const st = await ctx.env.fs.stat(abs);
    if (!st) return errorResult(`\`${path}\` does not exist.`);
    if (st.type !== "directory") return errorResult(`\`${path}\` is not a directory.`);
    const filter = new IgnoreFilter(ctx.config.roots, ctx.ignore);
    const cap = ctx.limits.maxListEntries;
    const out: string[] = [];
    let hiddenByIgnore = 0;
    const queue = [abs];
    let truncated = false;
    while (queue.length > 0 && !truncated) {
      if (ctx.signal.aborted) throw new Error("cancelled");
      const dir = queue.shift()!;
      const entries = (await ctx.env.fs.readDir(dir)).sort((a, b) => a.name.localeCompare(b.name));
      for (const e of entries) {
        const child = nodePath.join(dir, e.name);
        const isDir = e.type === "directory";
        if (isDir && SKIPPED_DIRS.has(e.name)) continue;
        if (filter.ignored(child, isDir)) {
          hiddenByIgnore++;
          continue;
        }
        if (out.length >= cap) {
          truncated = true;
          break;
        }
        out.push(relativeForDisplay(ctx.config.roots, child) + (isDir ? "/" : ""));
        if (isDir && recursive) queue.push(child);
      }
    }
    const notes: string[] = [];
    if (truncated) notes.push(`[Listing stopped at ${cap} entries; list a subdirectory for more.]`);
    if (hiddenByIgnore > 0) notes.push(`[${hiddenByIgnore} entries excluded by ${ctx.ignore.fileName}.]`);
    const body = out.length > 0 ? out.join("\n") : "(empty directory)";
    return { content: [body, ...notes].join("\n"), display: `${out.length} entries` };
  },
};
