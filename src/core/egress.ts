/**
 * The ways out of a task (DESIGN, "Untrusted content in, data out needs a person"): the calls that can send
 * data somewhere else. While a task is tainted each is a hard ask, in every mode, unless an allow rule names
 * that very destination. A switch (webFetch, useMcp, `alwaysAllow`, approve-all, auto mode) never does.
 */
import type { CommandVerdict } from "./commands/types";
import type { PermissionRule } from "./permissionRules";
import type { CommandTarget, McpTarget, UrlTarget } from "./resolvedCall";
import type { ToolName } from "./types";

export interface EgressCall {
  readonly tool: ToolName;
  readonly url?: UrlTarget;
  readonly mcp?: McpTarget;
  readonly command?: CommandTarget;
  /** The command analysis' verdict, for commands. */
  readonly verdict?: CommandVerdict;
  /** Commands: the caller knows an auto-approved command would run inside a working OS sandbox. */
  readonly commandSandboxed?: boolean;
}

function shortLine(line: string): string {
  const one = line.replace(/\s+/g, " ").trim();
  return one.length > 60 ? one.slice(0, 59) + "…" : one;
}

/**
 * Where the call could send data, in words, or undefined when it is not a way out.
 * - `web_fetch`: any host (the request itself carries data: path, query, headers).
 * - MCP tools: annotated `openWorldHint: true`, or not annotated (the default of the MCP spec is open world);
 *   only `openWorldHint: false` keeps a tool inside.
 * - commands: a grant with hosts; or a line the analysis does not judge safe that may run outside the sandbox
 *   (so without a sandbox, safe reads still run).
 */
export function egressDestination(c: EgressCall): string | undefined {
  if (c.tool === "web_fetch") return c.url?.host || c.url?.href || "the web";
  if (c.tool === "use_mcp_tool") {
    if (c.mcp?.openWorldHint === false) return undefined;
    const name = `${c.mcp?.server ?? "?"}/${c.mcp?.tool ?? "?"}`;
    return c.mcp?.openWorldHint === true ? name : `${name} (not annotated openWorldHint: false)`;
  }
  if (c.command && (c.tool === "execute_command" || c.tool === "attempt_completion")) {
    const hosts = c.command.grant?.hosts ?? [];
    if (hosts.length > 0) return hosts.join(", ");
    if (c.commandSandboxed !== true && c.verdict !== "safe")
      return `wherever \`${shortLine(c.command.line)}\` reaches (it may run outside the sandbox)`;
  }
  return undefined;
}

/**
 * Whether an allow rule names a destination rather than a whole tool: `WebFetch(domain:docs.python.org)` or
 * `WebFetch(https://x/*)` do, `WebFetch`, `WebFetch(*)` and `WebFetch(**)` do not; `mcp__srv__tool` does,
 * `mcp__srv__*` does not. Command rules are not looked at: a command's destinations are its grant's hosts,
 * which only the person's click approves.
 */
export function namesDestination(rule: PermissionRule): boolean {
  if (rule.effect !== "allow") return false;
  if (rule.mcp) return rule.mcp.tool !== "*" && rule.tools.includes("use_mcp_tool");
  if (!rule.tools.includes("web_fetch")) return false;
  const p = rule.pattern?.trim();
  if (p === undefined || p === "" || /^[*?/]*$/.test(p)) return false;
  if (p.startsWith("domain:")) return /[a-z0-9]/i.test(p.slice(7));
  return true;
}
