/**
 * The JSON envelope most agents' hooks share: an object with the event name, `tool_name`, `tool_input`, an
 * absolute `cwd`, and optionally `session_id` and `permission_mode`. Each adapter adds its own workspace and
 * extra fields; only these are carried over, so no other field can change a decision.
 */
import * as nodePath from "node:path";
import type { AgentCall } from "./adapter";

export type Parsed = { readonly ok: true; readonly call: AgentCall } | { readonly ok: false; readonly reason: string };

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The hook input as a JSON object, or the reason it is not one. */
export function parseObject(
  text: string,
): { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `the hook input is not JSON: ${(e as Error).message}` };
  }
  return isRecord(v) ? { ok: true, value: v } : { ok: false, reason: "the hook input must be a JSON object" };
}

/** What the shared envelope carries, checked; the workspace is the adapter's to add. */
export type Envelope = Omit<AgentCall, "workspaces">;

/** Checks the shared envelope of a hook input for `event`; `raw` is the whole object, for the adapter's own fields. */
export function parseEnvelope(
  text: string,
  event: string,
):
  | { readonly ok: true; readonly envelope: Envelope; readonly raw: Record<string, unknown> }
  | { readonly ok: false; readonly reason: string } {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (v.hook_event_name !== event)
    return { ok: false, reason: `this hook answers ${event} events, not ${JSON.stringify(v.hook_event_name)}` };
  if (typeof v.tool_name !== "string" || v.tool_name === "")
    return { ok: false, reason: "the hook input has no `tool_name`" };
  if (!isRecord(v.tool_input)) return { ok: false, reason: "the hook input's `tool_input` must be an object" };
  if (typeof v.cwd !== "string" || !nodePath.isAbsolute(v.cwd))
    return { ok: false, reason: "the hook input's `cwd` must be an absolute path" };
  const sessionId = typeof v.session_id === "string" && v.session_id !== "" ? { sessionId: v.session_id } : {};
  const mode = typeof v.permission_mode === "string" ? { mode: v.permission_mode } : {};
  return {
    ok: true,
    envelope: { cwd: v.cwd, toolName: v.tool_name, toolInput: v.tool_input, ...sessionId, ...mode },
    raw: v,
  };
}

/** An absolute project directory from the agent's variable, as the workspace list (empty: unknown). */
export function projectFrom(dir: string | undefined): readonly string[] {
  return typeof dir === "string" && nodePath.isAbsolute(dir) ? [nodePath.resolve(dir)] : [];
}
