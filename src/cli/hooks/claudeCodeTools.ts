/**
 * Claude Code's tools in Toolgate's vocabulary, by what each tool does (the tool set and input fields of
 * 2.1.332 as its API requests list them, deferred tools included; `Glob`, `Grep`, `LS`, `MultiEdit` and `Task`
 * for older versions).
 *
 * Invariants:
 * - Relative paths resolve against the call's `cwd` (where Claude Code is after the model's `cd`); a command
 *   starts there too (`CallFacts.cwd`). The workspace is never `cwd`.
 * - Only the fields a decision hangs on are read; every other field is ignored, so none can change it.
 * - A tool not named here asks (the hook turns that into a refusal wherever Claude Code would accept an ask).
 */
import * as nodePath from "node:path";
import type { ToolCall } from "../../core/types";
import type { AgentCall, Mapped } from "./adapter";

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A SEARCH/REPLACE block as replace_in_file takes it (the gate decides on the path; the body must be present). */
function block(oldText: string, newText: string): string {
  return `------- SEARCH\n${oldText}\n=======\n${newText}\n+++++++ REPLACE`;
}

const GLOB_CHARS = /[*?[\]{}!]/;

/**
 * The directory a Glob can list: its `path` joined with the pattern's literal leading segments. An absolute
 * pattern or one climbing out with `..` lists from where it really points, so the path gate judges that.
 */
export function globBase(cwd: string, path: string | undefined, pattern: string): string {
  const start = nodePath.resolve(cwd, path ?? ".");
  const segments = pattern.split(/[\\/]/);
  const literal: string[] = [];
  for (const s of segments.slice(0, -1)) {
    if (GLOB_CHARS.test(s)) break;
    literal.push(s);
  }
  const prefix = nodePath.isAbsolute(pattern) ? nodePath.sep + literal.join(nodePath.sep) : literal.join(nodePath.sep);
  return nodePath.resolve(start, prefix || ".");
}

/**
 * Tools with no effect of their own: sub-agents (their own calls come through the hook), the deferred-tool
 * loader, task and to-do bookkeeping, reading or stopping what the session itself started, questions to the
 * person, plan-mode switches (later calls are judged in the new mode), structured reports to Claude Code's UI.
 */
const INERT: Readonly<Record<string, string>> = {
  Agent: "starts a sub-agent, whose own tool calls come through this hook",
  Task: "starts a sub-agent, whose own tool calls come through this hook",
  ToolSearch: "loads the schemas of Claude Code's deferred tools",
  ListAgents: "lists the agents this session can message",
  ReportFindings: "reports review findings to Claude Code's UI",
  TodoWrite: "updates the session's to-do list",
  TaskCreate: "updates the session's task list",
  TaskUpdate: "updates the session's task list",
  TaskList: "reads the session's task list",
  TaskGet: "reads the session's task list",
  TaskOutput: "reads the output of a background task this session started",
  BashOutput: "reads the output of a background command this session started",
  TaskStop: "stops a background task this session started",
  KillShell: "stops a background command this session started",
  CronList: "lists the session's scheduled prompts",
  AskUserQuestion: "asks you a question",
  EnterPlanMode: "switches Claude Code to plan mode",
  ExitPlanMode: "asks you to approve a plan; later calls are judged in the mode that follows",
  StructuredOutput: "returns a sub-agent's structured result",
  ListMcpResourcesTool: "lists the resources the MCP servers offer (reading one comes through this hook)",
  WaitForMcpServers: "waits for the session's MCP servers to connect",
};

/** Tools that schedule, persist or hand off work, or run what Toolgate cannot analyse: a person decides. */
const ASKS: Readonly<Record<string, string>> = {
  CronCreate: "schedules a prompt to run later (and with `durable`, across restarts)",
  CronDelete: "changes the prompts scheduled to run later",
  ScheduleWakeup: "schedules this session to wake up and work later",
  RemoteTrigger: "starts work in a remote session",
  Skill: "loads a skill, whose instructions may run commands Toolgate does not see",
  Workflow: "runs a JavaScript workflow that starts background agents, which Toolgate cannot analyse",
  SendMessage: "sends a message to another agent or session",
  PushNotification: "sends a notification out of this session",
  TeamCreate: "starts a team of agents",
  TeamDelete: "stops a team of agents",
  EnterWorktree: "creates a git worktree and moves the session into it",
  ExitWorktree: "leaves (and may remove) a git worktree",
  LSP: "queries a language server, which Toolgate does not model",
};

/** Where a WebSearch query goes: Claude Code's search runs as a server tool of Anthropic's Messages API. */
const SEARCH_PROVIDER = "https://api.anthropic.com/v1/messages";

export function mcpParts(name: string): { readonly server: string; readonly tool: string } | undefined {
  const rest = name.slice("mcp__".length);
  const cut = rest.indexOf("__");
  if (!name.startsWith("mcp__") || cut <= 0 || cut + 2 >= rest.length) return undefined;
  return { server: rest.slice(0, cut), tool: rest.slice(cut + 2) };
}

/** Claude Code's call as Toolgate's. */
export function mapClaudeCodeTool(input: AgentCall): Mapped {
  const p = input.toolInput;
  const str = (k: string): string | undefined => (typeof p[k] === "string" ? (p[k] as string) : undefined);
  const need = (k: string): string | { readonly missing: string } => {
    const s = str(k);
    return s === undefined || s === "" ? { missing: `\`${input.toolName}\` needs a string \`${k}\`` } : s;
  };
  const here = (path: string): string => nodePath.resolve(input.cwd, path);
  const call = (tool: string, params: Record<string, unknown>, facts?: ToolCall["facts"]): Mapped => ({
    kind: "call",
    call: { tool, params, ...(facts ? { facts } : {}) },
  });
  const command = (line: string): Mapped => call("execute_command", { command: line }, { cwd: input.cwd });
  const malformed = (reason: string): Mapped => ({ kind: "malformed", reason });
  const name = input.toolName;
  if (name.startsWith("mcp__")) {
    const mcp = mcpParts(name);
    if (!mcp) return malformed(`\`${name}\` is not an mcp__server__tool name`);
    return call("use_mcp_tool", { server_name: mcp.server, tool_name: mcp.tool, arguments: JSON.stringify(p) });
  }
  if ((name === "Agent" || name === "Task") && p.isolation !== undefined) {
    // A worktree is a write into the repository's git directory; a remote agent runs where no hook of this
    // machine sees its calls, with the session's context sent out.
    const where =
      p.isolation === "worktree"
        ? "in a new git worktree (a write into the repository's git directory)"
        : `with isolation ${JSON.stringify(p.isolation)}, where its calls may not come through this hook`;
    return { kind: "ask", reason: `Claude Code's \`${name}\` starts a sub-agent ${where}, so you decide` };
  }
  if (Object.prototype.hasOwnProperty.call(INERT, name)) return { kind: "inert", reason: `\`${name}\` ${INERT[name]}` };
  if (Object.prototype.hasOwnProperty.call(ASKS, name))
    return { kind: "ask", reason: `Claude Code's \`${name}\` ${ASKS[name]}, so you decide` };
  switch (name) {
    case "Bash": {
      const line = need("command");
      return typeof line === "string" ? command(line) : malformed(line.missing);
    }
    case "Monitor": {
      // A long-running shell command whose output lines reach the model, or a WebSocket it reads from.
      const line = str("command");
      const ws = isRecord(p.ws) && typeof p.ws.url === "string" ? p.ws.url : undefined;
      if (line !== undefined && ws !== undefined) return malformed("`Monitor` takes a `command` or a `ws`, not both");
      if (line !== undefined && line !== "") return command(line);
      if (ws !== undefined)
        return {
          kind: "ask",
          reason: `Claude Code's \`Monitor\` opens a WebSocket to ${ws} and reads it, so you decide`,
        };
      return malformed("`Monitor` needs a string `command` or a `ws.url`");
    }
    case "Read": {
      const path = need("file_path");
      return typeof path === "string" ? call("read_file", { path: here(path) }) : malformed(path.missing);
    }
    case "Write": {
      const path = need("file_path");
      if (typeof path !== "string") return malformed(path.missing);
      if (typeof p.content !== "string") return malformed("`Write` needs a string `content`");
      return call("write_to_file", { path: here(path), content: p.content });
    }
    case "Edit": {
      const path = need("file_path");
      if (typeof path !== "string") return malformed(path.missing);
      if (typeof p.old_string !== "string" || typeof p.new_string !== "string")
        return malformed("`Edit` needs string `old_string` and `new_string`");
      return call("replace_in_file", { path: here(path), diff: block(p.old_string, p.new_string) });
    }
    case "MultiEdit": {
      const path = need("file_path");
      if (typeof path !== "string") return malformed(path.missing);
      const edits = p.edits;
      if (!Array.isArray(edits) || edits.length === 0) return malformed("`MultiEdit` needs a non-empty `edits` list");
      const blocks: string[] = [];
      for (const e of edits as unknown[]) {
        if (!isRecord(e) || typeof e.old_string !== "string" || typeof e.new_string !== "string")
          return malformed("each `MultiEdit` edit needs string `old_string` and `new_string`");
        blocks.push(block(e.old_string, e.new_string));
      }
      return call("replace_in_file", { path: here(path), diff: blocks.join("\n") });
    }
    case "NotebookEdit": {
      // Replaces, inserts or deletes a cell: an edit of the notebook file, whatever `edit_mode` says.
      const path = need("notebook_path");
      if (typeof path !== "string") return malformed(path.missing);
      return call("write_to_file", { path: here(path), content: str("new_source") ?? "" });
    }
    case "Glob": {
      const pattern = need("pattern");
      if (typeof pattern !== "string") return malformed(pattern.missing);
      return call("list_files", { path: globBase(input.cwd, str("path"), pattern), recursive: true });
    }
    case "LS": {
      const path = need("path");
      return typeof path === "string" ? call("list_files", { path: here(path) }) : malformed(path.missing);
    }
    case "Grep": {
      const pattern = need("pattern");
      if (typeof pattern !== "string") return malformed(pattern.missing);
      const glob = str("glob");
      return call("search_files", {
        path: here(str("path") ?? "."),
        regex: pattern,
        ...(glob ? { file_pattern: glob } : {}),
      });
    }
    case "ReadMcpResourceTool":
    case "ReadMcpResourceDirTool": {
      // A resource (or a directory resource's listing) read from a server: a `file:` URI is judged as a read of
      // the files it names, as `access_mcp_resource` is everywhere.
      const server = need("server");
      if (typeof server !== "string") return malformed(server.missing);
      const uri = need("uri");
      if (typeof uri !== "string") return malformed(uri.missing);
      return call("access_mcp_resource", { server_name: server, uri });
    }
    case "WebFetch": {
      const url = need("url");
      return typeof url === "string" ? call("web_fetch", { url }) : malformed(url.missing);
    }
    case "WebSearch": {
      // The query goes out to the search provider and the results are someone else's content: decided as a
      // web fetch of the provider (`WebFetch(domain:api.anthropic.com)` or `autoApprove.webFetch` allow it).
      const query = need("query");
      if (typeof query !== "string") return malformed(query.missing);
      return call("web_fetch", { url: `${SEARCH_PROVIDER}?web_search=${encodeURIComponent(query)}` });
    }
    default:
      return { kind: "ask", reason: `Toolgate has no rule for Claude Code's \`${name}\` tool, so you decide` };
  }
}
