/**
 * Where each agent reads its hook configuration, and the Toolgate entry that install writes there. Facts
 * (checked against the installed agents, see docs/architecture.md's hook section):
 * - Claude Code 2.1.332: `hooks.PreToolUse[{matcher, hooks:[{type, command, timeout (s), onFailure}]}]` in
 *   `.claude/settings.json`, `~/.claude/settings.json` (`$CLAUDE_CONFIG_DIR`), managed
 *   `/etc/claude-code/managed-settings.json`; `onFailure: "block"` lives on the hook entry. Default timeout
 *   600 s.
 * - Gemini CLI 0.61: `hooks.BeforeTool[...]` in `.gemini/settings.json` / `~/.gemini/settings.json` / system
 *   `/etc/gemini-cli/settings.json`, `timeout` in ms (default 60000); hooks from all layers are concatenated,
 *   `hooksConfig.enabled` / `hooksConfig.disabled` switch them off.
 * - Cline 3.0.65: any file named `PreToolUse` (or with a script extension) in `~/Documents/Cline/Hooks`,
 *   `~/.cline/hooks` (`$CLINE_DIR`), `<ws>/.clinerules/hooks`, `<ws>/.cline/hooks`; run by its shebang; 120 s
 *   default timeout; exit codes ignored; empty or unparsable output lets the call through.
 * - Codex 0.171: `[[hooks.PreToolUse]]` + `[[hooks.PreToolUse.hooks]]` in `~/.codex/config.toml` (`$CODEX_HOME`)
 *   or `<repo>/.codex/config.toml`; `timeout` in seconds; exit 2 with a reason on stderr blocks.
 * - Cursor (documentation only, unverified here): `.cursor/hooks.json` / `~/.cursor/hooks.json`,
 *   `{version: 1, hooks: {beforeShellExecution: [{command}], …}}`.
 */
import { homedir } from "node:os";
import * as path from "node:path";
import { refusalText, shQuote, type RefusalStyle } from "../../agent/hooks/wrapperScript";

export type Scope = "user" | "project";

export type AgentName = "claude-code" | "gemini-cli" | "cline" | "codex" | "cursor";
export const AGENTS: readonly AgentName[] = ["claude-code", "gemini-cli", "cline", "codex", "cursor"];

/** Seconds the wrapper gives Node before `timeout` stops it. */
export const WRAPPER_LIMIT_SECONDS = 20;
/** The hook timeout install writes into the agent's configuration (seconds), above the wrapper's worst case. */
export const AGENT_TIMEOUT_SECONDS = 30;

export interface AgentFacts {
  readonly name: AgentName;
  readonly displayName: string;
  readonly style: RefusalStyle;
  /** The agent's own timeout when its configuration sets none (seconds). */
  readonly defaultTimeoutSeconds?: number;
  /** The program `--version` is asked of, when on PATH. */
  readonly bin?: string;
  /** The version Toolgate's hook protocol was verified against. */
  readonly testedVersion?: string;
  /**
   * How many leading numbers of the version name one hook protocol: a version that differs from
   * `testedVersion` within them may speak another protocol (Claude Code keeps it within a major version; Cline
   * and the 0.x agents change it between minor versions).
   */
  readonly protocolDigits?: 1 | 2;
  readonly verified: boolean;
}

export const FACTS: Readonly<Record<AgentName, AgentFacts>> = {
  "claude-code": {
    name: "claude-code",
    displayName: "Claude Code",
    style: "exit2",
    defaultTimeoutSeconds: 600,
    bin: "claude",
    testedVersion: "2.1.332",
    protocolDigits: 1,
    verified: true,
  },
  "gemini-cli": {
    name: "gemini-cli",
    displayName: "Gemini CLI",
    style: "exit2",
    defaultTimeoutSeconds: 60,
    bin: "gemini",
    testedVersion: "0.61.0",
    protocolDigits: 2,
    verified: true,
  },
  cline: {
    name: "cline",
    displayName: "Cline",
    style: "cline",
    defaultTimeoutSeconds: 120,
    bin: "cline",
    testedVersion: "3.0.65",
    protocolDigits: 2,
    verified: true,
  },
  codex: {
    name: "codex",
    displayName: "Codex",
    style: "exit2",
    defaultTimeoutSeconds: 600,
    bin: "codex",
    testedVersion: "0.171.0",
    protocolDigits: 2,
    verified: true,
  },
  cursor: { name: "cursor", displayName: "Cursor", style: "cursor", verified: false },
};

/** Claude Code's first version with `onFailure` on hooks. */
export const CLAUDE_ON_FAILURE_SINCE = "2.1.295";

export const CURSOR_EVENTS = ["beforeShellExecution", "beforeReadFile", "beforeMCPExecution", "preToolUse"] as const;

export function home(env: NodeJS.ProcessEnv): string {
  return env.HOME ?? homedir();
}

function envDir(env: NodeJS.ProcessEnv, key: string, fallback: string): string {
  const v = env[key];
  return v !== undefined && path.isAbsolute(v) ? v : fallback;
}

export function claudeUserDir(env: NodeJS.ProcessEnv): string {
  return envDir(env, "CLAUDE_CONFIG_DIR", path.join(home(env), ".claude"));
}

export function codexHome(env: NodeJS.ProcessEnv): string {
  return envDir(env, "CODEX_HOME", path.join(home(env), ".codex"));
}

export function clineUserHookDirs(env: NodeJS.ProcessEnv): string[] {
  return [
    path.join(home(env), "Documents", "Cline", "Hooks"),
    path.join(envDir(env, "CLINE_DIR", path.join(home(env), ".cline")), "hooks"),
  ];
}

export function clineProjectHookDirs(dir: string): string[] {
  return [path.join(dir, ".clinerules", "hooks"), path.join(dir, ".cline", "hooks")];
}

/** The one file install edits for an agent and scope. */
export function configFile(agent: AgentName, scope: Scope, dir: string, env: NodeJS.ProcessEnv): string {
  switch (agent) {
    case "claude-code":
      return scope === "user"
        ? path.join(claudeUserDir(env), "settings.json")
        : path.join(dir, ".claude", "settings.json");
    case "gemini-cli":
      return path.join(scope === "user" ? home(env) : dir, ".gemini", "settings.json");
    case "cline":
      return path.join(
        scope === "user" ? (clineUserHookDirs(env)[0] ?? "") : path.join(dir, ".clinerules", "hooks"),
        "PreToolUse",
      );
    case "codex":
      return scope === "user" ? path.join(codexHome(env), "config.toml") : path.join(dir, ".codex", "config.toml");
    case "cursor":
      return path.join(scope === "user" ? home(env) : dir, ".cursor", "hooks.json");
  }
}

/**
 * The command line an agent runs. It names the wrapper, and where the wrapper itself is missing (deleted,
 * never refreshed) the rest of the line still refuses: `|| exit 2` for the agents that block on exit 2 (the
 * shell's "not found" on stderr is then the reason), the refusal JSON for the others.
 */
export function hookCommand(style: RefusalStyle, wrapper: string): string {
  const missing = "the hook wrapper is missing, so the call is refused (run `toolgate hook install` again)";
  return style === "exit2"
    ? `${shQuote(wrapper)} || exit 2`
    : `${shQuote(wrapper)} || printf '%s\\n' ${shQuote(refusalText(style, missing))}`;
}

/** Whether a configured command is Toolgate's (this wrapper, any Toolgate wrapper, or `toolgate hook …`). */
export function isToolgateCommand(command: unknown, wrapper: string): boolean {
  if (typeof command !== "string") return false;
  return (
    command.includes(wrapper) ||
    /\/toolgate\/hooks\/[a-z-]+\.sh/.test(command) ||
    /(^|[\s/'"])toolgate['"]?\s+hook\b/.test(command) ||
    /dist\/cli\.js['"]?\s+hook\b/.test(command)
  );
}

/** The Claude Code hook entry. `onFailure` only where the version has it (unknown version: written). */
export function claudeEntry(command: string, onFailure: boolean): Record<string, unknown> {
  return { type: "command", command, timeout: AGENT_TIMEOUT_SECONDS, ...(onFailure ? { onFailure: "block" } : {}) };
}

export function geminiEntry(command: string): Record<string, unknown> {
  return { name: "toolgate", type: "command", command, timeout: AGENT_TIMEOUT_SECONDS * 1000, description: "Toolgate" };
}

export function cursorEntry(command: string): Record<string, unknown> {
  return { command };
}

/** Cline's hook file: a shebang script that runs the wrapper, and refuses itself when the wrapper is gone. */
export function clineHookFile(wrapper: string): string {
  return `#!/bin/sh
# Toolgate's PreToolUse hook for Cline, written by \`toolgate hook install cline\` (toolgate-hook-file).
# Cline ignores exit codes and lets a call through on empty or non-JSON output, so when the wrapper
# cannot run, this file prints Cline's cancel answer itself.
${hookCommand("cline", wrapper)}
`;
}

export const CLINE_MARKER = "(toolgate-hook-file)";
