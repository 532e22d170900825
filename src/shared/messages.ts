/**
 * The task message model shared by the agent runtime, the host and the webview. Type-only.
 * The host owns the list; the webview renders it. A message is appended once and then changed only
 * by deltas (text appended, fields patched), so a 1 MB stream never re-sends what was already sent.
 */
import type { Decision } from "../core/types";

export type { CallDanger, Decision, SourceSpan } from "../core/types";

export type MessageRole = "say" | "ask";

export type MessageKind =
  | "user" // the task text or a follow-up the person typed
  | "text" // assistant prose
  | "reasoning"
  | "tool" // a tool call: read, edit, command, MCP, fetch...
  | "command_output"
  | "followup" // ask_followup_question
  | "completion" // attempt_completion result
  | "api_request" // one model turn: tokens and cost when it ends
  | "limit" // maxRequests / maxCost reached: "reset and continue"
  | "error"
  | "info" // trimming notices, retries, interruptions
  | "protected_changes"; // a sandboxed command created or changed protected paths: keep or remove

export type ToolStatus =
  | "streaming" // arguments still arriving
  | "pending" // waiting for the person
  | "approved"
  | "running"
  | "done"
  | "rejected"
  | "denied" // refused by the gate
  | "error"
  | "interrupted"; // the stream was cut: never executed

export interface ToolInfo {
  readonly name: string;
  /** Best-effort params, string-valued for display; complete once `status` leaves "streaming". */
  readonly params: Readonly<Record<string, string>>;
  readonly status: ToolStatus;
  readonly decision?: Decision;
  /** For file edits: the path shown in the diff. For MCP: server and tool. */
  readonly serverName?: string;
  readonly toolName?: string;
  /** Result text (truncated for display) once done. */
  readonly result?: string;
  /** Commands: the working directory the decided command runs in (shown on the approval card). */
  readonly cwd?: string;
  /** Commands: whether it ran inside the OS sandbox (absent: not known, or no sandbox configured). */
  readonly sandboxed?: boolean;
  /** Calls that may change files: the checkpoint taken before the call ran (restore offers to go back to it). */
  readonly checkpoint?: RowCheckpoint;
  /** Commands: how it will run if approved now (shown on the approval card before the click). */
  readonly sandboxOutlook?: SandboxOutlook;
  /** File tools: where the call really lands, as the gate resolved it (links followed). */
  readonly target?: FileTarget;
}

export interface FileTarget {
  /** The realpath the decision covered (for a file that does not exist yet: its nearest existing ancestor's, plus the rest). */
  readonly real: string;
  /** The real path lies in a workspace root. */
  readonly inside: boolean;
  /** Workspace-relative real path, when inside. */
  readonly relative?: string;
}

/** How a command will run: inside the OS sandbox (and its network), or unsandboxed and why. */
export interface SandboxOutlook {
  readonly sandboxed: boolean;
  /** Inside the sandbox: no network, or only the allowed hosts. */
  readonly network?: "off" | "hosts";
  /** Inside the sandbox: what the decision's grant lets it do (`read-only` or `workspace-write`). */
  readonly grant?: "read-only" | "workspace-write";
  /** Inside the sandbox: the hosts it may reach (the grant's, still in `toolgate.sandbox.network`). */
  readonly hosts?: readonly string[];
  /**
   * Inside the sandbox: outside paths this card names that an approval binds read-only for this run only
   * (credential stores and ignored files stay hidden even so).
   */
  readonly readPaths?: readonly string[];
  /** Inside the sandbox: the card may offer "Run outside the sandbox" (never in plan mode). */
  readonly canRunOutside?: boolean;
  /** Unsandboxed: why (the sandbox is off, unavailable here, or the person is asked for one re-run). */
  readonly reason?: string;
}

/** One protected path a sandboxed command created, changed or removed, as the person's ask lists it. */
export interface ProtectedChangeView {
  /** Absolute path. */
  readonly path: string;
  readonly kind: "appeared" | "changed" | "vanished";
  /** "a git hook", "a git directory", "editor configuration (.vscode)", ... */
  readonly what: string;
  /** The first lines of a small text file as it is now. */
  readonly preview?: string;
  /** Inside an appeared directory: listed for the person, removed with it. */
  readonly within?: string;
  /** A file that runs code later (package.json scripts, a Makefile…; `core/runCodeFiles.ts`), not a protected path. */
  readonly runsCode?: boolean;
  /** For a changed small text file: its lines removed (`- `) and added (`+ `), with context (`core/lineDiff.ts`). */
  readonly diff?: string;
  /** After the answer: what was done. */
  readonly outcome?:
    | "removed"
    | "restored"
    | "kept"
    | "failed"
    /** "Remove" was chosen, but the path had changed again since the command: kept as it is now. */
    | "changedSince";
}

/** Why a checkpoint left a file or folder out. */
export type SkipReason =
  /** The gate's ignore file: never read, not even hashed. */
  | "ignoreFile"
  /** The person's `.gitignore` files (unless `includeGitignored`). */
  | "gitignored"
  /** Dependency and cache folders (node_modules, .venv, …), skipped whole. */
  | "heavyFolder"
  | "tooLarge"
  /** Past the per-root file count cap. */
  | "fileCap"
  /** Sockets, FIFOs, devices. */
  | "special"
  /** A folder or file that could not be read at the time (permissions, or it vanished). */
  | "unreadable";

/** What a checkpoint left out, for the panel ("3 files over 5 MB and node_modules were not recorded"). */
export interface SkipSummary {
  readonly counts: Readonly<Partial<Record<SkipReason, number>>>;
  /** A few root-relative paths per reason (folders end in `/`); multi-root paths start with the root's name. */
  readonly examples: readonly { readonly path: string; readonly reason: SkipReason }[];
}

/** What a tool row carries of its checkpoint. */
export type RowCheckpoint =
  | {
      readonly state: "recorded";
      readonly stepId: string;
      readonly seq: number;
      /** Undefined while the call runs; 0 = it changed nothing (the row offers no restore). */
      readonly changedFiles?: number;
      readonly skipped: SkipSummary;
    }
  /** No checkpoint: why (shown once per task, e.g. "git was not found", "Restricted Mode"). */
  | { readonly state: "unavailable"; readonly reason: string };

/**
 * A row whose step the files were restored to, as the task's checkpoint record tells it (restores are
 * recorded there, not in the transcript, so a restore from the CLI shows too). Keyed by the row's step id.
 */
export interface RestoreMark {
  /** The checkpoint the restore took of the files first: restoring to it undoes the restore. */
  readonly undoStepId: string;
  readonly undoSeq: number;
  /** Files the restore changed (undefined: not known). */
  readonly files?: number;
  /** The restore was undone since. */
  readonly undone: boolean;
  /** Nothing was recorded after the restore: undoing it undoes exactly the restore. */
  readonly latest: boolean;
}

export type RestoreMarks = Readonly<Record<string, RestoreMark>>;

export interface TaskMessage {
  readonly id: number;
  readonly ts: number;
  readonly role: MessageRole;
  readonly kind: MessageKind;
  readonly text: string;
  readonly partial: boolean;
  readonly tool?: ToolInfo;
  /** For `followup`: clickable options. */
  readonly options?: readonly string[];
  /** Present on asks: pending until answered exactly once. */
  readonly askState?: "pending" | "answered";
  /** For `protected_changes`: what changed (the person keeps or removes all of it). */
  readonly protectedChanges?: readonly ProtectedChangeView[];
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number; readonly costUsd: number };
  /**
   * A failed model request that is retried automatically: one row for every attempt of the turn. While `at`
   * is set, attempt number `attempt` (of `of`) starts at that time (epoch ms), unless the person retries at
   * once or stops; without `at` the retries are used up (`attempt` attempts were made) and the row asks.
   */
  readonly retry?: { readonly attempt: number; readonly of: number; readonly at?: number };
}

/** A person's answer to an ask. Feedback text goes to the model with either answer. */
export interface AskResponse {
  /**
   * `approveOutsideSandbox`: approve a command and run it outside the OS sandbox (only where the card offers it).
   * `trustSource`: on an untrusted-content ask, the sources the decision names stop counting for the rest of the
   * task, and the call is decided again.
   */
  readonly kind: "approve" | "approveOutsideSandbox" | "reject" | "message" | "resetLimits" | "trustSource";
  readonly text?: string;
}

/** One change to a task's message list, as the host broadcasts it. */
export type MessageDelta =
  | { readonly type: "add"; readonly message: TaskMessage }
  | { readonly type: "append"; readonly id: number; readonly text: string }
  | { readonly type: "patch"; readonly id: number; readonly patch: Partial<Omit<TaskMessage, "id">> };
