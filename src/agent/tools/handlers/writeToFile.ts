import { str, type ToolHandler } from "../types";
import { readTextIfExists, saveEdit } from "./fileEdits";

export const writeToFileHandler: ToolHandler = {
  name: "write_to_file",
  async prepare(params, ctx) {
    const path = str(params, "path");
    const abs = ctx.resolve(path);
    try {
      return {
        ok: true,
        edit: { path, abs, original: await readTextIfExists(ctx, abs), proposed: str(params, "content") },
      };
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  },
  execute: (_params, ctx) => saveEdit(ctx, ctx.prepared),
};
