import { errorResult, str, type ToolHandler } from "../types";
import { isBinary } from "../workspaceFiles";

export const readFileHandler: ToolHandler = {
  name: "read_file",
  async execute(params, ctx) {
    const path = str(params, "path");
    const abs = ctx.resolve(path);
    const st = await ctx.env.fs.stat(abs);
    if (!st) return errorResult(`\`${path}\` does not exist. Use list_files to see what is there.`);
    if (st.type === "directory") return errorResult(`\`${path}\` is a directory; use list_files to see its contents.`);
    const bytes = await ctx.env.fs.readFile(abs);
    if (isBinary(bytes))
      return errorResult(`\`${path}\` is a binary file (${bytes.length} bytes); it cannot be read as text.`);
    const cap = ctx.limits.maxReadBytes;
    const text = new TextDecoder().decode(bytes.length > cap ? bytes.subarray(0, cap) : bytes);
    const note =
      bytes.length > cap ? `\n\n[The file is ${bytes.length} bytes; only the first ${cap} bytes are shown.]` : "";
    return { content: text + note, display: `${text.split("\n").length} lines` };
  },
};
