/**
 * Every remembered rule in one list, for the Rules view and the MCP tab, and their removal.
 *
 * Sources, in the order shown: the current task's memory, Toolgate's workspace storage, the user settings
 * lists, each MCP server's `alwaysAllow`, a workspace's `.vscode/settings.json` (tighten only, read only
 * here) and the managed policy (read only: an administrator's rules cannot be removed by the person).
 * Removal goes through the same code that saves (RuleStore, SettingsBridge, withAlwaysAllow), removes only
 * the named entry, and refuses a list whose value is malformed instead of rewriting it.
 */
import { parseRule, ruleMatches } from "../core/permissionRules";
import { managedLayers } from "../core/settingsFiles";
import type { SettingsLayer } from "../core/settingsLayers";
import { TIGHTEN_ONLY_KEYS } from "../core/settingsModel";
import type { RuleEntry, RuleRef, RulesView } from "../shared/protocol";
import { withAlwaysAllow } from "./mcpPanel";
import { USER_KEY, type RuleList, type RuleStore } from "./rememberedRules";
import { SECTION, SettingKey, type SettingsBridge } from "./settingsBridge";

type UserList = RuleList | "permissionsAsk";
type Effect = RuleEntry["effect"];

const USER_LISTS: readonly UserList[] = [
  "commandsAllow",
  "commandsDeny",
  "permissionsAllow",
  "permissionsAsk",
  "permissionsDeny",
];
const SAVED_LISTS: readonly RuleList[] = ["commandsAllow", "commandsDeny", "permissionsAllow", "permissionsDeny"];

const KEY: Readonly<Record<UserList, SettingKey>> = { ...USER_KEY, permissionsAsk: SettingKey.permissionsAsk };

function effectOf(list: UserList): Effect {
  if (list === "permissionsAsk") return "ask";
  return list.endsWith("Allow") ? "allow" : "deny";
}

const fullKey = (list: UserList) => `${SECTION}.${KEY[list]}`;
const shortKey = (list: UserList) => KEY[list];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export interface RulesSources {
  readonly rules: RuleStore;
  readonly settings: SettingsBridge;
  /** The current task, whose memory holds the "this task" rules. */
  readonly taskId?: string;
  /** The managed policy layers; default: the policy files every surface reads. */
  readonly managed?: () => readonly SettingsLayer[];
}

export function defaultManaged(): readonly SettingsLayer[] {
  return managedLayers().layers;
}

/** One listed rule and what matching needs to know of it: its list, and for alwaysAllow its server. */
interface Listed {
  readonly entry: RuleEntry;
  readonly list: UserList | "alwaysAllow";
  readonly server?: string;
  /** False for the person's entries of a list the managed policy replaces. */
  readonly inEffect: boolean;
}

export interface RememberedRules {
  readonly view: RulesView;
  /**
   * Every rule that applies to one MCP tool, denies first, then asks, then allows (as the gate weighs them):
   * each permission deny, ask and allow rule the gate would match against a call of it (`mcp__server__tool`,
   * `mcp__server`, `use_mcp_tool`), from every layer, and its server's alwaysAllow entries naming it (or `*`).
   */
  forMcpTool(server: string, tool: string): RuleEntry[];
}

/**
 * A managed policy that sets a list which is not tighten-only (an allow list, the MCP servers) fixes it: the
 * person's own entries are then not in effect, and the list says so rather than implying they are.
 */
function overriddenByPolicy(managed: readonly SettingsLayer[]): Set<string> {
  const out = new Set<string>();
  for (const layer of managed)
    if (isObj(layer.flat)) for (const k of Object.keys(layer.flat)) if (!TIGHTEN_ONLY_KEYS.includes(k)) out.add(k);
  return out;
}

const PERMISSION_LISTS: readonly Listed["list"][] = ["permissionsAllow", "permissionsAsk", "permissionsDeny"];
/** Deny beats ask beats allow: the order a tool's rules are listed in. */
const WEIGHT: Readonly<Record<Effect, number>> = { deny: 0, ask: 1, allow: 2 };

const NOT_IN_EFFECT = " — not in effect: the managed policy sets this list";

export function rememberedRules(src: RulesSources): RememberedRules {
  const managed = (src.managed ?? defaultManaged)();
  const fixed = overriddenByPolicy(managed);
  const listed: Listed[] = [];
  const errors: string[] = [];
  const add = (list: Listed["list"], entry: RuleEntry, server?: string) => {
    const key = list === "alwaysAllow" ? `${SECTION}.${SettingKey.mcpServers}` : fullKey(list);
    const mine = entry.source === "user" || entry.source === "mcpAlwaysAllow";
    const inEffect = !(mine && fixed.has(key));
    listed.push({
      entry: inEffect ? entry : { ...entry, where: entry.where + NOT_IN_EFFECT },
      list,
      inEffect,
      ...(server !== undefined ? { server } : {}),
    });
  };

  // The task's memory and Toolgate's workspace storage hold the same four lists.
  const stored = (
    source: "task" | "workspace",
    lists: Readonly<Record<RuleList, readonly string[]>>,
    where: string,
  ) => {
    for (const list of SAVED_LISTS)
      for (const rule of lists[list])
        add(list, {
          source,
          effect: effectOf(list),
          rule,
          where: `${where} (${shortKey(list)})`,
          ref: { source, list, rule },
        });
  };
  if (src.taskId !== undefined) stored("task", src.rules.taskList(src.taskId), "this task only");
  stored("workspace", src.rules.workspaceList(), "this workspace, in Toolgate's own storage");

  for (const list of USER_LISTS) {
    const r = src.settings.userRules(KEY[list]);
    if (!r.ok) errors.push(r.error);
    for (const rule of r.rules)
      add(list, {
        source: "user",
        effect: effectOf(list),
        rule,
        where: `${fullKey(list)} in your user settings`,
        // A malformed list is shown, but nothing in it can be removed from here (that would rewrite it).
        ...(r.ok ? { ref: { source: "user" as const, list, rule } } : {}),
      });
  }

  for (const [server, cfg] of Object.entries(src.settings.mcpServers())) {
    if (!isObj(cfg) || cfg.alwaysAllow === undefined) continue;
    const allow = cfg.alwaysAllow;
    const ok = Array.isArray(allow) && allow.every((t) => typeof t === "string");
    if (!ok)
      errors.push(`The alwaysAllow of MCP server "${server}" is not a list of tool names; fix it in settings.json`);
    for (const tool of strings(allow))
      add(
        "alwaysAllow",
        {
          source: "mcpAlwaysAllow",
          effect: "allow",
          rule: tool,
          where: `always allow of MCP server "${server}" (${SECTION}.${SettingKey.mcpServers} in your user settings)`,
          ...(ok ? { ref: { source: "mcpAlwaysAllow" as const, server, tool } } : {}),
        },
        server,
      );
  }

  for (const list of USER_LISTS)
    for (const rule of src.settings.workspaceRules(KEY[list]))
      add(list, {
        source: "workspaceSettings",
        effect: effectOf(list),
        rule,
        where: `${fullKey(list)} in this workspace's .vscode/settings.json (edit that file to change it)`,
      });

  for (const layer of managed) {
    const flat = isObj(layer.flat) ? layer.flat : {};
    for (const list of USER_LISTS)
      for (const rule of strings(flat[fullKey(list)]))
        add(list, {
          source: "managed",
          effect: effectOf(list),
          rule,
          where: `${fullKey(list)} in the managed policy (${layer.source})`,
        });
    const managedServers = flat[`${SECTION}.${SettingKey.mcpServers}`];
    if (!isObj(managedServers)) continue;
    for (const [server, cfg] of Object.entries(managedServers))
      for (const tool of isObj(cfg) ? strings(cfg.alwaysAllow) : [])
        add(
          "alwaysAllow",
          {
            source: "managed",
            effect: "allow",
            rule: tool,
            where: `always allow of MCP server "${server}" in the managed policy (${layer.source})`,
          },
          server,
        );
  }

  return {
    view: { rules: listed.map((l) => l.entry), errors },
    forMcpTool: (server, tool) =>
      listed
        .filter((l) => {
          if (!l.inEffect) return false;
          if (l.list === "alwaysAllow") return l.server === server && (l.entry.rule === tool || l.entry.rule === "*");
          if (!PERMISSION_LISTS.includes(l.list)) return false;
          const effect = l.entry.effect;
          const parsed = parseRule(l.entry.rule, effect, l.entry.source);
          // Allow rules match strictly, deny and ask rules on any spelling: as the gate matches them.
          return (
            parsed.ok && ruleMatches(parsed.rule, { tool: "use_mcp_tool", mcp: { server, tool } }, effect === "allow")
          );
        })
        .map((l) => l.entry)
        .sort((a, b) => WEIGHT[a.effect] - WEIGHT[b.effect]),
  };
}

/** Removes one rule from its own place. Throws with a person-readable message when it cannot. */
export async function removeRule(src: RulesSources, ref: RuleRef): Promise<void> {
  switch (ref.source) {
    case "task":
      if (src.taskId === undefined) throw new Error("There is no task whose rules could be removed.");
      return src.rules.remove("task", ref.list, ref.rule, src.taskId);
    case "workspace":
      return src.rules.remove("workspace", ref.list, ref.rule, "");
    case "user":
      return src.settings.removeUserRule(KEY[ref.list], ref.rule);
    case "mcpAlwaysAllow":
      return src.settings.updateMcpServers(withAlwaysAllow(src.settings.mcpServers(), ref.server, ref.tool, false));
  }
}
