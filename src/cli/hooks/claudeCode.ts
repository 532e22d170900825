/**
 * Claude Code's PreToolUse hook protocol (`toolgate hook claude-code`), and its tools in Toolgate's vocabulary.
 *
 * Input (JSON on stdin): `session_id`, `transcript_path`, `cwd`, `hook_event_name: "PreToolUse"`,
 * `tool_name`, `tool_input` (and fields such as `permission_mode` that do not change the decision).
 * Output (JSON on stdout, exit 0): `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
 * "permissionDecision": "allow" | "deny" | "ask", "permissionDecisionReason": "..."}}`.
 *
 * Only the fields a tool's decision hangs on are carried over; every other field of the input is ignored, so
 * no extra field can change what the gate sees.
 */
import * as nodePath from "node:path";
import { urlHost } from "../../core/urls";
import type { AgentAdapter, AgentCall, HookAnswer, HookDecision, Mapped, Rendered } from "./adapter";
import { claudeCommandRewrite } from "./claudeRewrite";

export interface HookOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: "PreToolUse";
    readonly permissionDecision: HookDecision;
    readonly permissionDecisionReason: string;
    readonly updatedInput?: Readonly<Record<string, unknown>>;
  };
}

export function hookOutput(decision: HookDecision, reason: string): HookOutput {
  return {
    hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason },
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Checks the envelope; the reason says what is wrong (the hook then denies). */
export function parseHookInput(text: string): { ok: true; call: AgentCall } | { ok: false; reason: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `the hook input is not JSON: ${(e as Error).message}` };
  }
  if (!isRecord(v)) return { ok: false, reason: "the hook input must be a JSON object" };
  if (v.hook_event_name !== "PreToolUse")
    return { ok: false, reason: `this hook answers PreToolUse events, not ${JSON.stringify(v.hook_event_name)}` };
  if (typeof v.tool_name !== "string" || v.tool_name === "")
    return { ok: false, reason: "the hook input has no `tool_name`" };
  if (!isRecord(v.tool_input)) return { ok: false, reason: "the hook input's `tool_input` must be an object" };
  if (typeof v.cwd !== "string" || !nodePath.isAbsolute(v.cwd))
    return { ok: false, reason: "the hook input's `cwd` must be an absolute path" };
  const sessionId = typeof v.session_id === "string" && v.session_id !== "" ? { sessionId: v.session_id } : {};
  const mode = typeof v.permission_mode === "string" ? { mode: v.permission_mode } : {};
  return {
    ok: true,
    call: { workspaces: [v.cwd], cwd: v.cwd, toolName: v.tool_name, toolInput: v.tool_input, ...sessionId, ...mode },
  };
}

/** A SEARCH/REPLACE block as replace_in_file takes it (the gate decides on the path; the body must be present). */
function block(oldText: string, newText: string): string {
  return `------- SEARCH\n${oldText}\n=======\n${newText}\n+++++++ REPLACE`;
}

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * The directory a Glob can list: its `path` joined with the pattern's literal leading segments. An absolute
 * pattern or one climbing out with `..` lists from where it really points, so the path gate judges that.
 */
export function globBase(cwd: string, path: string | undefined, pattern: string): string {
  const start = nodePath.resolve(cwd, path ?? ".");
  const segments = pattern.split(/[\\/]/);
  const literal: string[] = [];
  for (const s of segments.slice(0, -1)) {
    if (GLOB_CHARS.test(s)) break;
    literal.push(s);
  }
  const prefix = nodePath.isAbsolute(pattern) ? nodePath.sep + literal.join(nodePath.sep) : literal.join(nodePath.sep);
  return nodePath.resolve(start, prefix || ".");
}

/** Claude Code's call as Toolgate's. */
export function mapClaudeCodeTool(input: AgentCall): Mapped {
  const p = input.toolInput;
  const str = (k: string): string | undefined => (typeof p[k] === "string" ? (p[k] as string) : undefined);
  const need = (k: string): string | { readonly missing: string } => {
    const s = str(k);
    return s === undefined || s === "" ? { missing: `\`${input.toolName}\` needs a string \`${k}\`` } : s;
  };
  const call = (tool: string, params: Record<string, unknown>): Mapped => ({ kind: "call", call: { tool, params } });
  const malformed = (reason: string): Mapped => ({ kind: "malformed", reason });
  const name = input.toolName;
  if (name.startsWith("mcp__")) {
    const rest = name.slice("mcp__".length);
    const cut = rest.indexOf("__");
    if (cut <= 0 || cut + 2 >= rest.length) return malformed(`\`${name}\` is not an mcp__server__tool name`);
    return call("use_mcp_tool", {
      server_name: rest.slice(0, cut),
      tool_name: rest.slice(cut + 2),
      arguments: JSON.stringify(p),
    });
  }
  switch (name) {
    case "Bash": {
      const command = need("command");
      return typeof command === "string" ? call("execute_command", { command }) : malformed(command.missing);
    }
    case "Read": {
      const path = need("file_path");
      return typeof path === "string" ? call("read_file", { path }) : malformed(path.missing);
    }
    case "Write": {
      const path = need("file_path");
      if (typeof path !== "string") return malformed(path.missing);
      if (typeof p.content !== "string") return malformed("`Write` needs a string `content`");
      return call("write_to_file", { path, content: p.content });
    }
    case "Edit": {
      const path = need("file_path");
      if (typeof path !== "string") return malformed(path.missing);
      if (typeof p.old_string !== "string" || typeof p.new_string !== "string")
        return malformed("`Edit` needs string `old_string` and `new_string`");
      return call("replace_in_file", { path, diff: block(p.old_string, p.new_string) });
    }
    case "MultiEdit": {
      const path = need("file_path");
      if (typeof path !== "string") return malformed(path.missing);
      const edits = p.edits;
      if (!Array.isArray(edits) || edits.length === 0) return malformed("`MultiEdit` needs a non-empty `edits` list");
      const blocks: string[] = [];
      for (const e of edits as unknown[]) {
        if (!isRecord(e) || typeof e.old_string !== "string" || typeof e.new_string !== "string")
          return malformed("each `MultiEdit` edit needs string `old_string` and `new_string`");
        blocks.push(block(e.old_string, e.new_string));
      }
      return call("replace_in_file", { path, diff: blocks.join("\n") });
    }
    case "NotebookEdit": {
      const path = need("notebook_path");
      if (typeof path !== "string") return malformed(path.missing);
      return call("write_to_file", { path, content: str("new_source") ?? "" });
    }
    case "Glob": {
      const pattern = need("pattern");
      if (typeof pattern !== "string") return malformed(pattern.missing);
      return call("list_files", { path: globBase(input.cwd, str("path"), pattern), recursive: true });
    }
    case "LS": {
      const path = need("path");
      return typeof path === "string" ? call("list_files", { path }) : malformed(path.missing);
    }
    case "Grep": {
      const pattern = need("pattern");
      if (typeof pattern !== "string") return malformed(pattern.missing);
      const glob = str("glob");
      return call("search_files", {
        path: nodePath.resolve(input.cwd, str("path") ?? "."),
        regex: pattern,
        ...(glob ? { file_pattern: glob } : {}),
      });
    }
    case "WebFetch": {
      const url = need("url");
      return typeof url === "string" ? call("web_fetch", { url }) : malformed(url.missing);
    }
    default:
      return { kind: "ask", reason: `Toolgate has no rule for Claude Code's \`${name}\` tool, so you decide` };
  }
}

/**
 * The source a Claude Code call brings into the session once it runs, or undefined when its result is not
 * someone else's content. Bash output is not counted (the hook cannot see whether a line reached the network).
 */
export function claudeCodeSource(toolName: string, toolInput: Readonly<Record<string, unknown>>): string | undefined {
  if (toolName === "WebFetch") {
    const url = typeof toolInput.url === "string" ? toolInput.url : "";
    return urlHost(url.trim()) ?? "the web";
  }
  if (toolName === "WebSearch") return "web search results";
  if (toolName.startsWith("mcp__")) {
    const rest = toolName.slice("mcp__".length);
    const cut = rest.indexOf("__");
    return cut > 0 ? `${rest.slice(0, cut)}/${rest.slice(cut + 2)}` : toolName;
  }
  return undefined;
}

/** Modes in which Claude Code accepts a hook's `ask` without a person (DESIGN, Headless and other agents). */
const ACCEPTS_ASK: readonly string[] = ["bypassPermissions", "dontAsk", "auto", "acceptEdits"];

const USAGE = `usage: toolgate hook claude-code [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Claude Code's PreToolUse hook: reads the hook JSON on stdin, answers
  {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"deny"|"ask", ...}}.
  The workspace is the input's cwd (its .vscode/settings.json is the workspace layer). Always exits 0;
  anything that cannot be decided (bad input, broken settings, an error) is a deny.
  In .claude/settings.json:
    {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "toolgate hook claude-code"}]}]}}`;

function render(answer: HookAnswer): Rendered {
  const base = hookOutput(answer.decision, answer.reason);
  // The sandbox rewrite (sandboxRewrite.ts): Claude Code runs `updatedInput` instead, with an allow only.
  const out =
    answer.updatedInput !== undefined && answer.decision === "allow"
      ? { hookSpecificOutput: { ...base.hookSpecificOutput, updatedInput: answer.updatedInput } }
      : base;
  return { stdout: JSON.stringify(out) + "\n", exitCode: 0 };
}

export const claudeCodeAdapter: AgentAdapter = {
  name: "claude-code",
  displayName: "Claude Code",
  usage: USAGE,
  parse: (text) => parseHookInput(text),
  map: mapClaudeCodeTool,
  honoursAsk: (call) => !ACCEPTS_ASK.includes(call.mode ?? ""),
  source: (call) => claudeCodeSource(call.toolName, call.toolInput),
  render,
  commandRewrite: claudeCommandRewrite,
};
