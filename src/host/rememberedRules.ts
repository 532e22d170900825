/**
 * Where "always allow / always deny" rules go:
 * - this task      → memory, dropped with the task;
 * - this workspace → the extension's `workspaceState` (never a file in the repository: a repository must not be
 *                    able to grant itself approvals);
 * - always         → user settings (`toolgate.commands.allow|deny`, `toolgate.permissions.allow|deny`); except
 *                    "always allow" of one MCP tool, which ticks it in its server's `alwaysAllow` (the list the MCP
 *                    tab shows), so there is one place that says a tool runs unasked. "Always deny" of an MCP
 *                    tool stays a deny rule: alwaysAllow has no deny.
 */
import { parseRule } from "../core/permissionRules";
import type { RuleScope } from "../shared/protocol";
import { withAlwaysAllow } from "./mcpPanel";
import { SECTION, SettingKey, StorageKey, type SettingsBridge } from "./settingsBridge";
import type { ExtraRules } from "./taskSession";

export type RuleList = keyof ExtraRules;

export interface RuleTarget {
  readonly list: RuleList;
  readonly rule: string;
}

/** The slice of `vscode.Memento` used here. */
export interface StateStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

const PERMISSION_RULE = /^[A-Za-z_][\w-]*(\(.*\))?$/s;

/**
 * Which list a suggested rule belongs in. A command call's suggestion is an argv prefix (`git log`) unless it
 * is written as a `Tool(pattern)` rule (`Bash(npm test)`); every other tool's suggestion is a permission rule
 * (`read_file(src/**)`, `mcp__server__tool`). Blank or multi-line suggestions are refused: a rule that spans
 * lines is not something a person can read on the card.
 */
export function ruleTarget(
  toolName: string,
  suggestion: string | undefined,
  effect: "allow" | "deny",
): RuleTarget | undefined {
  const rule = suggestion?.trim();
  if (!rule || /[\r\n]/.test(rule)) return undefined;
  const isCommandTool = toolName === "execute_command" || toolName === "attempt_completion";
  const isPermission = isCommandTool ? /^[A-Za-z_][\w-]*\(.*\)$/s.test(rule) : PERMISSION_RULE.test(rule);
  if (!isCommandTool && !isPermission) return undefined;
  if (isPermission) return { list: effect === "allow" ? "permissionsAllow" : "permissionsDeny", rule };
  return { list: effect === "allow" ? "commandsAllow" : "commandsDeny", rule };
}

export const USER_KEY: Record<RuleList, SettingKey> = {
  commandsAllow: SettingKey.commandsAllow,
  commandsDeny: SettingKey.commandsDeny,
  permissionsAllow: SettingKey.permissionsAllow,
  permissionsDeny: SettingKey.permissionsDeny,
};

type MutableRules = { [K in RuleList]: string[] };

function emptyRules(): MutableRules {
  return { commandsAllow: [], commandsDeny: [], permissionsAllow: [], permissionsDeny: [] };
}

function readRules(v: unknown): MutableRules {
  const out = emptyRules();
  if (typeof v !== "object" || v === null) return out;
  for (const list of Object.keys(out) as RuleList[]) {
    const items = (v as Record<string, unknown>)[list];
    if (Array.isArray(items)) out[list] = items.filter((x): x is string => typeof x === "string");
  }
  return out;
}

export class RuleStore {
  private readonly taskRules = new Map<string, MutableRules>();

  constructor(
    private readonly workspaceState: StateStore,
    private readonly settings: SettingsBridge,
  ) {}

  /** Saves a rule; returns where it went (for the log). */
  async save(scope: RuleScope, target: RuleTarget, taskId: string): Promise<string> {
    switch (scope) {
      case "task": {
        const rules = this.taskRules.get(taskId) ?? emptyRules();
        if (!rules[target.list].includes(target.rule)) rules[target.list].push(target.rule);
        this.taskRules.set(taskId, rules);
        return target.list;
      }
      case "workspace": {
        const rules = readRules(this.workspaceState.get(StorageKey.workspaceRules));
        if (rules[target.list].includes(target.rule)) return target.list;
        rules[target.list].push(target.rule);
        await this.workspaceState.update(StorageKey.workspaceRules, rules);
        return target.list;
      }
      case "user": {
        const mcp = target.list === "permissionsAllow" ? mcpToolOf(target.rule) : undefined;
        // `mcp__server` also covers the server's resources, which alwaysAllow does not: it stays a rule.
        if (mcp && mcp.tool !== "*") {
          const next = withAlwaysAllow(this.settings.mcpServers(), mcp.server, mcp.tool, true);
          await this.settings.updateMcpServers(next);
          return `${SECTION}.${SettingKey.mcpServers}.${mcp.server}.alwaysAllow`;
        }
        await this.settings.addUserRule(USER_KEY[target.list], target.rule);
        return target.list;
      }
    }
  }

  /** The rules saved for one task, per list. */
  taskList(taskId: string): ExtraRules {
    return this.taskRules.get(taskId) ?? emptyRules();
  }

  /** The rules saved for this workspace, per list. */
  workspaceList(): ExtraRules {
    return readRules(this.workspaceState.get(StorageKey.workspaceRules));
  }

  /** Removes a rule from one task's memory or the workspace storage; other entries are kept as they are. */
  async remove(scope: "task" | "workspace", list: RuleList, rule: string, taskId: string): Promise<void> {
    const rules =
      scope === "task" ? this.taskRules.get(taskId) : readRules(this.workspaceState.get(StorageKey.workspaceRules));
    if (!rules?.[list].includes(rule)) throw new Error(`"${rule}" is no longer saved for this ${scope}.`);
    rules[list] = rules[list].filter((r) => r !== rule);
    if (scope === "workspace") await this.workspaceState.update(StorageKey.workspaceRules, rules);
  }

  /** Task and workspace rules for one task (user rules are in settings and reach the gate from there). */
  extraRules(taskId: string): ExtraRules {
    const ws = readRules(this.workspaceState.get(StorageKey.workspaceRules));
    const task = this.taskRules.get(taskId) ?? emptyRules();
    const merged = emptyRules();
    for (const list of Object.keys(merged) as RuleList[]) merged[list] = [...new Set([...ws[list], ...task[list]])];
    return merged;
  }

  forgetTask(taskId: string): void {
    this.taskRules.delete(taskId);
  }
}

/** The MCP tool an allow rule names (`mcp__server__tool`; `mcp__server` and `mcp__server__*` name every tool). */
export function mcpToolOf(rule: string): { server: string; tool: string } | undefined {
  const r = parseRule(rule, "allow", "user");
  return r.ok && r.rule.mcp ? { server: r.rule.mcp.server, tool: r.rule.mcp.tool } : undefined;
}
