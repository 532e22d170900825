/**
 * One hook call decided, whatever the agent: its adapter parses and maps the call, the one gate decides with the
 * same policy as every other surface (user settings, each workspace root's `.vscode/settings.json`, the managed
 * policy), and the session's taint is applied as in a Toolgate task.
 *
 * Invariant: anything that cannot be decided — bad input, no workspace, broken settings — is a `deny` with the
 * reason; an `ask` the agent would not put to a person (`AgentAdapter.honoursAsk`) is a `deny` too. Errors thrown
 * from here are internal; the caller turns them into the agent's refusal.
 */
import { statSync } from "node:fs";
import * as nodePath from "node:path";
import type { Gate } from "../../core/gate";
import { activeSources, mcpServerTrusted } from "../../core/taint";
import type { Judged } from "../../core/resolvedCall";
import type { Decision, ToolCall } from "../../core/types";
import { probeSandbox } from "../../agent/sandbox/sandboxProbe";
import { parseFlags, SETTINGS_FLAGS, settingsArgs, UsageError, type FlagSpec, type ParsedFlags } from "../args";
import { addSessionTaint, hookStateDir, readSessionTaint } from "../hookTaint";
import { gateFor, loadPolicy, type Policy } from "../loadGate";
import type { AgentAdapter, AgentCall, HookAnswer } from "./adapter";
import { sandboxStep, type RewriteContext } from "./sandboxRewrite";

/** The settings flags a hook takes: `--workspace` is not one of them (the agent names its workspace). */
const HOOK_SETTINGS_FLAGS: FlagSpec = Object.fromEntries(
  Object.entries(SETTINGS_FLAGS).filter(([flag]) => flag !== "--workspace"),
);

export function hookFlags(adapter: AgentAdapter, argv: readonly string[]): ParsedFlags {
  return parseFlags(argv, { ...HOOK_SETTINGS_FLAGS, ...adapter.flags });
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const refuse = (reason: string): HookAnswer => ({ decision: "deny", reason: `Toolgate: ${reason}` });

function answer(d: Decision): HookAnswer {
  return { decision: d.decision, reason: `Toolgate: ${d.reason} [${d.rule}]` };
}

/** An MCP server the agent configured and Toolgate does not know is judged with no always-allow. */
function withServer(policy: Policy, server: string, agent: string): Policy {
  const s = policy.loaded.settings;
  if (Object.prototype.hasOwnProperty.call(s.mcpServers, server)) return policy;
  const stub = { url: `${agent}:`, alwaysAllow: [], disabled: false, disabledTools: [] };
  return {
    ...policy,
    loaded: { ...policy.loaded, settings: { ...s, mcpServers: { ...s.mcpServers, [server]: stub } } },
  };
}

/** The gate's answer with the decision it came from (absent when nothing reached the gate). */
interface Verdict {
  readonly answer: HookAnswer;
  readonly judged?: Judged;
  readonly policy?: Policy;
}

/** The running Toolgate: this Node and this CLI entry (dist/cli.js), and the sandbox probe of this process. */
export function defaultRewriteContext(): RewriteContext {
  return {
    node: process.execPath,
    cli: nodePath.resolve(process.argv[1] ?? "dist/cli.js"),
    sandbox: () => probeSandbox(),
  };
}

/** Decides one hook input for `adapter`'s agent. */
export async function decideHook(
  adapter: AgentAdapter,
  text: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  ctx: RewriteContext = defaultRewriteContext(),
): Promise<HookAnswer> {
  let flags: ParsedFlags;
  try {
    flags = hookFlags(adapter, argv);
  } catch (e) {
    if (e instanceof UsageError) return refuse(`${e.message} (toolgate hook ${adapter.name} --help)`);
    throw e;
  }
  const parsed = adapter.parse(text, env, flags);
  if (!parsed.ok) return refuse(parsed.reason);
  const call = parsed.call;
  const verdict = await decideCall(adapter, call, flags, env);
  const decided = verdict.policy
    ? sandboxStep(adapter, call, flags, verdict.answer, verdict.judged, verdict.policy.loaded.values, env, ctx)
    : verdict.answer;
  if (decided.decision !== "ask" || adapter.honoursAsk(call, flags)) return decided;
  const why = call.mode !== undefined ? `${adapter.displayName} in ${call.mode}` : adapter.displayName;
  return {
    decision: "deny",
    reason: `${decided.reason} (refused, not asked: with ${why}, an ask would not reach you)`,
  };
}

/**
 * For `toolgate sandbox --decided-by-hook`: the same call decided again, as the hook decided it, up to the
 * gate's decision (the sandbox step is the caller's: it compares the grant and the directory it was given).
 */
export async function redecideHookCommand(
  adapter: AgentAdapter,
  call: AgentCall,
  flags: ParsedFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly answer: HookAnswer; readonly judged?: Judged }> {
  const v = await decideCall(adapter, call, flags, env);
  return { answer: v.answer, ...(v.judged ? { judged: v.judged } : {}) };
}

async function decideCall(
  adapter: AgentAdapter,
  call: AgentCall,
  flags: ParsedFlags,
  env: NodeJS.ProcessEnv,
): Promise<Verdict> {
  if (call.workspaces.length === 0)
    return {
      answer: refuse(`workspace unknown: ${adapter.displayName} did not say which project this call belongs to`),
    };
  const missing = call.workspaces.find((w) => !isDirectory(w));
  if (missing !== undefined) return { answer: refuse(`the workspace ${missing} is not a directory`) };
  const mapped = adapter.map(call);
  if (mapped.kind === "malformed") return { answer: refuse(mapped.reason) };
  if (mapped.kind === "inert") return { answer: { decision: "allow", reason: `Toolgate: ${mapped.reason}` } };
  let policy = loadPolicy({ ...settingsArgs(flags), workspaces: call.workspaces }, { cwd: call.cwd, env });
  if (policy.loaded.errors.length > 0)
    return {
      answer: refuse(
        `the settings have errors, so nothing is decided until they are fixed: ${policy.loaded.errors.join("; ")}`,
      ),
    };
  if (mapped.kind === "ask") {
    // A tool with no Toolgate rule: the person decides, and if they approve, what it brings in enters the session.
    const source = adapter.source(call);
    const refused = source !== undefined ? recordSource(adapter, call, source, env) : undefined;
    return { answer: refused ?? { decision: "ask", reason: `Toolgate: ${mapped.reason}` } };
  }
  const server = mapped.call.params.server_name;
  if (mapped.call.tool === "use_mcp_tool" && typeof server === "string")
    policy = withServer(policy, server, adapter.name);
  const gate = await gateFor(policy, { headless: false });
  return { ...decideInSession(adapter, call, mapped.call, gate, policy, env), policy };
}

/**
 * The decision with the session's taint (hookTaint.ts): decided as in a task that read what the session read;
 * a call that will bring someone else's content in marks the session before it is let through (allow, or an
 * ask the person may approve). If that mark cannot be written the call is refused: its result would enter
 * unrecorded.
 */
function decideInSession(
  adapter: AgentAdapter,
  agentCall: AgentCall,
  call: ToolCall,
  gate: Gate,
  policy: Policy,
  env: NodeJS.ProcessEnv,
): { readonly answer: HookAnswer; readonly judged: Judged } {
  const taintedBy = activeSources(readSessionTaint(hookStateDir(env), adapter.name, agentCall.sessionId));
  const d = gate.decide(taintedBy.length > 0 ? { ...call, facts: { ...call.facts, taintedBy } } : call);
  const source = adapter.source(agentCall);
  const server = call.tool === "use_mcp_tool" ? String(call.params.server_name) : undefined;
  const trusted = server !== undefined && mcpServerTrusted(policy.loaded.settings.mcpServers, server);
  if (d.decision !== "deny" && source !== undefined && !trusted) {
    const refused = recordSource(adapter, agentCall, source, env);
    if (refused) return { answer: refused, judged: d };
  }
  return { answer: answer(d), judged: d };
}

/** Marks the session as having read `source`; a refusal when that cannot be recorded. */
function recordSource(
  adapter: AgentAdapter,
  call: AgentCall,
  source: string,
  env: NodeJS.ProcessEnv,
): HookAnswer | undefined {
  if (call.sessionId === undefined)
    return refuse("the hook input has no session id, so what this call reads could not be recorded");
  try {
    addSessionTaint(hookStateDir(env), adapter.name, call.sessionId, [source]);
    return undefined;
  } catch (e) {
    return refuse(
      `could not record that this session reads content from ${source} (${(e as Error).message}), so the call is refused`,
    );
  }
}
