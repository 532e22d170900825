/**
 * The sandbox rewrite for agents that apply a hook's rewritten input (DESIGN, "Other agents get the same two
 * layers"): an allowed command line becomes
 *
 *   <node> <cli.js> sandbox --grant G [--network H]... --cwd CWD --decided-by-hook AGENT --hook-tool T
 *     --hook-cwd C [--workspace W]... [settings flags] [--hook-session S] [--hook-mode M]
 *     [--hook-agent-version V] -- LINE
 *
 * every word quoted for bash (shellQuote.ts), every other field of the tool input kept and the agent's own
 * "leave the sandbox" fields dropped. `toolgate sandbox --decided-by-hook` decides LINE again with the same
 * policy (`redecideHookCommand`) and runs nothing if the decision or the grant changed.
 *
 * Invariants (each fails closed):
 * - Only an allow is rewritten; the agent's own deny/ask rules are matched against the ORIGINAL line first,
 *   because the rewritten line no longer matches them.
 * - With `toolgate.sandbox.mode: "required"` (a setting or the managed policy), the hook never allows a command
 *   that will not run in the sandbox: the agent cannot be rewritten, the sandbox is unavailable (probed once per
 *   process), or the rewrite is not verified for the running agent version. `toolgate.hooks.sandboxWrap: false`
 *   is ignored then.
 * - An allow that holds only because the sandbox bounds the command (the "commands in the sandbox" tier) is an
 *   ask wherever the command will not verifiably run in it.
 * - A line bash cannot carry (a NUL byte) is refused rather than rewritten.
 */
import * as nodePath from "node:path";
import type { Judged } from "../../core/resolvedCall";
import { describeGrant, grantOf, type SandboxGrant } from "../../core/sandbox/grant";
import { FAIL_CLOSED_SANDBOX_SETTINGS, parseSandboxSettings } from "../../core/sandbox/sandboxSettings";
import { SANDBOX_TIER_RULE } from "../../core/sandboxTier";
import { parseHookSettings } from "../../core/hookSettings";
import type { ParsedFlags } from "../args";
import type { AgentAdapter, AgentCall, CommandRewrite, HookAnswer } from "./adapter";
import { quotable, quoteArgv } from "./shellQuote";

/** How the rewritten line starts Toolgate, and the sandbox probe; injectable for tests. */
export interface RewriteContext {
  /** Absolute path of the Node binary running Toolgate. */
  readonly node: string;
  /** Absolute path of Toolgate's CLI entry (dist/cli.js). */
  readonly cli: string;
  /** Whether an OS sandbox can start here (probed once per hook process). */
  readonly sandbox: () => { readonly available: boolean; readonly reason?: string };
}

/** The settings flags passed on to the sandbox command, as absolute paths (it runs in another directory). */
const PASSED_FLAGS = ["--settings", "--user-settings", "--managed", "--mcp"] as const;

const ask = (reason: string): HookAnswer => ({ decision: "ask", reason: `Toolgate: ${reason}` });

/** Whether the running agent's version is one the real-agent suite verified to apply `rw`'s rewrite. */
export function rewriteVerified(rw: CommandRewrite, call: AgentCall): boolean {
  return call.agentVersion !== undefined && rw.verifiedVersions.includes(call.agentVersion);
}

/** The input fields that carry `line` for `rw`'s agent. */
export function commandInputOf(rw: CommandRewrite, field: string, line: string): Record<string, unknown> {
  return rw.commandInput?.(line) ?? { [field]: line };
}

/**
 * The agent's input with its command replaced: every other field kept as sent, except the command field and the
 * spellings that could name another command (`dropFields`); then `replacement` (the rewritten command or list).
 */
export function rewrittenInput(
  rw: CommandRewrite,
  toolInput: Readonly<Record<string, unknown>>,
  field: string,
  replacement: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(toolInput)) if (k !== field && !rw.dropFields.includes(k)) kept[k] = v;
  return { ...kept, ...replacement };
}

/** The argv of the sandbox command for one decided line (quoted by the caller). */
export function sandboxArgv(
  adapter: AgentAdapter,
  call: AgentCall,
  flags: ParsedFlags,
  decided: { readonly line: string; readonly cwd: string; readonly grant: SandboxGrant },
  ctx: Pick<RewriteContext, "node" | "cli">,
  base: string = process.cwd(),
): string[] {
  const argv = [ctx.node, ctx.cli, "sandbox", "--grant", decided.grant.kind];
  for (const h of decided.grant.hosts) argv.push("--network", h);
  argv.push("--cwd", decided.cwd, "--decided-by-hook", adapter.name, "--hook-tool", call.toolName);
  argv.push("--hook-cwd", call.cwd);
  for (const w of call.workspaces) argv.push("--workspace", w);
  for (const f of PASSED_FLAGS) {
    const v = flags.values[f];
    if (v !== undefined) argv.push(f, nodePath.resolve(base, v));
  }
  if (call.sessionId !== undefined) argv.push("--hook-session", call.sessionId);
  if (call.mode !== undefined) argv.push("--hook-mode", call.mode);
  if (call.agentVersion !== undefined) argv.push("--hook-agent-version", call.agentVersion);
  argv.push("--", decided.line);
  return argv;
}

/**
 * The hook's answer for a command call once the gate decided it (`answer`, from `judged`): the agent's own
 * rules, the required sandbox, and the rewrite. Calls that are not commands come back unchanged.
 */
export function sandboxStep(
  adapter: AgentAdapter,
  call: AgentCall,
  flags: ParsedFlags,
  answer: HookAnswer,
  judged: Judged | undefined,
  values: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
  ctx: RewriteContext,
): HookAnswer {
  const command = judged?.resolved?.tool === "execute_command" ? judged.resolved.command : undefined;
  if (command === undefined || judged === undefined) return answer;
  const rw = adapter.commandRewrite;
  const field = rw?.commandField(call.toolName);
  const parsed = parseSandboxSettings(values);
  const sandbox = parsed.ok ? parsed.value : FAIL_CLOSED_SANDBOX_SETTINGS;
  const required = sandbox.mode === "required";
  const tier = judged.rule === SANDBOX_TIER_RULE;
  if (answer.decision !== "allow") return answer;
  const wrap =
    rw !== undefined &&
    field !== undefined &&
    sandbox.mode !== "off" &&
    (required || parseHookSettings(values).sandboxWrap);
  if (!wrap || rw === undefined || field === undefined) {
    if (required)
      return ask(
        rw === undefined || field === undefined
          ? `toolgate.sandbox.mode is "required", and ${adapter.displayName}'s hook cannot run this command in Toolgate's sandbox`
          : `toolgate.sandbox.mode is "required", and this command would not run in Toolgate's sandbox`,
      );
    if (tier)
      return ask(
        `${answer.reason.replace(/^Toolgate: /, "")} — but only inside Toolgate's sandbox, and this command would run outside it`,
      );
    return answer;
  }
  const probe = ctx.sandbox();
  if (!probe.available) {
    if (required)
      return ask(
        `toolgate.sandbox.mode is "required", and no sandbox can start here: ${probe.reason ?? "unknown reason"}`,
      );
    if (tier)
      return ask(`the sandbox that would bound this command cannot start here: ${probe.reason ?? "unknown reason"}`);
    return answer;
  }
  if (!rewriteVerified(rw, call) && (required || tier)) {
    const which =
      call.agentVersion !== undefined
        ? `${adapter.displayName} ${call.agentVersion}`
        : `this ${adapter.displayName} version`;
    return ask(
      `${which} is not verified to run Toolgate's sandboxed rewrite of a command, so ${required ? 'with toolgate.sandbox.mode "required" it' : "a command allowed only inside the sandbox"} cannot be allowed`,
    );
  }
  if (!quotable(command.line)) return { decision: "deny", reason: "Toolgate: the command contains a NUL byte" };
  // Claude Code checks its own rules against the input it runs: the rewritten line would slip past them.
  const own = rw.ownRules?.(call, command.line, env);
  if (own !== undefined) return { decision: own.decision, reason: `Toolgate: ${own.reason}` };
  const grant = command.grant ?? grantOf("workspace-write");
  const line = quoteArgv(sandboxArgv(adapter, call, flags, { line: command.line, cwd: command.cwd, grant }, ctx));
  const updatedInput = rewrittenInput(rw, call.toolInput, field, commandInputOf(rw, field, line));
  return {
    decision: "allow",
    reason: `${answer.reason} — runs in Toolgate's sandbox (${describeGrant(grant)})`,
    updatedInput,
  };
}
