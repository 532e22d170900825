import { str, type ToolHandler } from "../types";
import { decidedPath, readTextIfExists, saveEdit } from "./fileEdits";
import { applyBlocks, parseBlocks } from "./searchReplace";

export const replaceInFileHandler: ToolHandler = {
  name: "replace_in_file",
  async prepare(call, ctx) {
    const path = str(call.params, "path");
    const abs = decidedPath(call);
    let original: string | undefined;
    try {
      original = await readTextIfExists(ctx, abs);
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
    if (original === undefined)
      return { ok: false, error: `\`${path}\` does not exist; use write_to_file to create it.` };
    try {
      return {
        ok: true,
        edit: { path, abs, original, proposed: applyBlocks(original, parseBlocks(str(call.params, "diff"))) },
      };
    } catch (e) {
      return {
        ok: false,
        error: `The edit to \`${path}\` was not applied: ${(e as Error).message}. The file is unchanged.`,
      };
    }
  },
  execute: (call, ctx) => saveEdit(call, ctx, ctx.prepared),
};
