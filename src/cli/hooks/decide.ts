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
import type { Decision } from "../../core/types";
import { probeSandboxRemembered } from "../../agent/sandbox/probeMemo";
import { parseFlags, SETTINGS_FLAGS, settingsArgs, UsageError, type FlagSpec, type ParsedFlags } from "../args";
import { addSessionTaint, hookStateDir, readSessionTaint } from "../hookTaint";
import { gateFor, loadPolicy, type Policy } from "../loadGate";
import type { AgentAdapter, AgentCall, HookAnswer, MappedCall } from "./adapter";
import { commandInputOf, rewriteVerified, rewrittenInput, sandboxStep, type RewriteContext } from "./sandboxRewrite";

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
  return { decision: d.decision, reason: `Toolgate: ${d.reason} [${d.rule}]`, rule: d.rule };
}

function inPlanMode(policy: Policy): Policy {
  return { ...policy, loaded: { ...policy.loaded, settings: { ...policy.loaded.settings, mode: "plan" } } };
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

/** What the per-call steps after the gate need. */
interface Step {
  readonly flags: ParsedFlags;
  readonly env: NodeJS.ProcessEnv;
  readonly ctx: RewriteContext;
  /**
   * `one`: one agent call is one gate call, so a rewritten input can stand for it. `each`: every gate call is
   * one command of the agent's list (`CommandRewrite.commandListInput`), each rewritten on its own and the list
   * put back together only if all of them are. `none`: nothing is rewritten.
   */
  readonly rewrite: "one" | "each" | "none";
}

/** The hook's answer with the gate's decision it came from (absent when nothing reached the gate, or several did). */
interface Verdict {
  readonly answer: HookAnswer;
  readonly judged?: Judged;
}

/**
 * The running Toolgate: this Node and this CLI entry (dist/cli.js), and the sandbox probe, remembered across
 * hook processes while it found the sandbox working (probeMemo.ts: `toolgate sandbox` probes afresh anyway).
 */
export function defaultRewriteContext(): RewriteContext {
  return {
    node: process.execPath,
    cli: nodePath.resolve(process.argv[1] ?? "dist/cli.js"),
    sandbox: () => probeSandboxRemembered(process.env),
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
  const decided = (await decideCall(adapter, call, flags, env, ctx)).answer;
  if (decided.decision !== "ask" || adapter.honoursAsk(call, flags, decided)) return decided;
  const why = call.mode !== undefined ? `${adapter.displayName} in ${call.mode}` : adapter.displayName;
  return {
    decision: "deny",
    reason: `${decided.reason} (refused, not asked: with ${why}, an ask would not reach you)`,
  };
}

/**
 * For `toolgate sandbox --decided-by-hook`: the same call decided again, exactly as the hook decided it (the
 * per-call step included); the caller compares the gate's grant and directory with the ones it was given.
 */
export async function redecideHookCommand(
  adapter: AgentAdapter,
  call: AgentCall,
  flags: ParsedFlags,
  env: NodeJS.ProcessEnv,
): Promise<{ readonly answer: HookAnswer; readonly judged?: Judged }> {
  const v = await decideCall(adapter, call, flags, env, defaultRewriteContext());
  return { answer: v.answer, ...(v.judged ? { judged: v.judged } : {}) };
}

async function decideCall(
  adapter: AgentAdapter,
  call: AgentCall,
  flags: ParsedFlags,
  env: NodeJS.ProcessEnv,
  ctx: RewriteContext,
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
  // The agent's read-only mode only ever tightens: plan is the strictest of Toolgate's modes.
  if (adapter.readOnlyMode?.(call) === true) policy = inPlanMode(policy);
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
  const calls: readonly MappedCall[] = mapped.kind === "call" ? [{ call: mapped.call }] : mapped.calls;
  if (calls.length === 0)
    return { answer: refuse(`${adapter.displayName}'s \`${call.toolName}\` call names nothing to decide`) };
  for (const { call: c } of calls) {
    const server = c.params.server_name;
    if ((c.tool === "use_mcp_tool" || c.tool === "access_mcp_resource") && typeof server === "string")
      policy = withServer(policy, server, adapter.name);
  }
  // The grammar loads only when a call runs a command (a hook answering a file read never loads it).
  const forCall = (calls.find((c) => c.call.tool === "execute_command") ?? calls[0]!).call;
  const gate = await gateFor(policy, { headless: false, forCall });
  // A rewrite replaces the agent's whole input: where one agent call is one gate call, or (all or none) where
  // each gate call is one command of the agent's list.
  const listable =
    adapter.commandRewrite?.commandListInput !== undefined && calls.every((c) => c.call.tool === "execute_command");
  const rewrite = mapped.kind === "call" ? "one" : listable ? "each" : "none";
  const decided = decideInSession(adapter, call, calls, gate, policy, { flags, env, ctx, rewrite });
  if (rewrite !== "each" || decided.answer.decision !== "allow" || decided.answer.updatedInput !== undefined)
    return decided;
  // Allowed, but not every command was rewritten: all of them run as the agent runs them, checked as such.
  return decideInSession(adapter, call, calls, gate, policy, { flags, env, ctx, rewrite: "none" });
}

const STRICTNESS: Readonly<Record<HookAnswer["decision"], number>> = { allow: 0, ask: 1, deny: 2 };

/**
 * The checks that belong to agents that run an allowed call themselves (not through Toolgate's executor), after
 * the gate's answer `a` for one of the agent's calls.
 */
function agentChecks(
  adapter: AgentAdapter,
  agentCall: AgentCall,
  c: MappedCall,
  d: Judged,
  gate: Gate,
  policy: Policy,
  step: Step,
): HookAnswer {
  const a = answer(d);
  if (d.decision === "deny") return a;
  // A hard ask of the adapter's outranks an allow and a soft ask alike (an agent may run soft asks unasked).
  if (c.hardAsk !== undefined) {
    const also = d.decision === "ask" ? ` (also: ${d.reason} [${d.rule}])` : "";
    return {
      decision: "ask",
      reason: `Toolgate: ${c.hardAsk}${also} [hook:${adapter.name}]`,
      rule: `hook:${adapter.name}`,
    };
  }
  if (d.decision !== "allow") return a;
  // The sandbox rewrite, the agent's own rules and a required sandbox (sandboxRewrite.ts), for commands. A wrapped
  // command runs in the sandbox with a scrubbed environment: the environment check below is not for it.
  const rewriter: AgentAdapter = step.rewrite !== "none" ? adapter : { ...adapter, commandRewrite: undefined };
  // One of a list: rewritten as the agent's call of that one command (what --decided-by-hook decides again).
  const line = d.resolved?.command?.line;
  const field = adapter.commandRewrite?.commandField(agentCall.toolName);
  const own =
    step.rewrite === "each" && line !== undefined && field !== undefined && adapter.commandRewrite !== undefined
      ? { ...agentCall, toolInput: commandInputOf(adapter.commandRewrite, field, line) }
      : agentCall;
  const stepped = sandboxStep(rewriter, own, step.flags, a, d, policy.loaded.values, step.env, step.ctx);
  if (stepped.decision !== "allow") return stepped;
  // Wrapped by a version that is verified to apply the rewrite: it runs sandboxed, its environment scrubbed.
  const rw = rewriter.commandRewrite;
  if (stepped.updatedInput !== undefined && rw !== undefined && rewriteVerified(rw, agentCall)) return stepped;
  // The agent's search reads what it finds, ignored files included: the gate's allow covers only its folder.
  if (c.call.tool === "search_files" && adapter.searchReadsIgnored === true) {
    const file = policy.loaded.settings.ignoreFile;
    if (agentCall.workspaces.some((_, i) => gate.ignore.hasRules(i)))
      return {
        decision: "ask",
        reason: `Toolgate: ${adapter.displayName}'s search reads every file in the folder, the ones ${file} excludes included [hook:search-ignored]`,
        rule: "hook:search-ignored",
      };
  }
  // The agent runs an allowed command itself (unwrapped, or wrapped by a version not verified to apply the
  // rewrite) with its own environment, API keys included, and its output goes to the model: a line that could
  // print that environment is the person's call.
  const printsEnv = d.resolved?.command?.readsEnvironment;
  if (printsEnv === undefined) return stepped;
  return {
    decision: "ask",
    reason: `Toolgate: ${printsEnv}; ${adapter.displayName} may run it with its own environment, API keys included, and the output goes to the model [hook:environment]`,
    rule: "hook:environment",
  };
}

/**
 * The decision with the session's taint (hookTaint.ts): decided as in a task that read what the session read;
 * a call that will bring someone else's content in marks the session before it is let through (allow, or an
 * ask the person may approve). If that mark cannot be written the call is refused: its result would enter
 * unrecorded. Several calls: each decided, the strictest answer (the first of equals) is the answer.
 */
function decideInSession(
  adapter: AgentAdapter,
  agentCall: AgentCall,
  calls: readonly MappedCall[],
  gate: Gate,
  policy: Policy,
  step: Step,
): { readonly answer: HookAnswer; readonly judged?: Judged } {
  const env = step.env;
  const taintedBy = activeSources(readSessionTaint(hookStateDir(env), adapter.name, agentCall.sessionId));
  let worst: HookAnswer | undefined;
  let last: Judged | undefined;
  let recordable = false;
  const rewritten: Readonly<Record<string, unknown>>[] = [];
  for (const c of calls) {
    const call = c.call;
    const d = gate.decide(taintedBy.length > 0 ? { ...call, facts: { ...call.facts, taintedBy } } : call);
    last = d;
    const a = agentChecks(adapter, agentCall, c, d, gate, policy, step);
    if (a.updatedInput !== undefined) rewritten.push(a.updatedInput);
    const server = call.tool === "use_mcp_tool" ? String(call.params.server_name) : undefined;
    const trusted = server !== undefined && mcpServerTrusted(policy.loaded.settings.mcpServers, server);
    if (!trusted) recordable = true;
    if (worst === undefined || STRICTNESS[a.decision] > STRICTNESS[worst.decision]) worst = a;
  }
  if (worst === undefined || last === undefined) return { answer: refuse("nothing to decide") };
  const source = adapter.source(agentCall);
  if (worst.decision !== "deny" && source !== undefined && recordable) {
    const refused = recordSource(adapter, agentCall, source, env);
    if (refused) return { answer: refused };
  }
  if (step.rewrite === "each") {
    // Every command rewritten, or none: the caller decides a partly rewritten list again without the rewrite.
    const { updatedInput: _one, ...plain } = worst;
    const rw = adapter.commandRewrite;
    const field = rw?.commandField(agentCall.toolName);
    if (worst.decision !== "allow" || rewritten.length !== calls.length || !rw?.commandListInput || !field)
      return { answer: plain };
    const updatedInput = rewrittenInput(rw, agentCall.toolInput, field, rw.commandListInput(rewritten));
    return { answer: { ...plain, updatedInput } };
  }
  return { answer: worst, ...(calls.length === 1 ? { judged: last } : {}) };
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
