/**
 * Claude Code's PreToolUse hook protocol (`toolgate hook claude-code`), and its tools in Toolgate's vocabulary.
 *
 * Input (JSON on stdin, as 2.1.332 sends it): `session_id`, `transcript_path`, `cwd`, `prompt_id`,
 * `permission_mode`, `effort`, `hook_event_name: "PreToolUse"`, `tool_name`, `tool_input`, `tool_use_id`.
 * Output (JSON on stdout, exit 0): `{"hookSpecificOutput": {"hookEventName": "PreToolUse",
 * "permissionDecision": "allow" | "deny" | "ask", "permissionDecisionReason": "..."}}`.
 *
 * The workspace is `$CLAUDE_PROJECT_DIR`, which Claude Code sets in every hook's environment (verified with
 * 2.1.332) to the folder it started in; `cwd` follows the model's `cd`, so it only resolves relative paths and
 * is a command's start directory. Without the variable the hook refuses ("workspace unknown"): walking up
 * from `cwd` could make `~/.claude/`'s parent, the home folder, the workspace.
 *
 * Only the fields a tool's decision hangs on are carried over (`tool_name`, `tool_input`, `cwd`,
 * `session_id`, `permission_mode`); every other field of the input is ignored, so none can change it.
 */
import { urlHost } from "../../core/urls";
import type { AgentAdapter, HookAnswer, HookDecision, Rendered } from "./adapter";
import { isRecord, parseEnvelope, projectFrom, type Parsed } from "./envelope";
import { mapClaudeCodeTool, mcpParts } from "./claudeCodeTools";

export { globBase, mapClaudeCodeTool } from "./claudeCodeTools";
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

/** Checks the envelope; the reason says what is wrong (the hook then denies). */
export function parseHookInput(text: string, env: NodeJS.ProcessEnv): Parsed {
  const p = parseEnvelope(text, "PreToolUse");
  if (!p.ok) return p;
  return { ok: true, call: { workspaces: projectFrom(env.CLAUDE_PROJECT_DIR), ...p.envelope } };
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
  if (toolName === "Monitor" && isRecord(toolInput.ws)) {
    const url = typeof toolInput.ws.url === "string" ? toolInput.ws.url : "";
    return urlHost(url.trim()) ?? "a WebSocket";
  }
  if (toolName === "ReadMcpResourceTool" || toolName === "ReadMcpResourceDirTool") {
    const server = typeof toolInput.server === "string" ? toolInput.server : "an MCP server";
    return `${server} (resource)`;
  }
  if (toolName.startsWith("mcp__")) {
    const mcp = mcpParts(toolName);
    return mcp ? `${mcp.server}/${mcp.tool}` : toolName;
  }
  return undefined;
}

/**
 * The modes in which a hook's `ask` reaches a person, as seen with 2.1.332 (a hook answering `ask` for a
 * `.vscode/settings.json` write and for a plain file, interactively in tmux and with `-p`):
 * - `default`, `acceptEdits`, `dontAsk`: Claude Code shows the person the question (dontAsk refused the
 *   `.vscode` write itself); with `-p` it rejects the call. Either way nothing runs unasked.
 * - `bypassPermissions`: the `.vscode/settings.json` write was accepted and written with no question (the plain
 *   file was asked): an ask there is not a person's decision.
 * - `auto` and `plan`: the ask goes to auto mode's server-side check, which decides without a person.
 * Any other mode, or none: refused (an ask Toolgate cannot be sure a person sees is a refusal).
 */
const ASK_REACHES_A_PERSON: readonly string[] = ["default", "acceptEdits", "dontAsk"];

/** Claude Code's plan mode withholds writes, edits and commands that change things: the gate decides in plan mode. */
const READ_ONLY_MODES: readonly string[] = ["plan"];

const USAGE = `usage: toolgate hook claude-code [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Claude Code's PreToolUse hook: reads the hook JSON on stdin, answers
  {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"deny"|"ask", ...}}.
  The workspace is $CLAUDE_PROJECT_DIR, which Claude Code sets for its hooks (its .vscode/settings.json is
  the workspace layer); without it the call is refused. The input's cwd (where the model's \`cd\` left the
  shell) only resolves relative paths and is where a command starts.
  Every ask is a deny unless Claude Code is in default, acceptEdits or dontAsk mode (in bypassPermissions,
  auto and plan an ask would not reach you); in plan mode nothing plan mode withholds is allowed. A command
  that could print the environment (env, printenv, $API_KEY, node -e...) asks: Claude Code runs it with its
  own environment. Always exits 0; anything that cannot be decided is a deny.
  In .claude/settings.json (absolute paths: a command that is not found lets the call through):
    {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
      "command": "/usr/bin/node /path/to/toolgate/dist/cli.js hook claude-code"}]}]}}`;

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
  parse: (text, env) => parseHookInput(text, env),
  map: mapClaudeCodeTool,
  honoursAsk: (call) => ASK_REACHES_A_PERSON.includes(call.mode ?? ""),
  readOnlyMode: (call) => READ_ONLY_MODES.includes(call.mode ?? ""),
  source: (call) => claudeCodeSource(call.toolName, call.toolInput),
  render,
  commandRewrite: claudeCommandRewrite,
};
