/**
 * What the agent needs from its surroundings. The CLI and tests implement these with Node (src/agent/node/),
 * VS Code with its APIs (src/host/adapters/). All paths are absolute, as resolved by the gate's workspace
 * paths; an implementation may map them to remote URIs.
 */
import type { AskResponse, ProtectedChangeView, SandboxOutlook } from "../shared/messages";
import type { SandboxGrant } from "../core/sandbox/grant";
import type { ProtectedUndo } from "./sandbox/protectedUndo";

export interface FileStat {
  readonly type: "file" | "directory" | "other";
  readonly size: number;
  readonly mtimeMs: number;
}

export interface DirEntry {
  readonly name: string;
  /** A symbolic link is a "link", whatever it points to: listings and searches never follow one. */
  readonly type: "file" | "directory" | "link" | "other";
}

export interface AgentFs {
  readFile(path: string): Promise<Uint8Array>;
  /** Creates missing parent directories. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Undefined when the path does not exist. */
  stat(path: string): Promise<FileStat | undefined>;
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * The file tools' I/O on a path the gate decided (its realpath): the parent must still be its own realpath
   * and a final link is never followed, else `PathChanged` (src/agent/node/noFollowFs.ts) and the caller
   * decides again. Hosts whose roots are not `file:` cannot promise that and refuse.
   */
  statResolved(real: string): Promise<"file" | "directory" | "other" | undefined>;
  readResolved(real: string): Promise<Uint8Array>;
  writeResolved(real: string, data: Uint8Array): Promise<void>;
}

export interface CommandRunOptions {
  readonly command: string;
  readonly cwd: string;
  /** Output as it arrives (decoded, in order). */
  readonly onOutput?: (text: string) => void;
  readonly timeoutMs: number;
  /** Output kept for the result beyond this is dropped from the middle (head and tail are kept). */
  readonly maxOutputBytes: number;
  /** Aborting kills the command and everything it started. */
  readonly signal: AbortSignal;
  /** The gate let it through without a click (the OS sandbox's `required` mode makes such commands ask). */
  readonly autoApproved?: boolean;
  /** Workspace roots: writable inside the OS sandbox. Without them a runner cannot sandbox the command. */
  readonly roots?: readonly string[];
  /** The person approved running this one command outside the OS sandbox (after it could not start). */
  readonly unsandboxed?: boolean;
  /**
   * What the decision lets the command do inside the OS sandbox (`resolved.command.grant`), clicked or not.
   * Absent: `workspace-write` with no network.
   */
  readonly grant?: SandboxGrant;
  /** The root task's key: its sandboxed commands share one private `/tmp` (sub-tasks pass their root's). */
  readonly taskKey?: string;
}

/** How the OS sandbox treated one command (absent: the runner has no sandbox configured). */
export interface CommandSandboxReport {
  /** The command ran (or would have run) inside the sandbox. */
  readonly sandboxed: boolean;
  /** The command did NOT run: why (no sandbox under `required`, the sandbox failed to start). */
  readonly notRun?: string;
  /** The command ran but the sandbox blocked something: the message for the model. */
  readonly blocked?: string;
  /** What the sandbox blocked, when `blocked` is set. */
  readonly blockedCause?: "read-only" | "hidden" | "network";
  /**
   * Protected paths the command created, changed or removed, left as they are: the caller asks the person
   * (keep or remove) before the agent goes on, and undoes them with `applyUndo` when told to.
   */
  readonly protectedChanges?: readonly FoundProtectedChange[];
  /** Something to say once (a setting the sandbox cannot honour, malformed sandbox settings). */
  readonly notice?: string;
  /** Inside the sandbox: the grant it ran with. */
  readonly grant?: SandboxGrant;
  /** Inside the sandbox: its `/tmp` was the task's private one (not the host's, which file tools see). */
  readonly privateTmp?: boolean;
}

/** One protected-path change a sandboxed command made: what the person sees, and how to undo it. */
export interface FoundProtectedChange {
  readonly view: ProtectedChangeView;
  /** Absent for entries listed inside an appeared directory (undoing that directory removes them). */
  readonly undo?: ProtectedUndo;
}

export interface CommandResult {
  readonly exitCode: number | undefined;
  /** Set when the command was killed (cancel, timeout): the signal name or "cancelled". */
  readonly killed?: string;
  readonly timedOut: boolean;
  /** Captured output; `truncatedBytes` > 0 when the middle was dropped. */
  readonly output: string;
  readonly truncatedBytes: number;
  /** Process id of the shell, when known (tests check it is gone after a cancel). */
  readonly pid?: number;
  readonly sandbox?: CommandSandboxReport;
}

export interface CommandRunner {
  run(options: CommandRunOptions): Promise<CommandResult>;
  /** How a command would run now (the approval card says it before the click); absent: no sandbox configured. */
  sandboxOutlook?(autoApproved: boolean, grant?: SandboxGrant): SandboxOutlook | undefined;
  /** The task with this key ended: what its sandboxed commands kept (their private `/tmp`) is removed. */
  endTask?(taskKey: string): void;
}

/**
 * A diff the person can edit before approving (VS Code's diff editor). Optional: without one, proposed
 * content is saved as the model wrote it.
 */
export interface DiffReviewer {
  open(path: string, original: string | undefined): Promise<DiffSession>;
}

export interface DiffSession {
  /** Streams more proposed text (write_to_file while it streams). */
  append(text: string): void;
  /** Replaces the proposed text (replace_in_file, or when the stream restarts). */
  setContent(text: string): void;
  /** The content to save (what the person left in the editor) and whether they changed it. */
  result(): Promise<{ readonly content: string; readonly edited: boolean }>;
  close(): Promise<void>;
}

/** The host's side of an ask: resolves when the person answers the message; aborting withdraws the ask. */
export interface AskChannel {
  ask(messageId: number, signal: AbortSignal): Promise<AskResponse>;
  /**
   * The person's answer to this ask is on its way, held back while the gate is rebuilt for the rule they granted
   * with it: the ask keeps waiting for that answer instead of re-deciding under the new gate (which would settle
   * it as if no one had answered).
   */
  answering?(messageId: number): boolean;
}

/** Search backend for search_files: ripgrep where the host has it, else the pure-JS fallback. */
export interface SearchOptions {
  readonly dir: string;
  readonly regex: string;
  readonly filePattern?: string;
  readonly maxResults: number;
  readonly signal: AbortSignal;
}

export interface SearchMatch {
  /** Absolute path. */
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

export interface Searcher {
  search(options: SearchOptions): Promise<SearchMatch[]>;
}
