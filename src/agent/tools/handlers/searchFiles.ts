import { errorResult, str, type ToolHandler } from "../types";
import { IgnoreFilter, relativeForDisplay } from "../workspaceFiles";
import { decidedPath } from "./fileEdits";

/**
 * Results from any backend are filtered through the ignore file (the gate's own snapshot), so ripgrep's own
 * ignore logic never decides; no backend follows links, so results stay below the decided directory.
 */
export const searchFilesHandler: ToolHandler = {
  name: "search_files",
  async execute(call, ctx) {
    const params = call.params;
    const path = str(params, "path");
    const regex = str(params, "regex");
    const filePattern = str(params, "file_pattern") || undefined;
    try {
      new RegExp(regex, "u");
    } catch (e) {
      return errorResult(`\`${regex}\` is not a valid regular expression: ${(e as Error).message}`);
    }
    // The decided realpath: the search starts where the gate looked, and its backends follow no links.
    const dir = decidedPath(call);
    const st = await ctx.env.fs.statResolved(dir).catch(() => undefined);
    if (!st) return errorResult(`\`${path}\` does not exist.`);
    const max = ctx.limits.maxSearchResults;
    const matches = await ctx.env.searcher.search({
      dir,
      regex,
      ...(filePattern ? { filePattern } : {}),
      maxResults: max + 1,
      signal: ctx.signal,
    });
    const filter = new IgnoreFilter(ctx.config.roots, ctx.ignore);
    const kept = matches.filter((m) => !filter.ignored(m.path));
    const shown = kept.slice(0, max);
    if (shown.length === 0) return { content: `No matches for \`${regex}\` in \`${path}\`.`, display: "no matches" };
    const lines: string[] = [];
    let lastFile = "";
    for (const m of shown) {
      const rel = relativeForDisplay(ctx.config.roots, m.path);
      if (rel !== lastFile) {
        lines.push(`${lines.length > 0 ? "\n" : ""}${rel}`);
        lastFile = rel;
      }
      lines.push(`${m.line}: ${m.text.length > 300 ? m.text.slice(0, 300) + "…" : m.text}`);
    }
    if (kept.length > max) lines.push(`\n[Showing the first ${max} matches; narrow the search for more.]`);
    return { content: lines.join("\n"), display: `${shown.length} matches` };
  },
};
