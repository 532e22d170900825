/**
 * `toolgate hook claude-code`: Toolgate's gate as Claude Code's PreToolUse hook, with the same policy as every
 * other surface (user settings, the `cwd`'s `.vscode/settings.json` as the workspace layer, the managed policy).
 *
 * Invariant: whatever happens — unreadable or malformed input, broken settings, a missing workspace, an
 * exception anywhere — the hook answers with the decision JSON and exits 0, and anything it could not decide
 * is a deny. Claude Code treats exit codes other than 0 and 2 as non-blocking, so a crash would fail open.
 */
import { statSync } from "node:fs";
import type { Readable } from "node:stream";
import type { Gate } from "../core/gate";
import { activeSources, mcpServerTrusted, UNTRUSTED_CONTENT_RULE } from "../core/taint";
import type { Decision, ToolCall } from "../core/types";
import { addSessionTaint, claudeCodeSource, hookStateDir, readSessionTaint } from "./hookTaint";
import { parseFlags, settingsArgs, type FlagSpec } from "./args";
import { hookOutput, mapClaudeCodeTool, parseHookInput, type HookDecision, type HookInput } from "./claudeCode";
import type { CliCommand, CliIo } from "./command";
import { gateFor, loadPolicy, type Policy } from "./loadGate";

const FLAGS: FlagSpec = { "--settings": "value", "--user-settings": "value", "--managed": "value", "--mcp": "value" };
const MAX_INPUT_BYTES = 16 * 1024 * 1024;
const AGENT = "claude-code";

const USAGE = `usage: toolgate hook claude-code [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Claude Code's PreToolUse hook: reads the hook JSON on stdin, answers
  {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"|"deny"|"ask", ...}}.
  The workspace is the input's cwd (its .vscode/settings.json is the workspace layer). Always exits 0;
  anything that cannot be decided (bad input, broken settings, an error) is a deny.
  In .claude/settings.json:
    {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "toolgate hook claude-code"}]}]}}`;

async function readAll(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_INPUT_BYTES) throw new Error(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** Claude Code's MCP servers are configured in Claude Code: one Toolgate does not know is judged with no always-allow. */
function withServer(policy: Policy, server: string): Policy {
  const s = policy.loaded.settings;
  if (Object.prototype.hasOwnProperty.call(s.mcpServers, server)) return policy;
  const stub = { url: "claude-code:", alwaysAllow: [], disabled: false, disabledTools: [] };
  return {
    ...policy,
    loaded: { ...policy.loaded, settings: { ...s, mcpServers: { ...s.mcpServers, [server]: stub } } },
  };
}

function answer(d: Decision): { decision: HookDecision; reason: string } {
  return { decision: d.decision, reason: `Toolgate: ${d.reason} [${d.rule}]` };
}

/** Decides one hook input. Throws only on internal errors, which the caller turns into a deny. */
export async function decideHook(
  text: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ decision: HookDecision; reason: string }> {
  const parsed = parseHookInput(text);
  if (!parsed.ok) return { decision: "deny", reason: `Toolgate: ${parsed.reason}` };
  const input: HookInput = parsed.input;
  if (!isDirectory(input.cwd))
    return { decision: "deny", reason: `Toolgate: the workspace ${input.cwd} (the hook's cwd) is not a directory` };
  const mapped = mapClaudeCodeTool(input);
  if (mapped.kind === "malformed") return { decision: "deny", reason: `Toolgate: ${mapped.reason}` };
  const args = settingsArgs(parseFlags(argv, FLAGS));
  let policy = loadPolicy({ ...args, workspaces: [input.cwd] }, { cwd: input.cwd, env });
  if (policy.loaded.errors.length > 0)
    return {
      decision: "deny",
      reason: `Toolgate: the settings have errors, so nothing is decided until they are fixed: ${policy.loaded.errors.join("; ")}`,
    };
  if (mapped.kind === "unknown") {
    // WebSearch has no Toolgate tool: the person decides, and if they approve, its results enter the session.
    const source = claudeCodeSource(input.toolName, input.toolInput);
    const refused = source !== undefined ? recordSource(input, source, env) : undefined;
    return refused ?? { decision: "ask", reason: `Toolgate: ${mapped.reason}` };
  }
  const server = mapped.call.params.server_name;
  if (mapped.call.tool === "use_mcp_tool" && typeof server === "string") policy = withServer(policy, server);
  const gate = await gateFor(policy, { headless: false, forCall: mapped.call });
  return decideInSession(input, mapped.call, gate, policy, env);
}

/** Modes in which Claude Code accepts a hook's `ask` without a person (DESIGN, Headless and other agents). */
const ACCEPTS_ASK: readonly string[] = ["bypassPermissions", "dontAsk", "auto", "acceptEdits"];

/**
 * The decision with the session's taint (hookTaint.ts): decided as in a task that read what the session read;
 * a call that will bring someone else's content in marks the session before it is let through (allow, or an
 * ask the person may approve). If that mark cannot be written the call is refused: its result would enter
 * unrecorded.
 */
function decideInSession(
  input: HookInput,
  call: ToolCall,
  gate: Gate,
  policy: Policy,
  env: NodeJS.ProcessEnv,
): { decision: HookDecision; reason: string } {
  const dir = hookStateDir(env);
  const taintedBy = activeSources(readSessionTaint(dir, AGENT, input.sessionId));
  const d = gate.decide(taintedBy.length > 0 ? { ...call, facts: { ...call.facts, taintedBy } } : call);
  if (d.rule === UNTRUSTED_CONTENT_RULE && d.decision === "ask" && ACCEPTS_ASK.includes(input.permissionMode ?? ""))
    return answer({ ...d, decision: "deny", reason: `${d.reason} (${input.permissionMode} would accept an ask)` });
  const source = claudeCodeSource(input.toolName, input.toolInput);
  const server = call.tool === "use_mcp_tool" ? String(call.params.server_name) : undefined;
  const trusted = server !== undefined && mcpServerTrusted(policy.loaded.settings.mcpServers, server);
  if (d.decision !== "deny" && source !== undefined && !trusted) {
    const refused = recordSource(input, source, env);
    if (refused) return refused;
  }
  return answer(d);
}

/** Marks the session as having read `source`; a refusal when that cannot be recorded. */
function recordSource(
  input: HookInput,
  source: string,
  env: NodeJS.ProcessEnv,
): { decision: HookDecision; reason: string } | undefined {
  if (input.sessionId === undefined)
    return {
      decision: "deny",
      reason: "Toolgate: the hook input has no session_id, so what this call reads could not be recorded",
    };
  try {
    addSessionTaint(hookStateDir(env), AGENT, input.sessionId, [source]);
    return undefined;
  } catch (e) {
    return {
      decision: "deny",
      reason: `Toolgate: could not record that this session reads content from ${source} (${(e as Error).message}), so the call is refused`,
    };
  }
}

async function hookMain(argv: readonly string[], io: CliIo): Promise<number> {
  let answered = false;
  const respond = (decision: HookDecision, reason: string): void => {
    if (answered) return;
    answered = true;
    io.stdout.write(JSON.stringify(hookOutput(decision, reason)) + "\n");
  };
  // Errors outside the awaited chain (a stream, a timer) must still end in a deny, never in a crash.
  const onCrash = (e: unknown): void => {
    respond("deny", `Toolgate: internal error, so the call is refused: ${String(e)}`);
    process.exitCode = 0;
  };
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  try {
    const [agent, ...rest] = argv;
    if (agent === "--help" || agent === "-h") {
      io.stdout.write(USAGE + "\n");
      answered = true;
      return 0;
    }
    if (agent !== "claude-code") {
      respond("deny", `Toolgate: unknown agent ${JSON.stringify(agent ?? "")} (toolgate hook claude-code)`);
      return 0;
    }
    if (rest.includes("--help") || rest.includes("-h")) {
      io.stdout.write(USAGE + "\n");
      answered = true;
      return 0;
    }
    const text = await readAll(io.stdin);
    const r = await decideHook(text, rest, io.env);
    respond(r.decision, r.reason);
  } catch (e) {
    respond("deny", `Toolgate: internal error, so the call is refused: ${(e as Error).message ?? String(e)}`);
  }
  return 0;
}

export const hookCommand: CliCommand = {
  summary: "Claude Code PreToolUse hook: the same policy gates Claude Code's tool calls",
  usage: USAGE,
  main: hookMain,
};
