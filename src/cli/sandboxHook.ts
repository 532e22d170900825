/**
 * `toolgate sandbox --decided-by-hook AGENT …`: the command an agent's hook rewrote an allowed command line into
 * (hooks/sandboxRewrite.ts). Before anything runs, the line is decided again exactly as the hook decided it —
 * the same adapter, the same agent call (tool, working directory, workspaces, session, mode, and the agent
 * version the hook read), the same settings files — and the agent's own deny/ask rules are matched again. The
 * version only says whether the line runs in the sandbox, which here it does: a hand-given one loosens nothing. Nothing runs (exit 125, with the reason) unless
 * the decision is still allow with the same grant and the same directory: the rewritten line may be run later
 * than it was decided, or by hand, and settings, rules and the session's taint may have changed in between.
 */
import * as nodePath from "node:path";
import type { SandboxGrant } from "../core/sandbox/grant";
import { UsageError, type FlagSpec, type ParsedFlags } from "./args";
import type { AgentCall } from "./hooks/adapter";
import { redecideHookCommand } from "./hooks/decide";
import { commandInputOf } from "./hooks/sandboxRewrite";
import { agentAdapter } from "./hooks/registry";

export const HOOK_SANDBOX_FLAGS: FlagSpec = {
  "--decided-by-hook": "value",
  "--hook-tool": "value",
  "--hook-cwd": "value",
  "--hook-session": "value",
  "--hook-mode": "value",
  "--hook-agent-version": "value",
};

export const HOOK_SANDBOX_USAGE = `  --decided-by-hook AGENT  the line is an agent's call its hook allowed and rewrote: decide it again
                        (with --hook-tool T --hook-cwd DIR [--hook-session S] [--hook-mode M]
                        [--hook-agent-version V] and the hook's --workspace and settings flags) and run
                        nothing if the decision changed`;

export interface HookInvocation {
  readonly agent: string;
  /** The line as the hook decided it (also the call's command field). */
  readonly line: string;
  readonly call: AgentCall;
}

/** The agent's call from the flags; undefined without `--decided-by-hook`. Usage errors throw. */
export function hookInvocation(flags: ParsedFlags, line: string, cwd: string | undefined): HookInvocation | undefined {
  const v = flags.values;
  const agent = v["--decided-by-hook"];
  const others = ["--hook-tool", "--hook-cwd", "--hook-session", "--hook-mode", "--hook-agent-version"].filter(
    (f) => v[f] !== undefined,
  );
  if (agent === undefined) {
    if (others.length > 0) throw new UsageError(`${others[0]} needs --decided-by-hook`);
    return undefined;
  }
  const adapter = agentAdapter(agent);
  if (adapter === undefined) throw new UsageError(`--decided-by-hook: unknown agent \`${agent}\``);
  const tool = v["--hook-tool"];
  const hookCwd = v["--hook-cwd"];
  const workspaces = flags.lists["--workspace"] ?? [];
  if (tool === undefined || hookCwd === undefined || cwd === undefined || workspaces.length === 0)
    throw new UsageError("--decided-by-hook needs --hook-tool, --hook-cwd, --cwd and --workspace");
  if (!nodePath.isAbsolute(hookCwd)) throw new UsageError("--hook-cwd must be an absolute path");
  const rw = adapter.commandRewrite;
  const field = rw?.commandField(tool);
  if (rw === undefined || field === undefined)
    throw new UsageError(`--hook-tool: ${adapter.displayName}'s \`${tool}\` carries no command`);
  const session = v["--hook-session"];
  const mode = v["--hook-mode"];
  const version = v["--hook-agent-version"];
  return {
    agent,
    line,
    call: {
      workspaces: workspaces.map((w) => nodePath.resolve(w)),
      cwd: hookCwd,
      toolName: tool,
      toolInput: commandInputOf(rw, field, line),
      ...(session !== undefined ? { sessionId: session } : {}),
      ...(mode !== undefined ? { mode } : {}),
      ...(version !== undefined ? { agentVersion: version } : {}),
    },
  };
}

const sameGrant = (a: SandboxGrant, b: SandboxGrant): boolean =>
  a.kind === b.kind && a.hosts.length === b.hosts.length && a.hosts.every((h, i) => h === b.hosts[i]);

/** Why the line must not run now, or undefined when the hook's decision holds unchanged. */
export async function checkDecidedByHook(
  hook: HookInvocation,
  flags: ParsedFlags,
  grant: SandboxGrant,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const adapter = agentAdapter(hook.agent);
  if (adapter === undefined) return `unknown agent ${hook.agent}`;
  const line = hook.line;
  const again = await redecideHookCommand(adapter, hook.call, flags, env);
  if (again.answer.decision !== "allow")
    return `decided again, the command is no longer allowed (${again.answer.decision}): ${again.answer.reason}`;
  const command = again.judged?.resolved?.command;
  if (command === undefined) return "decided again, the call is no longer a command";
  const now = command.grant;
  if (now === undefined || !sameGrant(now, grant))
    return `decided again, the command's grant changed (now ${now ? `${now.kind} ${now.hosts.join(",")}` : "none"}, given ${grant.kind} ${grant.hosts.join(",")})`;
  if (command.cwd !== cwd) return `decided again, the command's directory changed (now ${command.cwd}, given ${cwd})`;
  const own = adapter.commandRewrite?.ownRules?.(hook.call, line, env);
  if (own !== undefined) return own.reason;
  return undefined;
}

/** What to tell a person whose sandbox did not start under an agent: the likely cause and both fixes. */
export function nestedHint(agent: string): string {
  const name = agentAdapter(agent)?.displayName ?? agent;
  return (
    `. If ${name} runs its own sandbox, Toolgate's cannot start inside it: turn ${name}'s sandbox off, or set ` +
    `"toolgate.hooks.sandboxWrap": false in your user settings to let ${name}'s own sandbox run the command ` +
    `(ignored while toolgate.sandbox.mode is "required")`
  );
}
