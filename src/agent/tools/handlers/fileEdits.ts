/**
 * File I/O on the decided path, and saving an approved edit: the diff the person may have edited wins over
 * the model's proposal, and the model is told when that happened (with the saved content, so its next edit
 * starts from the truth).
 */
import type { ResolvedCall } from "../../../core/resolvedCall";
import { PathChanged } from "../../node/noFollowFs";
import { errorResult, type PreparedEdit, type ToolContext, type ToolResult } from "../types";

/** The decided realpath of a file tool's path (the validator always resolves it). */
export function decidedPath(call: ResolvedCall): string {
  if (!call.path) throw new Error(`internal error: \`${call.tool}\` was decided without a path`);
  return call.path.real;
}

/**
 * Runs `use` on the decided realpath. If the path changed since the decision (a directory became a link, the
 * file became a link), the gate decides again on the params as they are now, and `use` runs once more on the
 * new decision's path; a second change gives up. Nothing ever follows a link the gate did not see.
 */
export async function onDecidedPath<T>(
  call: ResolvedCall,
  ctx: ToolContext,
  use: (real: string, call: ResolvedCall) => Promise<T>,
): Promise<T | ToolResult> {
  try {
    return await use(decidedPath(call), call);
  } catch (e) {
    if (!(e instanceof PathChanged)) throw e;
    const again = await ctx.decideAgain(call.params);
    if ("result" in again) return again.result;
    try {
      return await use(decidedPath(again.call), again.call);
    } catch (e2) {
      if (e2 instanceof PathChanged)
        return errorResult(`${e2.message}; it changed again while it was being decided, so nothing was done.`);
      throw e2;
    }
  }
}

export function isToolResult(v: unknown): v is ToolResult {
  return typeof v === "object" && v !== null && "content" in v;
}

export async function readTextIfExists(ctx: ToolContext, real: string): Promise<string | undefined> {
  const st = await ctx.env.fs.statResolved(real);
  if (!st) return undefined;
  if (st !== "file") throw new Error(`\`${real}\` exists and is not a file`);
  return new TextDecoder().decode(await ctx.env.fs.readResolved(real));
}

export async function saveEdit(
  call: ResolvedCall,
  ctx: ToolContext,
  edit: PreparedEdit | undefined,
): Promise<ToolResult> {
  if (!edit)
    return errorResult("internal error: the edit was not prepared before it was approved; nothing was written");
  const { path, proposed } = edit;
  let content = proposed;
  let edited = false;
  if (ctx.diffSession) {
    const r = await ctx.diffSession.result();
    content = r.content;
    edited = r.edited && r.content !== proposed;
  }
  const bytes = new TextEncoder().encode(content);
  const written = await onDecidedPath(call, ctx, (real) => ctx.env.fs.writeResolved(real, bytes));
  if (isToolResult(written)) return written;
  const verb = edit.original !== undefined ? "saved" : "created";
  if (edited) {
    return {
      content: `The person edited your changes before they were ${verb}. \`${path}\` now contains exactly:\n<final_file_content path="${path}">\n${content}\n</final_file_content>\nBase further edits on this content.`,
      display: `${verb} with the person's edits`,
    };
  }
  return { content: `\`${path}\` was ${verb} (${content.length} characters).`, display: verb };
}
