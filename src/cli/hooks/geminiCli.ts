/**
 * Gemini CLI's BeforeTool hook protocol (`toolgate hook gemini-cli [--headless]`), and its tools in Toolgate's
 * vocabulary. Facts verified against the real Gemini CLI 0.61.0 (test/agents/gemini-cli.test.ts and the captured
 * inputs in test/fixtures/hooks/gemini-cli/):
 *
 * Input (JSON on stdin): `session_id`, `transcript_path`, `cwd` (the project root Gemini CLI started in; a model's
 * `cd` inside one shell command does not move it), `hook_event_name: "BeforeTool"`, `timestamp`, `tool_name`,
 * `tool_input` (the model's arguments as sent), and for MCP tools `mcp_context {server_name, tool_name, …}`.
 * The hook's environment carries `GEMINI_PROJECT_DIR` (= that root), which is the workspace here.
 * Output (JSON on stdout, exit 0): `{"decision": "allow" | "deny" | "ask", "reason": "..."}`. A deny reaches the
 * model as "Tool execution blocked: <reason>". `ask` forces Gemini's confirmation prompt, which a `gemini -p` run
 * never answers (it hangs), hence `--headless`. An `allow` does not skip Gemini's own policy (it still asks or
 * refuses where its policy says so). What fails open, before any Toolgate code answers: exit 1, exit 2 with no
 * output, non-JSON output on exit 0, a decision word Gemini does not know, a timeout; exit 2 (or any other code)
 * with text on stderr blocks with that text, and so does a missing command (the shell's exit 127).
 *
 * Only the fields a tool's decision hangs on are carried over; every other field of the input is ignored.
 *
 * No sandbox rewrite (test/agents/geminiRewrite.test.ts): 0.61.0 applies `hookSpecificOutput.tool_input`, but
 * checks its own policy (the person's `commandPrefix`/`commandRegex` rules) on the REWRITTEN command, so a
 * rewrite would slip past every one of them. The running version could be told (the hook's parent is the
 * Gemini CLI node process, whose script is `@google/gemini-cli/bundle/gemini.js`); what is missing is matching
 * the original line against Gemini CLI's own rules first. Until then a command runs with Gemini CLI's own
 * environment, a line that could print it asks, and a required sandbox refuses every command.
 */
import * as nodePath from "node:path";
import { urlHost } from "../../core/urls";
import type { FlagSpec, ParsedFlags } from "../args";
import type { AgentAdapter, AgentCall, HookAnswer, Mapped, Rendered } from "./adapter";
import { isRecord, parseEnvelope, projectFrom } from "./envelope";
import { globBase } from "./claudeCodeTools";

/** `mcp_context` as Gemini CLI sends it for a discovered MCP tool; anything else carries no MCP target. */
function mcpContext(v: unknown): AgentCall["mcp"] {
  if (!isRecord(v)) return undefined;
  const server = v.server_name;
  const tool = v.tool_name;
  return typeof server === "string" && server !== "" && typeof tool === "string" && tool !== ""
    ? { server, tool }
    : undefined;
}

export function parseGeminiInput(
  text: string,
  env: NodeJS.ProcessEnv,
): { ok: true; call: AgentCall } | { ok: false; reason: string } {
  const p = parseEnvelope(text, "BeforeTool");
  if (!p.ok) return p;
  // The workspace is Gemini CLI's own project variable; without an absolute one the decision loop refuses.
  const mcp = mcpContext(p.raw.mcp_context);
  return {
    ok: true,
    call: { workspaces: projectFrom(env.GEMINI_PROJECT_DIR), ...p.envelope, ...(mcp ? { mcp } : {}) },
  };
}

/**
 * Where Gemini CLI starts the shell for `run_shell_command`: `dir_path` resolved against the project root, as
 * Gemini CLI resolves it; without one, the root. The gate judges the line from there (`CallFacts.cwd`).
 */
export function commandDir(dir: string | undefined, cwd: string): string {
  return dir === undefined || dir === "" ? cwd : nodePath.resolve(cwd, dir);
}

/** Every http(s) URL a `web_fetch` call would fetch, as Gemini CLI reads them (whitespace-separated `://` words). */
export function fetchUrls(input: Readonly<Record<string, unknown>>): string[] {
  const urls: string[] = [];
  if (typeof input.url === "string" && input.url.trim() !== "") urls.push(input.url.trim());
  if (typeof input.prompt === "string")
    for (const word of input.prompt.split(/\s+/)) if (word.includes("://")) urls.push(word);
  return urls;
}

function block(oldText: string, newText: string): string {
  return `------- SEARCH\n${oldText}\n=======\n${newText}\n+++++++ REPLACE`;
}

const GLOB_CHARS = /[*?[\]{}!]/;

/** Tools with no effect of their own: a to-do list, the session's topic line, a question to the person. */
const INERT: Readonly<Record<string, string>> = {
  write_todos: "Gemini CLI's to-do list has no effect outside the session",
  update_topic: "Gemini CLI's topic line has no effect outside the session",
  ask_user: "asking you a question has no effect of its own",
  complete_task: "ending the task has no effect of its own",
  enter_plan_mode: "entering plan mode only narrows what Gemini CLI may do",
  list_background_processes: "listing the session's background commands has no effect of its own",
  read_background_output: "reading a background command's output has no effect of its own (the command was decided)",
};

/** Gemini CLI's call as Toolgate's. */
export function mapGeminiTool(input: AgentCall): Mapped {
  const p = input.toolInput;
  const name = input.toolName;
  const str = (k: string): string | undefined => (typeof p[k] === "string" ? (p[k] as string) : undefined);
  const call = (tool: string, params: Record<string, unknown>): Mapped => ({ kind: "call", call: { tool, params } });
  const malformed = (reason: string): Mapped => ({ kind: "malformed", reason });
  // Gemini CLI resolves a relative path against its project folder, which is the input's `cwd`.
  const at = (path: string): string => nodePath.resolve(input.cwd, path);
  const need = (k: string): string | Mapped => {
    const s = str(k);
    return s === undefined || s === "" ? malformed(`\`${name}\` needs a string \`${k}\``) : s;
  };
  // Gemini CLI names what an MCP call reaches in `mcp_context`; the joined tool name alone is ambiguous.
  if (input.mcp)
    return call("use_mcp_tool", {
      server_name: input.mcp.server,
      tool_name: input.mcp.tool,
      arguments: JSON.stringify(p),
    });
  if (name.startsWith("mcp_"))
    return { kind: "ask", reason: `Gemini CLI did not say which MCP server \`${name}\` belongs to, so you decide` };
  const inert = Object.prototype.hasOwnProperty.call(INERT, name) ? INERT[name] : undefined;
  if (inert !== undefined) return { kind: "inert", reason: inert };
  switch (name) {
    case "run_shell_command": {
      const command = need("command");
      if (typeof command !== "string") return command;
      const dir = p.dir_path;
      if (dir !== undefined && typeof dir !== "string")
        return malformed("`run_shell_command`'s `dir_path` must be a string");
      return {
        kind: "call",
        call: { tool: "execute_command", params: { command }, facts: { cwd: commandDir(dir, input.cwd) } },
      };
    }
    case "read_file": {
      const path = need("file_path");
      return typeof path === "string" ? call("read_file", { path: at(path) }) : path;
    }
    case "write_file": {
      const path = need("file_path");
      if (typeof path !== "string") return path;
      if (typeof p.content !== "string") return malformed("`write_file` needs a string `content`");
      return call("write_to_file", { path: at(path), content: p.content });
    }
    case "replace": {
      const path = need("file_path");
      if (typeof path !== "string") return path;
      if (typeof p.old_string !== "string" || typeof p.new_string !== "string")
        return malformed("`replace` needs string `old_string` and `new_string`");
      return call("replace_in_file", { path: at(path), diff: block(p.old_string, p.new_string) });
    }
    case "list_directory": {
      const path = need("dir_path");
      return typeof path === "string" ? call("list_files", { path: at(path) }) : path;
    }
    case "glob": {
      const pattern = need("pattern");
      if (typeof pattern !== "string") return pattern;
      return call("list_files", { path: globBase(input.cwd, str("dir_path"), pattern), recursive: true });
    }
    case "grep_search":
    case "search_file_content": {
      const pattern = need("pattern");
      if (typeof pattern !== "string") return pattern;
      const include = str("include_pattern") ?? str("include");
      return call("search_files", {
        path: nodePath.resolve(input.cwd, str("dir_path") ?? "."),
        regex: pattern,
        ...(include ? { file_pattern: include } : {}),
      });
    }
    case "read_many_files": {
      const include = p.include;
      if (!Array.isArray(include) || include.length === 0 || !include.every((i) => typeof i === "string" && i !== ""))
        return malformed("`read_many_files` needs a non-empty `include` list of strings");
      const only = include[0] as string;
      if (include.length === 1 && !GLOB_CHARS.test(only)) return call("read_file", { path: at(only) });
      return {
        kind: "ask",
        reason:
          "Gemini CLI's `read_many_files` reads every file its patterns match, which Toolgate does not check one by one, so you decide",
      };
    }
    case "web_fetch": {
      const urls = fetchUrls(p);
      if (urls.length === 0) return malformed("`web_fetch` names no URL");
      const [url] = urls;
      if (urls.length === 1 && url !== undefined) return call("web_fetch", { url });
      return {
        kind: "ask",
        reason: `Gemini CLI's \`web_fetch\` would fetch ${urls.length} URLs at once, so you decide`,
      };
    }
    case "google_web_search":
      return { kind: "ask", reason: "a web search sends your query out and brings search results in, so you decide" };
    case "invoke_agent":
      // A local sub-agent's own calls come through this hook, but the name may be a remote (A2A) or browser agent,
      // which sends the prompt out and brings content in; the call does not say which.
      return {
        kind: "ask",
        reason: "`invoke_agent` may start a remote or browser agent that sends the prompt out, so you decide",
      };
    case "save_memory":
      return {
        kind: "ask",
        reason: "`save_memory` writes instructions every later Gemini CLI session reads, so you decide",
      };
    default:
      return { kind: "ask", reason: `Toolgate has no rule for Gemini CLI's \`${name}\` tool, so you decide` };
  }
}

/** The source of someone else's content a Gemini CLI call brings into the session once it runs, if any. */
export function geminiSource(call: AgentCall): string | undefined {
  if (call.mcp) return `${call.mcp.server}/${call.mcp.tool}`;
  if (call.toolName.startsWith("mcp_")) return call.toolName;
  if (call.toolName === "web_fetch") {
    const urls = fetchUrls(call.toolInput);
    const hosts = [...new Set(urls.map((u) => urlHost(u) ?? "the web"))];
    return hosts.length === 1 ? hosts[0] : "the web";
  }
  if (call.toolName === "google_web_search") return "web search results";
  if (call.toolName === "read_mcp_resource") return "an MCP resource";
  // A remote agent's answer is someone else's content; a local one cannot be told apart from the call.
  if (call.toolName === "invoke_agent")
    return typeof call.toolInput.agent_name === "string" ? `agent ${call.toolInput.agent_name}` : "a sub-agent";
  return undefined;
}

const FLAGS: FlagSpec = { "--headless": "bool" };

const USAGE = `usage: toolgate hook gemini-cli [--headless] [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Gemini CLI's BeforeTool hook: reads the hook JSON on stdin, answers
  {"decision": "allow"|"deny"|"ask", "reason": "..."} and exits 0.
  The workspace is $GEMINI_PROJECT_DIR (without it every call is refused).
  --headless   for gemini -p: Gemini CLI would wait for an answer no one gives, so every ask is a deny.
  In ~/.gemini/settings.json (timeout in ms):
    {"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [{"type": "command",
      "command": "toolgate hook gemini-cli", "timeout": 30000}]}]}}`;

function render(answer: HookAnswer): Rendered {
  // `systemMessage` is what Gemini CLI shows with its confirmation prompt, so an ask says why.
  const out =
    answer.decision === "ask"
      ? { decision: answer.decision, reason: answer.reason, systemMessage: answer.reason }
      : { decision: answer.decision, reason: answer.reason };
  return { stdout: JSON.stringify(out) + "\n", exitCode: 0 };
}

export const geminiCliAdapter: AgentAdapter = {
  name: "gemini-cli",
  displayName: "Gemini CLI",
  usage: USAGE,
  flags: FLAGS,
  parse: (text, env) => parseGeminiInput(text, env),
  map: mapGeminiTool,
  honoursAsk: (_call, flags: ParsedFlags) => !flags.bools.has("--headless"),
  // grep_search honours .gitignore and .geminiignore, not Toolgate's ignore file (and `no_ignore` drops even those).
  searchReadsIgnored: true,
  source: geminiSource,
  render,
};
