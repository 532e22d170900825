import type { ResolvedPath } from "./paths";
import type { SandboxGrant } from "./sandbox/grant";
import type { Decision, ToolName } from "./types";

/**
 * The call the gate judged, as it will run: canonical MCP names, the realpath of the path parameter, the
 * normalised URL with the addresses it was judged for, and a command's shell, working directory and
 * environment. Handlers take nothing else, so no handler can run parameters the gate did not see.
 *
 * The brand is a type-only symbol: no value of this type can be written as a literal, and only the gate
 * (src/core/gate.ts) casts to it. A cast anywhere else is a review finding.
 */
declare const RESOLVED: unique symbol;

export interface McpTarget {
  readonly server: string;
  /** The tool as it will be called (repaired against the server's tool list); undefined for resources. */
  readonly tool?: string;
  /** False when the server's tool list was not known (server not started): the name is as written. */
  readonly listed: boolean;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  /** `false`: the tool touches nothing outside the server; absent or true: it may reach the world (a way out). */
  readonly openWorldHint?: boolean;
  /** The local files a resource URI may name (`file:`), each judged as read_file's path; empty for others. */
  readonly files?: readonly ResolvedPath[];
}

export interface UrlTarget {
  /** `new URL(url).href`. */
  readonly href: string;
  /** Hostname without brackets, lower-case. */
  readonly host: string;
  /** The addresses the decision covered (undefined: the name was not resolved before deciding). */
  readonly addresses?: readonly string[];
}

export interface CommandTarget {
  readonly line: string;
  /** Always bash: the analysis models bash, so nothing else may run the line. */
  readonly shell: "bash";
  readonly cwd: string;
  /** The analysis judged every part read-only (no writes, no state change): nothing to checkpoint before it. */
  readonly readOnly?: boolean;
  /**
   * What the OS sandbox lets this line do (see sandbox/grant.ts), decided with the verdict. The runner builds
   * the sandbox from it and nothing else; absent only on calls built before grants existed (treated as
   * `workspace-write` with no hosts, today's behaviour).
   */
  readonly grant?: SandboxGrant;
  /**
   * The person may run it outside the OS sandbox by a click ("Run outside the sandbox"): never in plan mode,
   * nor for a line whose `/tmp` paths were judged as the sandbox's private `/tmp` (`privateTmp`).
   */
  readonly mayRunOutside?: boolean;
  /**
   * Real paths outside the workspace the line reads, as the card names them. Only the person's approval of
   * this call binds them read-only into its sandbox (`SandboxGrant.readPaths`); the gate never does.
   */
  readonly outsideReads?: readonly string[];
  /**
   * Paths under `/tmp` the gate judged as the sandbox's private `/tmp` (only for a line that will run in a
   * sandbox with one): run outside the sandbox, the line would use the host's `/tmp` there instead.
   */
  readonly privateTmp?: readonly string[];
  /**
   * The model asked to run it outside the OS sandbox (`sandbox: false`), for this reason. The gate only ever
   * asks for such a call; once the person approved it, it runs unsandboxed.
   */
  readonly leaveSandbox?: { readonly reason: string };
  /**
   * Why the line could print the environment it runs with (`CommandAnalysis.readsEnvironment`), if it could.
   * Only a caller that runs it outside the OS sandbox, with a full environment, decides on it (the hooks).
   */
  readonly readsEnvironment?: string;
}

export interface ResolvedCall {
  readonly [RESOLVED]: true;
  readonly tool: ToolName;
  /** The complete, validated parameters (MCP names replaced by their canonical form). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly path?: ResolvedPath;
  readonly mcp?: McpTarget;
  readonly url?: UrlTarget;
  readonly command?: CommandTarget;
}

/** What the gate builds a ResolvedCall from. */
export type ResolvedCallParts = Omit<ResolvedCall, typeof RESOLVED>;

/** A gate decision with the call it judged (absent when validation failed). The call is never shown or saved. */
export interface Judged extends Decision {
  readonly resolved?: ResolvedCall;
}

/** The decision alone, for the person's view and for history. */
export function publicDecision(d: Decision): Decision {
  const { resolved: _resolved, ...rest } = d as Judged;
  return rest;
}
