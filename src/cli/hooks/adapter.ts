/**
 * What one agent's hook protocol is, in the terms every agent shares. `toolgate hook <agent>` reads the agent's
 * JSON from stdin, lets its adapter turn it into an `AgentCall`, decides that with the one gate, and lets the
 * adapter write the agent's answer. Each agent is one module under `src/cli/hooks/` implementing `AgentAdapter`
 * and one line in the registry; nothing else in the decision knows which agent asked.
 *
 * Invariants every adapter keeps:
 * - `parse` carries over only the fields a decision hangs on; no other field of the input can change it.
 * - The workspace comes from the agent's own project variable or roots, never from `cwd` (the model moves
 *   `cwd` with `cd`); without one, the hook refuses ("workspace unknown").
 * - `honoursAsk` is false wherever the agent would accept an `ask` without a person, or hang, or has none: the
 *   decision loop then answers every ask with the agent's refusal and the reason.
 * - `render` of a refusal is the agent's own refusal shape (decided refusals: JSON and exit 0, except where the
 *   agent only blocks on an exit code).
 */
import type { ToolCall } from "../../core/types";
import type { FlagSpec, ParsedFlags } from "../args";

export type HookDecision = "allow" | "deny" | "ask";

/** One tool call as an agent's hook sent it. */
export interface AgentCall {
  /** The project roots the agent names; empty → the hook refuses with "workspace unknown". */
  readonly workspaces: readonly string[];
  /** The agent's working directory: relative paths and a command's start resolve against it, nothing else. */
  readonly cwd: string;
  /** The agent's own tool name, as sent. */
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  /** Keys the session's taint record (hookTaint.ts); absent when the agent sent none. */
  readonly sessionId?: string;
  /** The agent's permission mode or approval setting as sent, when its protocol carries one. */
  readonly mode?: string;
  /**
   * The MCP server and tool the agent itself says the call goes to, where its protocol names them apart from the
   * tool name (Gemini CLI's `mcp_context`): a joined name such as `mcp_a_b_c` cannot say where the server ends.
   */
  readonly mcp?: { readonly server: string; readonly tool: string };
  /**
   * The running agent's version, read from something the agent itself sets and the model cannot (Claude Code's
   * `AI_AGENT`, the Codex binary that started the hook); absent when the hook cannot tell. Only the sandbox
   * rewrite's verified-version check reads it.
   */
  readonly agentVersion?: string;
}

/** One of several calls an agent's single tool call makes (Cline's `run_commands` runs a list of commands). */
export interface MappedCall {
  readonly call: ToolCall;
  /**
   * Why this call needs a person even where the gate would allow it: something the agent does that Toolgate's
   * own executor never would (a command run with the agent's whole environment). An allow or an ask of the gate
   * becomes this (hard) ask; a deny stands.
   */
  readonly hardAsk?: string;
}

/** The agent's call in Toolgate's vocabulary. */
export type Mapped =
  /** A call the gate decides. */
  | { readonly kind: "call"; readonly call: ToolCall }
  /**
   * Several calls, all of which run if the agent's call is let through: each is decided and the strictest
   * answer wins (deny over ask over allow). Never empty.
   */
  | { readonly kind: "calls"; readonly calls: readonly MappedCall[] }
  /** A tool with no effect of its own (a sub-agent's own calls come through the hook): allowed. */
  | { readonly kind: "inert"; readonly reason: string }
  /** A tool Toolgate has no rule for, or one that schedules or persists work: a person decides. */
  | { readonly kind: "ask"; readonly reason: string }
  /** Input the tool cannot have meant: refused. */
  | { readonly kind: "malformed"; readonly reason: string };

export interface HookAnswer {
  readonly decision: HookDecision;
  /** For a person and the model, prefixed "Toolgate: ". */
  readonly reason: string;
  /** The rule or layer that decided (`Decision.rule`), when the gate decided: tells a hard ask from a soft one. */
  readonly rule?: string;
  /** The tool input to run instead (the sandbox rewrite); only with `allow`, only where the agent applies it. */
  readonly updatedInput?: Readonly<Record<string, unknown>>;
}

/** What the hook process writes and how it exits. */
export interface Rendered {
  readonly stdout: string;
  readonly stderr?: string;
  readonly exitCode: number;
}

export interface AgentAdapter {
  /** The name after `toolgate hook` (`claude-code`, `gemini-cli`, `cline`, `codex`, `cursor`). */
  readonly name: string;
  /** The agent as a person calls it (`Claude Code`). */
  readonly displayName: string;
  /** `toolgate hook <name> --help`. */
  readonly usage: string;
  /** Flags of this agent beyond the settings flags (`--headless` for Gemini CLI). */
  readonly flags?: FlagSpec;
  parse(
    text: string,
    env: NodeJS.ProcessEnv,
    flags: ParsedFlags,
  ): { readonly ok: true; readonly call: AgentCall } | { readonly ok: false; readonly reason: string };
  map(call: AgentCall): Mapped;
  /**
   * False where an `ask` would be accepted without a person, hang, or not exist: every ask then refuses.
   * `answer` is the ask itself (with its `rule`), for agents that honour only some asks.
   */
  honoursAsk(call: AgentCall, flags: ParsedFlags, answer: HookAnswer): boolean;
  /**
   * True where the agent's own mode withholds every change (Claude Code's `plan`): the gate then decides in
   * Toolgate's plan mode, so the hook never allows what that mode withholds. Absent: false.
   */
  readOnlyMode?(call: AgentCall): boolean;
  /**
   * True where the agent's own content search (Gemini CLI's `grep_search`) reads every file under its folder,
   * the ones Toolgate's ignore file excludes included (Toolgate's own `search_files` skips them; the agent's does
   * not): an allowed search then asks while any root has ignore rules. Absent: false.
   */
  readonly searchReadsIgnored?: boolean;
  /** The source of someone else's content this call brings into the session once it runs (taint), if any. */
  source(call: AgentCall): string | undefined;
  /** The agent's answer; a refusal in the agent's own refusal shape. */
  render(answer: HookAnswer): Rendered;
  /**
   * Where the agent applies a rewritten tool input (`updatedInput`): how its command tools are rewritten to run
   * inside Toolgate's sandbox (sandboxRewrite.ts). Absent: the agent cannot be rewritten, so a command runs
   * unsandboxed with the agent's environment, and while the sandbox is required no command is allowed.
   */
  readonly commandRewrite?: CommandRewrite;
}

/** What the sandbox rewrite needs to know about one agent (see sandboxRewrite.ts). */
export interface CommandRewrite {
  /** The `tool_input` field holding the command line, for each of the agent's tools that run one. */
  commandField(toolName: string): string | undefined;
  /**
   * The input fields that carry `line` (absent: `{[commandField]: line}`), both in the rewritten input and in the
   * call `toolgate sandbox --decided-by-hook` decides again.
   */
  commandInput?(line: string): Record<string, unknown>;
  /**
   * Where one tool call runs a list of commands (Cline's `run_commands`): the rewritten inputs of each command
   * (each `commandInput` of its wrapped line) as the one input that runs them all. Absent: a list is not
   * rewritten.
   */
  commandListInput?(each: readonly Readonly<Record<string, unknown>>[]): Record<string, unknown>;
  /** Fields dropped from a rewritten input: they would let the command leave the sandbox. */
  readonly dropFields: readonly string[];
  /**
   * The agent versions whose application of a rewritten input the real-agent suite's sentinel test checked
   * (`AgentCall.agentVersion` must be one). Otherwise an allow that holds only because the sandbox bounds the
   * command is not given, and a required sandbox allows no command.
   */
  readonly verifiedVersions: readonly string[];
  /**
   * The agent's own deny/ask rules that name the ORIGINAL line (the rewritten one no longer matches them), or
   * an ask when they cannot be read.
   */
  ownRules?(
    call: AgentCall,
    line: string,
    env: NodeJS.ProcessEnv,
  ): { readonly decision: "deny" | "ask"; readonly reason: string } | undefined;
}
