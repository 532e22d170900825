/**
 * Saving an approved edit: the diff the person may have edited wins over the model's proposal, and the model
 * is told when that happened (with the saved content, so its next edit starts from the truth).
 */
import { errorResult, type PreparedEdit, type ToolContext, type ToolResult } from "../types";

export async function readTextIfExists(ctx: ToolContext, abs: string): Promise<string | undefined> {
  const st = await ctx.env.fs.stat(abs);
  if (!st) return undefined;
  if (st.type !== "file") throw new Error(`\`${abs}\` exists and is not a file`);
  return new TextDecoder().decode(await ctx.env.fs.readFile(abs));
}

export async function saveEdit(ctx: ToolContext, edit: PreparedEdit | undefined): Promise<ToolResult> {
  if (!edit)
    return errorResult("internal error: the edit was not prepared before it was approved; nothing was written");
  const { path, abs, proposed } = edit;
  let content = proposed;
  let edited = false;
  if (ctx.diffSession) {
    const r = await ctx.diffSession.result();
    content = r.content;
    edited = r.edited && r.content !== proposed;
  }
  await ctx.env.fs.writeFile(abs, new TextEncoder().encode(content));
  const verb = edit.original !== undefined ? "saved" : "created";
  if (edited) {
    return {
      content: `The person edited your changes before they were ${verb}. \`${path}\` now contains exactly:\n<final_file_content path="${path}">\n${content}\n</final_file_content>\nBase further edits on this content.`,
      display: `${verb} with the person's edits`,
    };
  }
  return { content: `\`${path}\` was ${verb} (${content.length} characters).`, display: verb };
}
