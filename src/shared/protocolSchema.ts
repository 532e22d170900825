/**
 * The webview -> host messages as schemas: the one definition from which both their TypeScript types
 * (protocol.ts, `z.infer` through `import type`) and the host's runtime check (host/protocolGuard.ts) come,
 * so the two cannot disagree.
 *
 * Import this file only from the host: the webview imports the types in protocol.ts, which keeps the schema
 * library out of its bundle (`npm run size` shows it). zod/mini (not zod's classic API) keeps the host's
 * start-up bundle small.
 *
 * Parsing keeps exactly the fields below and drops any other; a value outside a schema rejects the whole
 * message, so a malformed message never reaches settings or an approval.
 */
import * as z from "zod/mini";
import { ACTION_KEYS } from "../core/settingsModel";
import type { Mode } from "../core/types";
import type { AskResponse } from "./messages";
import { PRESET_NAMES } from "./presets";

/** Task text and feedback are bounded: a person types them. */
export const MAX_TEXT = 200_000;
/** Settings search queries are short. */
export const MAX_QUERY = 199;

const RequestId = z.int().check(z.nonnegative());
const MessageId = z.int().check(z.nonnegative());
const Text = z.string().check(z.maxLength(MAX_TEXT));
const Name = z.string().check(z.maxLength(MAX_TEXT));

export const MODES = ["normal", "plan", "auto"] as const satisfies readonly Mode[];
const ModeSchema = z.enum(MODES);

/** The fine-grained auto-approve actions (toolgate.autoApprove.actions): the gate's own keys. */
export const AutoApproveActionSchema = z.enum(ACTION_KEYS);

export const AskResponseSchema = z.readonly(
  z.object({
    kind: z.enum(["approve", "approveOutsideSandbox", "reject", "message", "resetLimits", "trustSource"]),
    text: z.optional(Text),
  }),
);

/** Where an "always allow / always deny" rule is saved. */
export const RuleScopeSchema = z.enum(["task", "workspace", "user"]);

/**
 * "Always allow / always deny" on an approval. It carries no rule text on purpose: the host saves the rule of
 * the ask it holds (`decision.suggestion`), never a string the webview supplies, so the saved rule is exactly
 * the one the card showed.
 */
export const RememberRuleSchema = z.readonly(
  z.object({
    effect: z.enum(["allow", "deny"]),
    scope: RuleScopeSchema,
  }),
);

const obj = <S extends z.core.$ZodLooseShape>(shape: S) => z.readonly(z.object(shape));
const nonNegative = z.number().check(z.gte(0));

/** A settings change the panel may request. Each maps to one key of `contributes.configuration`. */
export const SettingChangeSchema = z.discriminatedUnion("key", [
  obj({ key: z.literal("mode"), value: ModeSchema }),
  obj({ key: z.literal("autoApprove.enabled"), value: z.boolean() }),
  obj({ key: z.literal("autoApprove.all"), value: z.boolean() }),
  obj({ key: z.literal("autoApprove.action"), action: AutoApproveActionSchema, value: z.boolean() }),
  obj({ key: z.literal("autoApprove.maxRequests"), value: z.int().check(z.nonnegative()) }),
  obj({ key: z.literal("autoApprove.maxCost"), value: nonNegative }),
  obj({ key: z.literal("untrustedContent"), value: z.enum(["ask", "off"]) }),
]);

/** An MCP toggle: the host rewrites `toolgate.mcpServers` at user scope. */
export const McpChangeSchema = z.discriminatedUnion("kind", [
  obj({ kind: z.literal("toolAlwaysAllow"), server: Name, tool: Name, value: z.boolean() }),
  obj({ kind: z.literal("toolEnabled"), server: Name, tool: Name, value: z.boolean() }),
  obj({ kind: z.literal("serverAlwaysAllowAll"), server: Name, value: z.boolean() }),
  obj({ kind: z.literal("serverEnabled"), server: Name, value: z.boolean() }),
]);

const SavedListSchema = z.enum(["commandsAllow", "commandsDeny", "permissionsAllow", "permissionsDeny"]);

/** A removable remembered rule: its place and its exact text (task rules are the current task's). */
export const RuleRefSchema = z.discriminatedUnion("source", [
  obj({ source: z.literal("task"), list: SavedListSchema, rule: Name }),
  obj({ source: z.literal("workspace"), list: SavedListSchema, rule: Name }),
  obj({
    source: z.literal("user"),
    list: z.enum(["commandsAllow", "commandsDeny", "permissionsAllow", "permissionsAsk", "permissionsDeny"]),
    rule: Name,
  }),
  obj({ source: z.literal("mcpAlwaysAllow"), server: Name, tool: Name }),
]);
/** First-run card buttons: choose a provider, set its API key, open the settings, open the walkthrough. */
export const FirstRunActionSchema = z.enum(["chooseProvider", "setApiKey", "openSettings", "walkthrough"]);

/**
 * The first-run preset card: a preset's name writes its switches at user scope; null keeps the settings as they
 * are ("Decide later"). Either way the card is not shown again unless the person asks for it (a command).
 */
export const PresetChoiceSchema = z.nullable(z.enum(PRESET_NAMES));

/** Task ids as the history stores them. */
const TaskId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,100}$/));

export const WebviewToHostSchema = z.discriminatedUnion("type", [
  /** Sent once per load. The host answers with `state` and then starts sending. */
  obj({ type: z.literal("ready") }),
  obj({ type: z.literal("newTask"), requestId: RequestId, text: Text }),
  /** A follow-up message to an idle task (completed, failed, cancelled, interrupted): continues it. */
  obj({ type: z.literal("sendMessage"), requestId: RequestId, text: Text }),
  obj({ type: z.literal("cancelTask"), requestId: RequestId }),
  /** Clear the finished task from the panel (the host drops its reference). */
  obj({ type: z.literal("clearTask"), requestId: RequestId }),
  obj({
    type: z.literal("answerAsk"),
    requestId: RequestId,
    messageId: MessageId,
    response: AskResponseSchema,
    remember: z.optional(RememberRuleSchema),
  }),
  obj({ type: z.literal("setSetting"), requestId: RequestId, change: SettingChangeSchema }),
  obj({ type: z.literal("mcpChange"), requestId: RequestId, change: McpChangeSchema }),
  obj({ type: z.literal("openDiff"), messageId: MessageId }),
  obj({ type: z.literal("openSettings"), query: z.optional(z.string().check(z.maxLength(MAX_QUERY))) }),
  obj({ type: z.literal("addMcpServer") }),
  /** Remove one remembered rule (Rules view, MCP tab); a malformed settings list is reported, not rewritten. */
  obj({ type: z.literal("removeRule"), requestId: RequestId, ref: RuleRefSchema }),
  /** "Restore files to before this step" on a row: the host shows what it undoes and asks before restoring. */
  obj({ type: z.literal("restoreCheckpoint"), requestId: RequestId, messageId: MessageId }),
  /** "Show all changes of this task": one diff from before its first checkpoint to its end. */
  obj({ type: z.literal("showTaskChanges"), requestId: RequestId }),
  /** The Restricted Mode banner's "Trust this folder…": opens VS Code's workspace trust editor. */
  obj({ type: z.literal("manageTrust") }),
  /**
   * Keyboard focus entered or left the panel. The workbench's `focusedView` does not follow focus into a webview
   * view, so the answer keybindings' `when` clause reads the context key the host sets from this. The host's
   * result comes after the context key is set: from then on the keybindings see the new focus.
   */
  obj({ type: z.literal("focusChanged"), requestId: RequestId, focused: z.boolean() }),
  /** Show a past task from the history (read-only until the person replies to continue it). */
  obj({ type: z.literal("openHistoryTask"), requestId: RequestId, id: TaskId }),
  obj({ type: z.literal("firstRun"), action: FirstRunActionSchema }),
  obj({ type: z.literal("choosePreset"), requestId: RequestId, preset: PresetChoiceSchema }),
  /** "Undo restore" on a row just restored to: the host shows what comes back and asks before restoring. */
  obj({ type: z.literal("undoRestore"), requestId: RequestId, messageId: MessageId }),
  /** "Delete" on a history entry, after the panel's confirmation: its transcript and its checkpoints go. */
  obj({ type: z.literal("deleteHistoryTask"), requestId: RequestId, id: TaskId }),
]);

// The answer type lives with the task messages (the agent runtime uses it too); the compiler checks that the
// schema produces exactly that type, and that the modes above are all of core's modes.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const answerMatches: Same<z.infer<typeof AskResponseSchema>, AskResponse> = true;
const modesMatch: Same<(typeof MODES)[number], Mode> = true;
void answerMatches;
void modesMatch;
