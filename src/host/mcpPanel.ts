/**
 * The MCP view model and the rewrite of `toolgate.mcpServers` for the panel's toggles.
 *
 * Settings are the single source of truth for "always allow" and "enabled": the view reads them from the
 * user-scope setting, and the hub (when connected) only contributes status, errors and the tool list. A toggle
 * rewrites only `alwaysAllow`, `disabledTools` or `disabled` of one server and keeps every other field as the
 * person wrote it.
 */
import type { McpChange, McpServerView, McpToolView, McpView, RuleEntry } from "../shared/protocol";
import type { McpServerSummary } from "../agent/mcp/types";
import type { McpServerStatus, McpStatusSource } from "./taskSession";

/** Past this many enabled tools, models pick tools badly; the panel warns. */
export const MCP_TOOL_WARNING = 60;

export const NOT_STARTED = "Not started: the agent runtime is not connected yet.";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const names = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function serverView(name: string, cfg: Obj | undefined, live: McpServerStatus | undefined): McpServerView {
  const allow = names(cfg?.alwaysAllow);
  const disabledTools = names(cfg?.disabledTools);
  const alwaysAllowAll = allow.includes("*");
  const fromCfg = (tool: string, fallback?: { alwaysAllow: boolean; enabled: boolean }) =>
    cfg
      ? { alwaysAllow: alwaysAllowAll || allow.includes(tool), enabled: !disabledTools.includes(tool) }
      : (fallback ?? { alwaysAllow: false, enabled: true });

  if (live) {
    const tools: McpToolView[] = live.tools.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.readOnlyHint !== undefined ? { readOnlyHint: t.readOnlyHint } : {}),
      ...(t.destructiveHint !== undefined ? { destructiveHint: t.destructiveHint } : {}),
      ...fromCfg(t.name, t),
    }));
    // The hub hides disabled tools; list them anyway so they can be enabled again from here.
    const listed = new Set(tools.map((t) => t.name));
    for (const name of disabledTools)
      if (!listed.has(name)) tools.push({ name, alwaysAllow: alwaysAllowAll || allow.includes(name), enabled: false });
    const status = cfg?.disabled === true ? "disabled" : live.status;
    return {
      name,
      status,
      ...((status === "error" || status === "disconnected") && live.error ? { error: live.error } : {}),
      alwaysAllowAll,
      tools,
    };
  }
  // Without a hub we know only what settings name: tools listed in alwaysAllow or disabledTools.
  const known = [...new Set([...allow.filter((t) => t !== "*"), ...disabledTools])].sort();
  const tools = known.map((t) => ({ name: t, ...fromCfg(t) }));
  if (cfg?.disabled === true) return { name, status: "disabled", alwaysAllowAll, tools };
  return { name, status: "error", error: NOT_STARTED, alwaysAllowAll, tools };
}

/**
 * The MCP tab's model. `rulesFor` (rememberedRules' forMcpTool) lists, per tool, every rule that applies to it
 * (denies, asks, allows, each with its layer), so the tab can say a denied tool is refused and revoke each rule.
 */
export function mcpView(
  config: Obj,
  source: McpStatusSource | undefined,
  rulesFor?: (server: string, tool: string) => readonly RuleEntry[],
): McpView {
  const view = mcpServersView(config, source);
  if (!rulesFor) return view;
  return {
    ...view,
    servers: view.servers.map((s) => ({
      ...s,
      tools: s.tools.map((t) => ({ ...t, rules: rulesFor(s.name, t.name) })),
    })),
  };
}

function mcpServersView(config: Obj, source: McpStatusSource | undefined): McpView {
  const servers: McpServerView[] = [];
  const seen = new Set<string>();
  for (const live of source?.servers ?? []) {
    seen.add(live.name);
    const cfg = config[live.name];
    servers.push(serverView(live.name, isObj(cfg) ? cfg : undefined, live));
  }
  for (const [name, cfg] of Object.entries(config)) {
    if (seen.has(name)) continue;
    const view = serverView(name, isObj(cfg) ? cfg : undefined, undefined);
    // A live hub that does not report a configured, enabled server: say so rather than "not started".
    servers.push(source && view.status === "error" ? { ...view, error: "Not reported by the MCP hub." } : view);
  }
  return { servers, live: source !== undefined };
}

/**
 * The hub's server summaries as panel status. The hub lists only enabled tools; always-allow and enabled come
 * from settings in `mcpView`, so the values here are placeholders.
 */
export function statusFromHub(summaries: readonly McpServerSummary[]): McpServerStatus[] {
  return summaries.map((s) => ({
    name: s.name,
    status: s.status,
    ...(s.error !== undefined ? { error: s.error } : {}),
    tools: s.tools.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      ...(t.readOnlyHint !== undefined ? { readOnlyHint: t.readOnlyHint } : {}),
      ...(t.destructiveHint !== undefined ? { destructiveHint: t.destructiveHint } : {}),
      alwaysAllow: false,
      enabled: true,
    })),
  }));
}

/** Enabled tools of enabled servers: the count the 60-tool warning is about. */
export function enabledToolCount(view: McpView): number {
  let n = 0;
  for (const s of view.servers) if (s.status !== "disabled") for (const t of s.tools) if (t.enabled) n++;
  return n;
}

/**
 * The new `toolgate.mcpServers` after one toggle. `knownTools` is the server's current tool list: unticking one
 * tool while `alwaysAllow` holds `*` expands `*` into the other tools, so nothing else silently loses approval
 * and the unticked tool really stops being auto-approved.
 */
export function applyMcpChange(config: Obj, change: McpChange, knownTools: readonly string[]): Obj {
  const current = config[change.server];
  if (!isObj(current)) throw new Error(`There is no MCP server named "${change.server}" in your user settings.`);
  const server: Obj = { ...current };
  const allow = names(server.alwaysAllow);
  const disabledTools = names(server.disabledTools);
  switch (change.kind) {
    case "toolAlwaysAllow": {
      if (change.value) {
        if (!allow.includes("*") && !allow.includes(change.tool)) server.alwaysAllow = [...allow, change.tool];
      } else if (allow.includes("*")) {
        const expanded = new Set([...allow.filter((t) => t !== "*"), ...knownTools]);
        expanded.delete(change.tool);
        server.alwaysAllow = [...expanded];
      } else {
        server.alwaysAllow = allow.filter((t) => t !== change.tool);
      }
      break;
    }
    case "toolEnabled":
      server.disabledTools = change.value
        ? disabledTools.filter((t) => t !== change.tool)
        : [...new Set([...disabledTools, change.tool])];
      break;
    case "serverAlwaysAllowAll":
      // Turning "all" off keeps the tools ticked one by one.
      server.alwaysAllow = change.value ? [...new Set([...allow, "*"])] : allow.filter((t) => t !== "*");
      break;
    case "serverEnabled":
      if (change.value) delete server.disabled;
      else server.disabled = true;
      break;
  }
  return { ...config, [change.server]: server };
}

/**
 * The new `toolgate.mcpServers` with one tool added to (or removed from) a server's `alwaysAllow`, every other
 * field and server as written. Refuses, rather than rewrites, a malformed value: a settings object that is not
 * an object, an unknown server, an `alwaysAllow` that is not a list of strings.
 */
export function withAlwaysAllow(config: Obj, server: string, tool: string, add: boolean): Obj {
  const current = Object.prototype.hasOwnProperty.call(config, server) ? config[server] : undefined;
  if (!isObj(current)) throw new Error(`There is no MCP server named "${server}" in your user settings.`);
  const allow = current.alwaysAllow;
  if (allow !== undefined && !(Array.isArray(allow) && allow.every((t) => typeof t === "string")))
    throw new Error(`The alwaysAllow of MCP server "${server}" is not a list of tool names; fix it in settings.json.`);
  const list = (allow as string[] | undefined) ?? [];
  if (add) return list.includes(tool) ? config : { ...config, [server]: { ...current, alwaysAllow: [...list, tool] } };
  if (!list.includes(tool)) throw new Error(`"${tool}" is no longer in the alwaysAllow of "${server}".`);
  return { ...config, [server]: { ...current, alwaysAllow: list.filter((t) => t !== tool) } };
}
