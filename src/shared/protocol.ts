/**
 * The host <-> webview messages. Type-only: host -> webview messages are defined here; webview -> host
 * messages are derived from their schemas in protocolSchema.ts (the host checks every message against them),
 * imported with `import type` so no schema code reaches the webview.
 *
 * Invariants:
 * - The host posts nothing to a webview before that webview sent `ready`; it queues until then. Every `ready`
 *   (first load, webview reload, window reload) is answered with a full `state` snapshot, after which only
 *   deltas follow. So the webview never needs to remember anything to recover.
 * - The webview is a view of host state: it renders what the host sent and sends intents. It never decides
 *   anything on its own (an approval only counts once the host's task accepted it).
 * - Requests that can fail carry a `requestId`; the host answers each with exactly one `result`.
 */
import type * as z from "zod/mini";
import type { MessageDelta, RestoreMarks, TaskMessage } from "./messages";
import type { Mode } from "../core/types";
import type { PresetName } from "./presets";
import type {
  AutoApproveActionSchema,
  FirstRunActionSchema,
  McpChangeSchema,
  PresetChoiceSchema,
  RememberRuleSchema,
  RuleRefSchema,
  RuleScopeSchema,
  SettingChangeSchema,
  WebviewToHostSchema,
} from "./protocolSchema";

export type { Mode };

// ---------------------------------------------------------------------------------------------------------
// State the host shares with the webview
// ---------------------------------------------------------------------------------------------------------

/** The fine-grained auto-approve actions (toolgate.autoApprove.actions). */
export type AutoApproveAction = z.infer<typeof AutoApproveActionSchema>;

/** What the panel shows of the settings: the values the gate uses (user scope, sanitised). */
export interface SettingsView {
  readonly mode: Mode;
  readonly autoApprove: {
    readonly enabled: boolean;
    readonly all: boolean;
    readonly actions: Readonly<Record<AutoApproveAction, boolean>>;
    readonly maxRequests: number;
    readonly maxCost: number;
  };
  /** `vscode.workspace.isTrusted`. When false nothing is auto-approved and the panel says so. */
  readonly workspaceTrusted: boolean;
  /** Malformed settings, in words. While there are any, the gate auto-approves nothing and the panel says so. */
  readonly errors: readonly string[];
  /** Loosening keys a workspace tried to set; they are ignored (a workspace may only tighten). */
  readonly ignoredWorkspaceKeys: readonly string[];
  /** Keybinding label of "toggle auto-approve", for display ("Ctrl+Alt+A"). */
  readonly toggleShortcut: string;
  /** Settings the administrator's managed policy fixes: shown disabled, "set by your administrator". */
  readonly locked?: readonly LockedSetting[];
  /** The most permissive mode the managed policy allows; the panel offers only the modes up to it. */
  readonly modeCeiling?: Mode;
  /** The OS sandbox around auto-approved commands: what this machine has and what the settings ask for. */
  readonly sandbox?: SandboxView;
  /** `toolgate.untrustedContent` as the gate reads it (absent: `ask`). */
  readonly untrustedContent?: "ask" | "off";
}

export interface SandboxView {
  readonly available: boolean;
  readonly mechanism: "bubblewrap" | "seatbelt" | "none";
  /** Unavailable: why, with the fix. Available: what was verified. */
  readonly reason: string;
  /** `toolgate.sandbox.mode` (malformed: read as "required"). */
  readonly mode: "auto" | "required" | "off";
  readonly network: "off" | "hosts";
  /** The sandbox settings are malformed (the sandbox is then required, without network). */
  readonly error?: string;
}

/** A panel control the managed policy fixes (the mode has a ceiling instead: `modeCeiling`). */
export type LockedSetting =
  | "autoApprove.enabled"
  | "autoApprove.all"
  | `autoApprove.action:${AutoApproveAction}`
  | "autoApprove.maxRequests"
  | "autoApprove.maxCost"
  | "untrustedContent";

/** The MCP hub's server states (src/agent/mcp/types.ts); "error" carries a message. */
export type McpServerState = "connecting" | "connected" | "disconnected" | "error" | "disabled";

export interface McpToolView {
  readonly name: string;
  readonly description?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly alwaysAllow: boolean;
  readonly enabled: boolean;
  /**
   * Every rule that applies to this tool, denies first, then asks, then allows, each saying where it lives
   * (task, workspace, user, workspace settings, managed policy, alwaysAllow). A deny refuses the tool whatever
   * `alwaysAllow` says; an ask makes it ask every time.
   */
  readonly rules?: readonly RuleEntry[];
}

export interface McpServerView {
  readonly name: string;
  readonly status: McpServerState;
  readonly error?: string;
  /** alwaysAllow holds `*`: every tool of this server, including tools it adds later. */
  readonly alwaysAllowAll: boolean;
  readonly tools: readonly McpToolView[];
}

export interface McpView {
  readonly servers: readonly McpServerView[];
  /** False until the agent runtime's MCP hub is connected: servers then come from settings only. */
  readonly live: boolean;
}

/**
 * A task session's state. The agent session (src/agent/session) maps its task's states onto these:
 * completed → done; failed and interrupted → error. Idle states (done, cancelled, error) accept a follow-up.
 */
export type TaskState = "running" | "waiting" | "done" | "cancelled" | "error";

export interface TaskView {
  readonly id: string;
  readonly state: TaskState;
  readonly messages: readonly TaskMessage[];
  /** Opened from the task history rather than started in this window. */
  readonly fromHistory?: boolean;
  /** False when a reply cannot continue this task (its conversation was not saved): the panel offers a new task. */
  readonly canContinue?: boolean;
  /** Rows the files were restored to (from the task's checkpoint record); absent: none, or not read yet. */
  readonly restoreMarks?: RestoreMarks;
  /** The untrusted sources the task has read and still count (the panel's chip); absent: none. */
  readonly untrustedSources?: readonly string[];
}

/** One past task in the history list (newest first). */
export interface HistoryItemView {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
  readonly state: TaskState;
  readonly costUsd: number;
}

/** Which model new tasks talk to, as the panel's model line and first-run card show it. */
export interface ModelView {
  /** False when no task could start: the panel shows the first-run card. */
  readonly configured: boolean;
  /** "OpenAI-compatible", "Anthropic", "VS Code language model", or "No model". */
  readonly provider: string;
  readonly model?: string;
  /** The server requests go to (HTTP providers). */
  readonly endpoint?: string;
  /** What is missing, in words ("No Anthropic API key"). */
  readonly problem?: string;
}

/** A preset's name, or null: keep the settings as they are. */
export type PresetChoice = z.infer<typeof PresetChoiceSchema>;

/** Buttons of the first-run card; each runs one host command. */
export type FirstRunAction = z.infer<typeof FirstRunActionSchema>;

export interface HostState {
  readonly task: TaskView | null;
  readonly settings: SettingsView;
  readonly mcp: McpView;
  /** False when no agent runtime is connected: "new task" cannot start anything yet, and the panel says so. */
  readonly agentAvailable: boolean;
  /** Every remembered rule, for the Rules view. */
  readonly rules?: RulesView;
  /** Past tasks, newest first (empty until the runtime's history is read). */
  readonly history?: readonly HistoryItemView[];
  /** The model new tasks use; absent until the host has looked. */
  readonly model?: ModelView;
  /** The first-run preset card is to be shown (once, or again from a command); absent otherwise. */
  readonly presetOffer?: PresetOffer;
}

/** What the first-run preset card shows: which preset is preselected, and whether the sandbox works here. */
export interface PresetOffer {
  /** "Sandboxed autonomy" when the sandbox works, else "Ask before changes". */
  readonly suggested: PresetName;
  readonly sandboxWorks: boolean;
  /** Why not, when it does not ("bubblewrap is not installed…"). */
  readonly sandboxReason?: string;
}

/**
 * Where a remembered rule lives: the current task's memory, Toolgate's workspace storage, a user settings list,
 * an MCP server's `alwaysAllow`, a workspace's `.vscode/settings.json` (tighten only) or the managed policy.
 */
export type RuleSource = "task" | "workspace" | "user" | "mcpAlwaysAllow" | "workspaceSettings" | "managed";

export interface RuleEntry {
  readonly source: RuleSource;
  readonly effect: "allow" | "ask" | "deny";
  /** The rule as saved (`git log`, `read_file(src/**)`, `mcp__github__search`); for alwaysAllow the tool or `*`. */
  readonly rule: string;
  /** Where it is kept, in words a person can find it by ("toolgate.permissions.allow in your user settings"). */
  readonly where: string;
  /** How to remove it; absent when it cannot be removed here (managed policy, a workspace settings file). */
  readonly ref?: RuleRef;
}

export interface RulesView {
  readonly rules: readonly RuleEntry[];
  /** Malformed values of the lists read: shown as errors, never rewritten by a removal. */
  readonly errors: readonly string[];
}

// ---------------------------------------------------------------------------------------------------------
// Host -> webview
// ---------------------------------------------------------------------------------------------------------

export type HostToWebview =
  /** The full state, always the answer to `ready`. Replaces everything the webview holds. */
  | { readonly type: "state"; readonly state: HostState }
  /** Deltas of the current task, coalesced by the host (one post per ~frame). Apply in order. */
  | { readonly type: "deltas"; readonly taskId: string; readonly deltas: readonly MessageDelta[] }
  /** A new task started, a task ended, or it was cleared. */
  | { readonly type: "task"; readonly task: TaskView | null }
  | { readonly type: "taskState"; readonly taskId: string; readonly state: TaskState }
  | { readonly type: "taskTaint"; readonly taskId: string; readonly sources: readonly string[] }
  | { readonly type: "settings"; readonly settings: SettingsView }
  | { readonly type: "mcp"; readonly mcp: McpView }
  | { readonly type: "rules"; readonly rules: RulesView }
  /** Answer to a request carrying `requestId`. `error` is for a person. */
  | { readonly type: "result"; readonly requestId: number; readonly ok: boolean; readonly error?: string }
  /** The status bar item or a command asked the panel to show something. */
  | { readonly type: "reveal"; readonly target: "autoApprove" | "input" | "mcp" | "rules" | "askFeedback" }
  /** The task history changed (a task started, ended, or was opened). */
  | { readonly type: "history"; readonly history: readonly HistoryItemView[] }
  /** The provider settings or keys changed. */
  | { readonly type: "model"; readonly model: ModelView }
  /** The task's restores changed (a row was restored to, or a restore undone): replaces the task's marks. */
  | { readonly type: "restoreMarks"; readonly taskId: string; readonly marks: RestoreMarks };

// ---------------------------------------------------------------------------------------------------------
// Webview -> host
// ---------------------------------------------------------------------------------------------------------

// The schemas (with what each message means) are in protocolSchema.ts.

/** Where an "always allow / always deny" rule is saved. */
export type RuleScope = z.infer<typeof RuleScopeSchema>;
/** "Always allow / always deny" on an approval; no rule text: the host saves the rule of the ask it holds. */
export type RememberRule = z.infer<typeof RememberRuleSchema>;
/** A settings change the panel may request. Each maps to one key of `contributes.configuration`. */
export type SettingChange = z.infer<typeof SettingChangeSchema>;
/** An MCP toggle: the host rewrites `toolgate.mcpServers` at user scope. */
export type McpChange = z.infer<typeof McpChangeSchema>;
/** Names one removable remembered rule; the host checks it is still there before removing it. */
export type RuleRef = z.infer<typeof RuleRefSchema>;
export type WebviewToHost = z.infer<typeof WebviewToHostSchema>;

/** Discriminants, handy for exhaustive switches. */
export type HostToWebviewType = HostToWebview["type"];
export type WebviewToHostType = WebviewToHost["type"];

/** The bootstrap data the host writes, HTML-escaped, into `data-bootstrap` on the root element. */
export interface WebviewBootstrap {
  readonly surface: "sidebar" | "editor";
}
