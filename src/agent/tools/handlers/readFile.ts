import { errorResult, str, type ToolHandler, type ToolResult } from "../types";
import { isBinary } from "../workspaceFiles";
import { isToolResult, onDecidedPath } from "./fileEdits";

export const readFileHandler: ToolHandler = {
  name: "read_file",
  async execute(call, ctx) {
    const path = str(call.params, "path");
    const got = await onDecidedPath(call, ctx, async (real): Promise<Uint8Array | ToolResult> => {
      const st = await ctx.env.fs.statResolved(real);
      if (!st) return errorResult(`\`${path}\` does not exist. Use list_files to see what is there.`);
      if (st === "directory") return errorResult(`\`${path}\` is a directory; use list_files to see its contents.`);
      return ctx.env.fs.readResolved(real);
    });
    if (isToolResult(got)) return got;
    const bytes = got;
    if (isBinary(bytes))
      return errorResult(`\`${path}\` is a binary file (${bytes.length} bytes); it cannot be read as text.`);
    const cap = ctx.limits.maxReadBytes;
    const text = new TextDecoder().decode(bytes.length > cap ? bytes.subarray(0, cap) : bytes);
    const note =
      bytes.length > cap ? `\n\n[The file is ${bytes.length} bytes; only the first ${cap} bytes are shown.]` : "";
    return { content: text + note, display: `${text.split("\n").length} lines` };
  },
};
