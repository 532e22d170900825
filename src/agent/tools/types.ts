/**
 * The contract between the task loop and the tool handlers: one handler per tool, one file each, all
 * registered in `handlers/registry.ts`. A handler runs only after its call is complete and approved; it
 * gets the RESOLVED call the gate judged (canonical names, realpaths, the URL and its addresses, the command's
 * shell and cwd) — never raw params — and reports a result the model can act on.
 */
import type { CallDanger, ToolName } from "../../core/types";
import type { ResolvedCall } from "../../core/resolvedCall";
import type { IgnoreRules } from "../../core/ignoreFile";
import type { TaintState } from "../../core/taint";
import type { ProtectedChangeView } from "../../shared/messages";
import type { AgentFs, CommandRunner, DiffReviewer, DiffSession, FoundProtectedChange, Searcher } from "../env";
import type { TaskConfig } from "../executor/taskConfig";
import type { PendingSandboxAsk } from "../sandbox/pendingSandboxAsk";
import type { McpClientHub } from "../mcp/types";
import type { MessageStore } from "../task/messageStore";

export interface ToolLimits {
  readonly commandTimeoutMs: number;
  readonly maxCommandOutputBytes: number;
  readonly maxReadBytes: number;
  readonly maxFetchBytes: number;
  readonly fetchTimeoutMs: number;
  readonly maxListEntries: number;
  readonly maxSearchResults: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = {
  commandTimeoutMs: 10 * 60_000,
  maxCommandOutputBytes: 256 * 1024,
  maxReadBytes: 1024 * 1024,
  maxFetchBytes: 2 * 1024 * 1024,
  fetchTimeoutMs: 30_000,
  maxListEntries: 1000,
  maxSearchResults: 300,
};

export interface ToolEnv {
  readonly fs: AgentFs;
  readonly runner: CommandRunner;
  readonly searcher: Searcher;
  readonly diff?: DiffReviewer;
  readonly mcp?: McpClientHub;
  /** DNS for web_fetch (default: the system resolver); every address it returns is checked by the gate. */
  readonly resolveHost?: (host: string) => Promise<readonly string[]>;
  /** The ignore file of each root, for callers without a gate snapshot (list/search use the gate's own, `ApprovalGate.ignore`). */
  readonly ignoreRules: (roots: readonly string[]) => IgnoreRules;
  readonly limits?: Partial<ToolLimits>;
  /**
   * new_task: the host starts the subtask, which starts from `taint` (the handing task's untrusted sources).
   * Without it the tool reports that subtasks are not available.
   */
  readonly newTask?: (context: string, taint: TaintState) => Promise<string>;
}

export interface ToolContext {
  readonly config: TaskConfig;
  readonly env: ToolEnv;
  readonly limits: ToolLimits;
  readonly ignore: IgnoreRules;
  readonly signal: AbortSignal;
  readonly messages: MessageStore;
  /** The tool's own message. */
  readonly messageId: number;
  /** The person approved this call (its decision was an ask), rather than the gate allowing it. */
  readonly approvedByPerson?: boolean;
  /** The person chose "Run outside the sandbox" for this command (never offered in plan mode). */
  readonly outsideSandbox?: boolean;
  /** Text the person sent with their approval (or the answer to a followup question). */
  readonly feedback?: string;
  /** The diff the person may have edited while approving (file edits with a DiffReviewer). */
  readonly diffSession?: DiffSession;
  /** What `prepare` computed before the approval (file edits: the proposed content). */
  readonly prepared?: PreparedEdit;
  /** Absolute path for a param, resolved like the gate does (relative to the first root, `~/` = home). */
  resolve(path: string): string;
  /**
   * What was decided no longer holds (a path changed before it was used, a redirect to another URL): the
   * gate decides these params again, asking the person if it must. Undefined result: not approved (the
   * `ToolResult` says why).
   */
  decideAgain(params: Readonly<Record<string, unknown>>): Promise<{ call: ResolvedCall } | { result: ToolResult }>;
  /**
   * Asks the person, on this call's own card, whether it may run outside the OS sandbox (`reason` starts
   * "runs unsandboxed"). `sandboxedRun`: the sandbox stopped a first run; how it ended (shown on the row).
   * Headless: the answer is no. Absent: nobody can be asked (treated as no).
   */
  askUnsandboxed?(
    reason: string,
    sandboxedRun?: string,
    danger?: readonly CallDanger[],
  ): Promise<{ readonly approved: boolean; readonly feedback?: string }>;
  /**
   * A sandboxed command changed protected paths: asks the person to keep or remove them (removing is the
   * default and what a headless run does), applies the answer, and says what was done. Absent: nobody can be
   * asked, and the caller removes them itself. `onShown` runs once the ask's message exists, before it is
   * registered and saved; `askId`: the message of an ask restored from history, asked again.
   */
  askProtectedChanges?(
    changes: readonly FoundProtectedChange[],
    onShown?: (askId: number) => void,
    askId?: number,
  ): Promise<ProtectedChangesVerdict>;
  /** The sandbox ask this command call was waiting on when the task was saved (resumed after a reload). */
  readonly sandboxAsk?: PendingSandboxAsk;
  /** Records the sandbox ask this call waits on (or its settled result) on the call; saved with the task's next save. */
  setSandboxAsk?(state: PendingSandboxAsk | undefined): void;
  /** Saves the task now (what `setSandboxAsk` recorded included). */
  saveTask?(): Promise<void>;
}

/** The person's answer about protected-path changes, and what was done about each. */
export interface ProtectedChangesVerdict {
  readonly kept: boolean;
  readonly changes: readonly ProtectedChangeView[];
  /** Nobody chose: the task was cancelled while it asked (the changes were removed). */
  readonly cancelled?: boolean;
  readonly feedback?: string;
}

export interface ToolResult {
  /** What the model reads. */
  readonly content: string;
  readonly isError?: boolean;
  /** Short text for the person (defaults to a truncated `content`). */
  readonly display?: string;
  /** attempt_completion: the task waits for the person's verdict; new_task: this task hands over. */
  readonly outcome?: "completion" | "handover";
  /** Commands: whether it ran inside the OS sandbox (absent: the runner has no sandbox). */
  readonly sandboxed?: boolean;
}

/** A file edit computed before asking, so the person approves exactly what will be written. */
export interface PreparedEdit {
  readonly path: string;
  readonly abs: string;
  readonly original: string | undefined;
  readonly proposed: string;
}

export type PrepareResult =
  { readonly ok: true; readonly edit: PreparedEdit } | { readonly ok: false; readonly error: string };

export interface ToolHandler {
  readonly name: ToolName;
  /** Runs once the call is complete and before approval; a failure is reported to the model without asking. */
  prepare?(call: ResolvedCall, ctx: ToolContext): Promise<PrepareResult>;
  execute(call: ResolvedCall, ctx: ToolContext): Promise<ToolResult>;
}

export function str(params: Readonly<Record<string, unknown>>, key: string): string {
  const v = params[key];
  return typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v);
}

export function errorResult(content: string): ToolResult {
  return { content, isError: true };
}
