/**
 * Codex's PreToolUse hook protocol (`toolgate hook codex`), verified against Codex CLI 0.171.0 (its native
 * binary's embedded schemas and a real `codex exec` against a loopback Responses API).
 *
 * Input: `{session_id, turn_id, transcript_path, cwd, hook_event_name: "PreToolUse", model, permission_mode,
 * tool_name, tool_input, tool_use_id}` (+ `agent_id`, `agent_type` for sub-agents). `cwd` is the directory the
 * command runs in (the model's `workdir`), not the project: the hook process itself runs in the session's
 * directory, which the person chose (`codex -C DIR`), and that is the workspace. `exec_command` arrives as
 * `Bash` with `{command}`; `apply_patch` with the patch text in `command`; MCP tools as `mcp__server__tool`.
 *
 * Output: `{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
 * "permissionDecisionReason": …}}` blocks and tells the model the reason. 0.171 calls `allow` without
 * `updatedInput`, and `ask`, "unsupported" and runs the tool anyway, as it does on non-JSON output or a crash:
 * so a plain allow is `{}`, and every ask is a deny.
 *
 * The sandbox rewrite (sandboxRewrite.ts; verified with the real 0.171.0, test/agents/codexSandbox.test.ts):
 * `allow` with `updatedInput: {command}` (and a reason) runs the new command in place of the model's, also with
 * a second hook installed that answers `{}`, before or after ours. `Bash`'s input carries only `command` (the
 * model's `workdir` is the input's `cwd`; an escalation request never reaches the hook, and Codex itself refuses
 * one under approval "never"). The running version is the `codex` binary's among the hook's ancestors
 * (agentProcess.ts, `CODEX_BINARY`).
 */
import * as nodePath from "node:path";
import type { AgentAdapter, AgentCall, CommandRewrite, HookAnswer, Mapped, Rendered } from "./adapter";
import { agentCommand, patchCalls } from "./agentCalls";
import { plainVersion, versionFromAncestors, type AgentBinary } from "./agentProcess";
import { parseEnvelope, type Parsed } from "./envelope";

/**
 * The `codex` binary and its version: `codex-package.json` beside its `bin/` folder (`{"version", "entrypoint":
 * "bin/codex", …}`, in the npm package's `vendor/<target>/` and the release archives alike), counted only when
 * its entrypoint is that binary. Not the input's `transcript_path` (verified with 0.171.0): its first line's
 * `session_meta.cli_version` is the version that STARTED the session, and `codex exec resume` appends to the
 * same file without a new `session_meta`, so a session resumed by another version still names the first.
 */
export const CODEX_BINARY: AgentBinary = {
  name: "codex",
  version: (exe, read) => {
    const root = nodePath.dirname(nodePath.dirname(exe));
    const pkg = read(nodePath.join(root, "codex-package.json"));
    if (typeof pkg !== "object" || pkg === null) return undefined;
    const { version, entrypoint } = pkg as Record<string, unknown>;
    if (typeof entrypoint !== "string" || nodePath.resolve(root, entrypoint) !== exe) return undefined;
    return plainVersion(version);
  },
};

/** Versions whose application of a rewritten `Bash` input the real-agent suite's sentinel test checked. */
export const CODEX_REWRITE_VERIFIED: readonly string[] = ["0.171.0"];

/**
 * Checks the envelope; `sessionDir` is the hook process's directory (the session's, set by Codex), `version`
 * the running Codex's as the hook can tell it.
 */
export function parseCodexInput(text: string, sessionDir: string, version?: string): Parsed {
  const p = parseEnvelope(text, "PreToolUse");
  if (!p.ok) return p;
  return {
    ok: true,
    call: {
      workspaces: nodePath.isAbsolute(sessionDir) ? [sessionDir] : [],
      ...p.envelope,
      ...(version !== undefined ? { agentVersion: version } : {}),
    },
  };
}

/** Codex's call as Toolgate's. */
export function mapCodexTool(input: AgentCall): Mapped {
  const p = input.toolInput;
  const name = input.toolName;
  const command = typeof p.command === "string" && p.command.trim() !== "" ? p.command : undefined;
  if (name.startsWith("mcp__")) {
    const rest = name.slice("mcp__".length);
    const cut = rest.indexOf("__");
    if (cut <= 0 || cut + 2 >= rest.length)
      return { kind: "malformed", reason: `\`${name}\` is not an mcp__server__tool name` };
    return {
      kind: "call",
      call: {
        tool: "use_mcp_tool",
        params: { server_name: rest.slice(0, cut), tool_name: rest.slice(cut + 2), arguments: JSON.stringify(p) },
      },
    };
  }
  switch (name) {
    case "Bash":
      if (command === undefined) return { kind: "malformed", reason: "`Bash` needs a string `command`" };
      // One gate call for the one command: the rewrite replaces the whole input (decide.ts).
      return { kind: "call", call: agentCommand(input.cwd, command).call };
    case "apply_patch": {
      if (command === undefined) return { kind: "malformed", reason: "`apply_patch` needs the patch in `command`" };
      const calls = patchCalls(input.cwd, command);
      return typeof calls === "string" ? { kind: "malformed", reason: calls } : { kind: "calls", calls };
    }
    default:
      return { kind: "ask", reason: `Toolgate has no rule for Codex's \`${name}\` tool, so a person must decide` };
  }
}

/** What a Codex call brings into the session once it runs: an MCP tool's result. */
export function codexSource(call: AgentCall): string | undefined {
  if (!call.toolName.startsWith("mcp__")) return undefined;
  const rest = call.toolName.slice("mcp__".length);
  const cut = rest.indexOf("__");
  return cut > 0 ? `${rest.slice(0, cut)}/${rest.slice(cut + 2)}` : call.toolName;
}

/**
 * A refusal in Codex's shape; a plain allow says nothing (0.171 treats a bare `allow` as an unsupported answer);
 * a rewritten allow carries its `updatedInput`.
 */
export function renderCodex(answer: HookAnswer): Rendered {
  if (answer.decision === "allow" && answer.updatedInput === undefined) return { stdout: "{}\n", exitCode: 0 };
  const out = {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: answer.decision === "allow" ? "allow" : "deny",
      permissionDecisionReason: answer.reason,
      ...(answer.decision === "allow" ? { updatedInput: answer.updatedInput } : {}),
    },
  };
  return { stdout: JSON.stringify(out) + "\n", exitCode: 0 };
}

/** Codex's side of the sandbox rewrite: `Bash` carries the command line; nothing else in its input leaves. */
export const codexCommandRewrite: CommandRewrite = {
  commandField: (toolName) => (toolName === "Bash" ? "command" : undefined),
  dropFields: [],
  verifiedVersions: CODEX_REWRITE_VERIFIED,
};

const USAGE = `usage: toolgate hook codex [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Codex's PreToolUse hook: reads the hook JSON on stdin, answers {} (go on) or
  {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", ...}}.
  Codex runs an "ask" without asking, so every ask is a deny. The workspace is the session's directory
  (the hook's working directory); the input's cwd is where the command runs. An allowed command is
  rewritten to run in Toolgate's sandbox (toolgate.hooks.sandboxWrap). Always exits 0.
  In ~/.codex/config.toml (Codex runs a hook only once you trust it: /hooks, or its hooks.state entry):
    [features]
    hooks = true
    [[hooks.PreToolUse]]
    matcher = "*"
    [[hooks.PreToolUse.hooks]]
    type = "command"
    command = "toolgate hook codex"`;

export const codexAdapter: AgentAdapter = {
  name: "codex",
  displayName: "Codex",
  usage: USAGE,
  parse: (text) => parseCodexInput(text, process.cwd(), versionFromAncestors(CODEX_BINARY)),
  map: (call) => mapCodexTool(call),
  honoursAsk: () => false,
  source: codexSource,
  render: renderCodex,
  commandRewrite: codexCommandRewrite,
};
