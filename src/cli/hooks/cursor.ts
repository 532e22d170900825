/**
 * Cursor's agent hooks (`toolgate hook cursor`), built from Cursor's documentation — UNVERIFIED: Cursor cannot
 * be installed on this machine, so no input was captured from the real agent.
 *
 * `.cursor/hooks.json` (project) or `~/.cursor/hooks.json`: `{"version": 1, "hooks": {"beforeShellExecution":
 * [{"command": …}], "beforeReadFile": […], "beforeMCPExecution": […], "preToolUse": […]}}`. Every input carries
 * `hook_event_name`, `conversation_id`, `generation_id`, `workspace_roots`; then per event
 * `beforeShellExecution {command, cwd}`, `beforeReadFile {file_path, content, attachments}`,
 * `beforeMCPExecution {tool_name, tool_input, url | command}` and `preToolUse {tool_name, tool_input}`.
 * The answer is `{permission: "allow" | "deny" | "ask", user_message, agent_message}` (`beforeReadFile`: the
 * permission alone counts).
 *
 * Cursor ignores `ask` in its auto-review mode, so only the asks of DESIGN's steps 5–6 (rules `autoApprove.*`,
 * a switch the person left off, and `commands:not-allowed`) are asked; every hard ask of step 3 — and anything Toolgate has
 * no rule for — is a deny, so that no mode of Cursor's can run it unasked.
 */
import * as nodePath from "node:path";
import type { AgentAdapter, AgentCall, HookAnswer, Mapped, MappedCall, Rendered } from "./adapter";
import { agentCommand, patchCalls } from "./agentCalls";
import { isRecord, parseObject, type Parsed } from "./envelope";

const EVENTS = ["beforeShellExecution", "beforeReadFile", "beforeMCPExecution", "preToolUse"];

/**
 * The envelope. The event becomes the tool name (`preToolUse` carries Cursor's own tool name as
 * `preToolUse:<tool>`), and the event's fields the tool input; only the fields a decision hangs on are kept.
 */
export function parseCursorInput(text: string): Parsed {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  const event = v.hook_event_name;
  if (typeof event !== "string" || !EVENTS.includes(event))
    return { ok: false, reason: `this hook answers ${EVENTS.join(", ")}, not ${JSON.stringify(event)}` };
  const roots = v.workspace_roots;
  if (roots !== undefined && (!Array.isArray(roots) || !roots.every((r) => typeof r === "string")))
    return { ok: false, reason: "the hook input's `workspace_roots` must be a list of paths" };
  const workspaces = ((roots as string[] | undefined) ?? []).filter((r) => r !== "");
  const relative = workspaces.find((r) => !nodePath.isAbsolute(r));
  if (relative !== undefined) return { ok: false, reason: `the workspace root ${relative} is not an absolute path` };
  const root = workspaces[0] ?? "";
  const cwd = typeof v.cwd === "string" && nodePath.isAbsolute(v.cwd) ? v.cwd : root;
  if (v.cwd !== undefined && v.cwd !== "" && cwd !== v.cwd)
    return { ok: false, reason: "the hook input's `cwd` must be an absolute path" };
  let toolName = event;
  let toolInput: Record<string, unknown>;
  if (event === "beforeShellExecution") toolInput = { command: v.command };
  else if (event === "beforeReadFile") toolInput = { file_path: v.file_path };
  else {
    if (typeof v.tool_name !== "string" || v.tool_name === "")
      return { ok: false, reason: `\`${event}\` input has no \`tool_name\`` };
    let input: unknown = v.tool_input;
    if (typeof input === "string") {
      try {
        input = JSON.parse(input);
      } catch {
        return { ok: false, reason: "the hook input's `tool_input` is not JSON" };
      }
    }
    if (input !== undefined && !isRecord(input))
      return { ok: false, reason: "the hook input's `tool_input` must be an object" };
    if (event === "preToolUse") toolName = `preToolUse:${v.tool_name}`;
    toolInput =
      event === "beforeMCPExecution"
        ? { tool_name: v.tool_name, arguments: input ?? {}, server: v.url ?? v.command }
        : { ...(input ?? {}) };
  }
  const session =
    typeof v.conversation_id === "string" && v.conversation_id !== "" ? { sessionId: v.conversation_id } : {};
  return { ok: true, call: { workspaces, cwd: cwd || root, toolName, toolInput, ...session } };
}

/** The one path a file tool names, whichever of Cursor's spellings it uses; two different ones are malformed. */
function onePath(p: Readonly<Record<string, unknown>>): string | undefined | { readonly both: true } {
  const found = ["file_path", "path", "target_file"]
    .map((k) => p[k])
    .filter((x): x is string => typeof x === "string" && x !== "");
  if (found.length === 0) return undefined;
  return found.every((f) => f === found[0]) ? found[0] : { both: true };
}

/** Cursor's call as Toolgate's. */
export function mapCursorTool(input: AgentCall): Mapped {
  const p = input.toolInput;
  const calls = (c: MappedCall[]): Mapped => ({ kind: "calls", calls: c });
  const file = (tool: "read_file" | "write_to_file"): Mapped => {
    const path = onePath(p);
    if (path === undefined) return { kind: "malformed", reason: `\`${input.toolName}\` names no file` };
    if (typeof path !== "string")
      return { kind: "malformed", reason: `\`${input.toolName}\` names two different files` };
    const abs = nodePath.resolve(input.cwd, path);
    return calls([{ call: { tool, params: tool === "read_file" ? { path: abs } : { path: abs, content: "" } } }]);
  };
  const shell = (): Mapped => {
    const cmd = typeof p.command === "string" && p.command.trim() !== "" ? p.command : undefined;
    if (cmd === undefined) return { kind: "malformed", reason: `\`${input.toolName}\` needs a \`command\`` };
    const dir = typeof p.cwd === "string" && nodePath.isAbsolute(p.cwd) ? p.cwd : input.cwd;
    return calls([agentCommand(dir, cmd)]);
  };
  switch (input.toolName) {
    case "beforeShellExecution":
    case "preToolUse:Shell":
      return shell();
    case "beforeReadFile":
    case "preToolUse:Read":
      return file("read_file");
    case "preToolUse:Write":
    case "preToolUse:Edit":
    case "preToolUse:StrReplace":
      return file("write_to_file");
    case "preToolUse:Delete": {
      const m = file("write_to_file");
      if (m.kind !== "calls") return m;
      return calls(m.calls.map((c) => ({ ...c, hardAsk: "the agent deletes this file" })));
    }
    case "preToolUse:ApplyPatch": {
      const patch = typeof p.patch === "string" ? p.patch : typeof p.input === "string" ? p.input : undefined;
      if (patch === undefined) return { kind: "malformed", reason: "`ApplyPatch` needs the patch text" };
      const c = patchCalls(input.cwd, patch);
      return typeof c === "string" ? { kind: "malformed", reason: c } : calls(c);
    }
    case "beforeMCPExecution":
      // The input names the server by its URL or command, not by the name Toolgate's rules use.
      return {
        kind: "ask",
        reason: "Cursor does not say which configured MCP server this tool belongs to, so a person must decide",
      };
    default:
      return {
        kind: "ask",
        reason: `Toolgate has no rule for Cursor's \`${input.toolName}\`, so a person must decide`,
      };
  }
}

/** Only a fine-grained ask (a switch the person left off) is asked; every hard ask is a deny. */
export function cursorHonoursAsk(answer: HookAnswer): boolean {
  const rule = answer.rule;
  // Only the rules of DESIGN's steps 5–6 are soft; a rule this list does not name counts as hard (deny).
  return rule !== undefined && (rule.startsWith("autoApprove.") || SOFT_RULES.includes(rule));
}

/** The soft asks that are not an `autoApprove.*` switch: a command not on the allow list. */
const SOFT_RULES: readonly string[] = ["commands:not-allowed"];

export function renderCursor(answer: HookAnswer): Rendered {
  const out =
    answer.decision === "allow"
      ? { permission: "allow" }
      : { permission: answer.decision, user_message: answer.reason, agent_message: answer.reason };
  return { stdout: JSON.stringify(out) + "\n", exitCode: 0 };
}

const USAGE = `usage: toolgate hook cursor [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Cursor's beforeShellExecution / beforeReadFile / beforeMCPExecution / preToolUse hook (from Cursor's
  documentation, not verified against Cursor): answers {"permission": "allow"|"deny"|"ask", ...}.
  Cursor ignores "ask" in auto-review mode, so hard asks are denies. The workspace is workspace_roots.
  In .cursor/hooks.json:
    {"version": 1, "hooks": {"beforeShellExecution": [{"command": "toolgate hook cursor"}],
      "beforeReadFile": [{"command": "toolgate hook cursor"}], "beforeMCPExecution": [{"command": "toolgate hook cursor"}]}}`;

export const cursorAdapter: AgentAdapter = {
  name: "cursor",
  displayName: "Cursor",
  usage: USAGE,
  parse: (text) => parseCursorInput(text),
  map: (call) => mapCursorTool(call),
  honoursAsk: (_call, _flags, answer) => cursorHonoursAsk(answer),
  source: (call) => (call.toolName === "beforeMCPExecution" ? `MCP ${String(call.toolInput.tool_name)}` : undefined),
  render: renderCursor,
};
