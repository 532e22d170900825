import { str, type ToolHandler } from "../types";
import { decidedPath, readTextIfExists, saveEdit } from "./fileEdits";

export const writeToFileHandler: ToolHandler = {
  name: "write_to_file",
  async prepare(call, ctx) {
    const path = str(call.params, "path");
    const abs = decidedPath(call);
    // The validator refuses a missing `content`; this is defence in depth, never a silent "".
    if (typeof call.params.content !== "string")
      return { ok: false, error: "`write_to_file` is missing its required parameter `content`; nothing was written." };
    try {
      return {
        ok: true,
        edit: { path, abs, original: await readTextIfExists(ctx, abs), proposed: call.params.content },
      };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  },
  execute: (call, ctx) => saveEdit(call, ctx, ctx.prepared),
};
