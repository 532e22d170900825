import * as nodePath from "node:path";
import { boolParam } from "../../../core/validator";
import { errorResult, str, type ToolHandler } from "../types";
import { decidedPath } from "./fileEdits";
import { IgnoreFilter, SKIPPED_DIRS, relativeForDisplay } from "../workspaceFiles";

/**
 * Breadth-first, so a capped listing shows the top of the tree rather than one deep corner. It starts at the
 * decided realpath and never walks through a link: links are listed as links (`name@`), so a listing cannot
 * leave the workspace through one.
 */
export const listFilesHandler: ToolHandler = {
  name: "list_files",
  async execute(call, ctx) {
    const path = str(call.params, "path");
    const abs = decidedPath(call);
    const recursive = boolParam(call.params.recursive) === true;
    const st = await ctx.env.fs.statResolved(abs).catch(() => undefined);
    if (!st) return errorResult(`\`${path}\` does not exist.`);
    if (st !== "directory") return errorResult(`\`${path}\` is not a directory.`);
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
        const suffix = isDir ? "/" : e.type === "link" ? "@" : "";
        out.push(relativeForDisplay(ctx.config.roots, child) + suffix);
        if (isDir && recursive) queue.push(child);
      }
    }
    const notes: string[] = [];
    if (truncated) notes.push(`[Listing stopped at ${cap} entries; list a subdirectory for more.]`);
    if (hiddenByIgnore > 0) notes.push(`[${hiddenByIgnore} entries excluded by ${ctx.ignore.fileName}.]`);
    if (out.some((l) => l.endsWith("@")))
      notes.push("[Entries ending in @ are symbolic links; they are not followed.]");
    const body = out.length > 0 ? out.join("\n") : "(empty directory)";
    return { content: [body, ...notes].join("\n"), display: `${out.length} entries` };
  },
};
