/**
 * Cline 3's PreToolUse hook protocol (`toolgate hook cline`), verified against the Cline CLI 3.0.65.
 *
 * Cline runs every executable file named `PreToolUse` (or `PreToolUse.sh`, `.js`, `.py`…) in
 * `~/Documents/Cline/Hooks/`, `~/.cline/hooks/`, `<workspace>/.clinerules/hooks/` and `<workspace>/.cline/hooks/`,
 * with the hook's working directory set to the task's working directory (where `run_commands` runs), and writes
 * on stdin `{clineVersion, timestamp, taskId, sessionContext: {rootSessionId}, workspaceRoots, workspaceInfo,
 * userId, agent_id, parent_agent_id, hookName: "tool_call", iteration, tool_call: {id, name, input},
 * preToolUse: {toolName, parameters}}`, where `parameters` is `input` with every non-string value
 * JSON-encoded. It reads `{cancel, errorMessage}` from stdout (the whole of it, or the last `HOOK_CONTROL\t`
 * line) and ignores the exit code: a crash, a timeout (120 s) or output that is not JSON all let the tool run.
 * `cancel: true` stops the whole task (the tool does not run and the model is not asked again). There is no ask.
 *
 * Decisions: `tool_call.input` is what the tool runs, so it is judged; `preToolUse` must agree with it, or the
 * call is refused. Every ask is a cancel (the reason says Cline stops the task).
 *
 * The sandbox rewrite (sandboxRewrite.ts; verified with the real 3.0.65, test/agents/clineSandbox.test.ts):
 * `{cancel: false, overrideInput: {commands: [...]}}` runs the new input in place of the model's. A later hook
 * file (Cline runs every directory's) may override it again; one that answers without `overrideInput` keeps
 * ours. Cline's own tool policies go by tool name, which the rewrite keeps. Each command of a `run_commands`
 * list is rewritten on its own (`commandListInput`), or none is; unrewritten, commands run with Cline's own
 * environment outside any sandbox, so a line that could print it asks, and `toolgate.sandbox.mode: "required"`
 * cancels them. `clineVersion` in the input is `$CLINE_VERSION`, empty in 3.0.65: the running version is the
 * `cline` binary's among the hook's ancestors (agentProcess.ts, `CLINE_BINARY`).
 */
import * as nodePath from "node:path";
import { urlHost } from "../../core/urls";
import type { ToolCall } from "../../core/types";
import type { AgentAdapter, AgentCall, CommandRewrite, HookAnswer, Mapped, MappedCall, Rendered } from "./adapter";
import { agentCommand, patchCalls } from "./agentCalls";
import { plainVersion, versionFromAncestors, type AgentBinary } from "./agentProcess";
import { isRecord, parseObject, type Parsed } from "./envelope";
import { quoteWord } from "./shellQuote";

/** Cline's parameter encoding: strings as they are, everything else as JSON (`undefined` drops the key). */
function encodeParameters(input: Readonly<Record<string, unknown>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(input)) {
    const s = typeof v === "string" ? v : (JSON.stringify(v) as string | undefined);
    if (s !== undefined) out[k] = s;
  }
  return out;
}

/** Keys of Cline's tool schemas whose values are not strings: `preToolUse.parameters` carries them as JSON. */
const JSON_KEYS = ["commands", "files", "paths", "file_paths", "queries", "requests", "insert_line"];

function sameStrings(a: Readonly<Record<string, string>>, b: Readonly<Record<string, unknown>>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** The tool name and input, from `tool_call` (judged) checked against `preToolUse` (older Cline sent only that). */
function toolOf(v: Record<string, unknown>): { name: string; input: Record<string, unknown> } | string {
  const tc = v.tool_call;
  const pre = v.preToolUse;
  if (tc === undefined && pre === undefined) return "the hook input has neither `tool_call` nor `preToolUse`";
  if (pre !== undefined && (!isRecord(pre) || typeof pre.toolName !== "string" || !isRecord(pre.parameters)))
    return "the hook input's `preToolUse` must be `{toolName, parameters}`";
  if (tc !== undefined) {
    if (!isRecord(tc) || typeof tc.name !== "string" || tc.name === "" || !isRecord(tc.input))
      return "the hook input's `tool_call` must be `{name, input}` with an object `input`";
    if (isRecord(pre)) {
      if (pre.toolName !== tc.name)
        return `the hook input names two tools (\`tool_call.name\` ${JSON.stringify(tc.name)}, \`preToolUse.toolName\` ${JSON.stringify(pre.toolName)})`;
      if (!sameStrings(encodeParameters(tc.input), pre.parameters as Record<string, unknown>))
        return "the hook input's `tool_call.input` and `preToolUse.parameters` disagree, so Toolgate cannot tell what runs";
    }
    return { name: tc.name, input: tc.input };
  }
  const p = pre as { toolName: string; parameters: Record<string, unknown> };
  if (p.toolName === "") return "the hook input's `preToolUse.toolName` is empty";
  const input: Record<string, unknown> = {};
  for (const [k, raw] of Object.entries(p.parameters)) {
    if (typeof raw !== "string") return `the hook input's \`preToolUse.parameters.${k}\` is not a string`;
    if (!JSON_KEYS.includes(k)) {
      input[k] = raw;
      continue;
    }
    try {
      input[k] = JSON.parse(raw) as unknown;
    } catch {
      return `the hook input's \`preToolUse.parameters.${k}\` is not the JSON Cline sends`;
    }
  }
  return { name: p.toolName, input };
}

/**
 * The `cline` binary (`@cline/cli-<platform>/bin/cline`, started by the npm package's launcher) and its version:
 * the package.json beside its `bin/` folder, counted only when its `bin.cline` is that binary.
 */
export const CLINE_BINARY: AgentBinary = {
  name: "cline",
  version: (exe, read) => {
    const root = nodePath.dirname(nodePath.dirname(exe));
    const pkg = read(nodePath.join(root, "package.json"));
    if (typeof pkg !== "object" || pkg === null) return undefined;
    const { name, version, bin } = pkg as Record<string, unknown>;
    if (typeof name !== "string" || !name.startsWith("@cline/cli-")) return undefined;
    const entry = typeof bin === "object" && bin !== null ? (bin as Record<string, unknown>).cline : undefined;
    if (typeof entry !== "string" || nodePath.resolve(root, entry) !== exe) return undefined;
    return plainVersion(version);
  },
};

/** Versions whose application of a rewritten `run_commands` input the real-agent suite's sentinel test checked. */
export const CLINE_REWRITE_VERIFIED: readonly string[] = ["3.0.65"];

/**
 * Checks the envelope. `cwd` is the hook process's working directory, which Cline sets to the task's working
 * directory; the workspace is `workspaceRoots` (Cline's git root or `--cwd`), never `cwd`. `version` is the
 * running Cline's as the hook can tell it.
 */
export function parseClineInput(text: string, cwd: string, version?: string): Parsed {
  const parsed = parseObject(text);
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  if (v.hookName !== "tool_call" && v.hookName !== "PreToolUse")
    return { ok: false, reason: `this hook answers PreToolUse (tool_call) events, not ${JSON.stringify(v.hookName)}` };
  const roots = v.workspaceRoots;
  if (roots !== undefined && (!Array.isArray(roots) || !roots.every((r) => typeof r === "string")))
    return { ok: false, reason: "the hook input's `workspaceRoots` must be a list of paths" };
  const workspaces = ((roots as string[] | undefined) ?? []).filter((r) => r !== "");
  const relative = workspaces.find((r) => !nodePath.isAbsolute(r));
  if (relative !== undefined) return { ok: false, reason: `the workspace root ${relative} is not an absolute path` };
  const tool = toolOf(v);
  if (typeof tool === "string") return { ok: false, reason: tool };
  const ctx = v.sessionContext;
  const root = isRecord(ctx) && typeof ctx.rootSessionId === "string" ? ctx.rootSessionId : "";
  const session = root !== "" ? root : typeof v.taskId === "string" ? v.taskId : "";
  return {
    ok: true,
    call: {
      workspaces,
      cwd,
      toolName: tool.name,
      toolInput: tool.input,
      ...(session !== "" ? { sessionId: session } : {}),
      ...(version !== undefined ? { agentVersion: version } : {}),
    },
  };
}

/**
 * `run_commands`' command strings as Cline runs them: consecutive strings from one that opens a heredoc to
 * the one holding its delimiter are joined with newlines into one command (Cline 3.0.65 does this).
 */
export function clineCommandGroups(commands: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < commands.length; i++) {
    const first = commands[i] ?? "";
    const delimiter = /(?<![<])<<-?\s*(?:"([^"]+)"|'([^']+)'|([A-Za-z0-9_./-]+))/.exec(first);
    const word = delimiter?.[1] ?? delimiter?.[2] ?? delimiter?.[3];
    const end = word === undefined ? -1 : commands.findIndex((c, j) => j > i && c.trim() === word);
    if (end === -1) {
      out.push(first);
      continue;
    }
    out.push(commands.slice(i, end + 1).join("\n"));
    i = end;
  }
  return out;
}

type Fail = { readonly malformed: string };
const fail = (malformed: string): Fail => ({ malformed });

function commandsOf(input: Readonly<Record<string, unknown>>): string[] | Fail {
  const c = input.commands ?? input.command ?? input.cmd;
  const list = typeof c === "string" ? [c] : c;
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === "string" && x.trim() !== ""))
    return fail("`run_commands` needs `commands`, a non-empty list of command strings");
  return list as string[];
}

/** The paths `read_files` reads, in the order and shapes its executor accepts. */
function readPaths(input: Readonly<Record<string, unknown>>): string[] | Fail {
  const key = ["files", "file_paths", "paths"].find((k) => k in input);
  const raw = key !== undefined ? input[key] : input;
  const items = Array.isArray(raw) ? (raw as unknown[]) : [raw];
  const paths: string[] = [];
  for (const item of items) {
    if (typeof item === "string" && item !== "") paths.push(item);
    else if (isRecord(item) && typeof item.path === "string" && item.path !== "") paths.push(item.path);
    // A bare {start_line, end_line} entry narrows the file before it; it names no file of its own.
    else if (
      isRecord(item) &&
      Object.keys(item).length > 0 &&
      Object.keys(item).every((k) => k === "start_line" || k === "end_line")
    )
      continue;
    else return fail("`read_files` needs `files`, a list of `{path}` entries");
  }
  return paths.length > 0 ? paths : fail("`read_files` names no file");
}

function strings(input: Readonly<Record<string, unknown>>, key: string, tool: string): string[] | Fail {
  const v = input[key];
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list) || list.length === 0 || !list.every((x) => typeof x === "string"))
    return fail(`\`${tool}\` needs \`${key}\`, a non-empty list of strings`);
  return list as string[];
}

function fetchUrls(input: Readonly<Record<string, unknown>>): string[] | Fail {
  const r = input.requests;
  if (!Array.isArray(r) || r.length === 0) return fail("`fetch_web_content` needs a non-empty `requests` list");
  const urls: string[] = [];
  for (const x of r as unknown[]) {
    if (!isRecord(x) || typeof x.url !== "string" || x.url === "")
      return fail("each `fetch_web_content` request needs a `url`");
    urls.push(x.url);
  }
  return urls;
}

/** Tools with no effect outside the conversation: allowed. */
const INERT: Readonly<Record<string, string>> = {
  ask_question: "`ask_question` only asks you a question",
  submit_and_exit: "`submit_and_exit` only ends the task",
  switch_to_act_mode: "`switch_to_act_mode` only changes Cline's mode",
  // Verified: a sub-agent's own tool calls come through this hook (with `parent_agent_id`, the same root session).
  spawn_agent: "`spawn_agent` starts a sub-agent whose own tool calls come through this hook",
};

/** Cline's call as Toolgate's. */
export function mapClineTool(input: AgentCall): Mapped {
  const p = input.toolInput;
  const root = input.workspaces[0] ?? input.cwd;
  const cwd = input.cwd;
  const one = (tool: string, params: Record<string, unknown>, extra: Omit<MappedCall, "call"> = {}): MappedCall => ({
    call: { tool, params } satisfies ToolCall,
    ...extra,
  });
  const many = (calls: MappedCall[]): Mapped => ({ kind: "calls", calls });
  const bad = (f: Fail): Mapped => ({ kind: "malformed", reason: f.malformed });
  switch (input.toolName) {
    case "run_commands": {
      const cmds = commandsOf(p);
      if (!Array.isArray(cmds)) return bad(cmds);
      const groups = clineCommandGroups(cmds);
      // One command is one gate call; several are decided (and rewritten) each (decide.ts).
      if (groups.length === 1) return { kind: "call", call: agentCommand(cwd, groups[0]!).call };
      return many(groups.map((line) => agentCommand(cwd, line)));
    }
    case "read_files": {
      // Verified: a relative path is read from the directory of the process running the session (the CLI, or
      // its hub daemon), which is neither the task's directory nor the workspace and which the hook cannot see.
      const paths = readPaths(p);
      if (!Array.isArray(paths)) return bad(paths);
      // Such a path is judged from the workspace root and from the task's directory (a deny from either
      // stands) and asks even where both would be allowed.
      return many(
        paths.flatMap((path) => {
          if (nodePath.isAbsolute(path)) return [one("read_file", { path })];
          const hardAsk = `Cline reads the relative path \`${path}\` from a directory the hook cannot see, so Toolgate cannot tell which file it is (an absolute path can be judged)`;
          const bases = [...new Set([root, cwd])];
          return bases.map((base) => one("read_file", { path: nodePath.resolve(base, path) }, { hardAsk }));
        }),
      );
    }
    case "editor": {
      // Verified: a relative path is written in the task's directory.
      if (typeof p.path !== "string" || p.path === "") return bad(fail("`editor` needs a string `path`"));
      if (typeof p.new_text !== "string") return bad(fail("`editor` needs a string `new_text`"));
      const path = nodePath.resolve(cwd, p.path);
      if (typeof p.old_text === "string" && p.old_text !== "")
        return many([
          one("replace_in_file", {
            path,
            diff: `------- SEARCH\n${p.old_text}\n=======\n${p.new_text}\n+++++++ REPLACE`,
          }),
        ]);
      return many([one("write_to_file", { path, content: p.new_text })]);
    }
    case "apply_patch": {
      // Cline's apply_patch executor works from the task's directory (its `cwd`), as the editor does.
      const text = typeof p.input === "string" ? p.input : undefined;
      if (text === undefined) return bad(fail("`apply_patch` needs a string `input` (the patch)"));
      const calls = patchCalls(cwd, text);
      return typeof calls === "string" ? bad(fail(calls)) : many(calls);
    }
    case "search_codebase": {
      // Cline's search reads every file under the task's directory, ignored files included: judged as that read.
      const queries = strings(p, "queries", "search_codebase");
      if (!Array.isArray(queries)) return bad(queries);
      return many(
        queries.map((q) =>
          one("execute_command", { command: `grep -rn -e ${quoteWord(q)} -- ${quoteWord(nodePath.resolve(cwd))}` }),
        ),
      );
    }
    case "fetch_web_content": {
      const urls = fetchUrls(p);
      if (!Array.isArray(urls)) return bad(urls);
      return many(urls.map((url) => one("web_fetch", { url })));
    }
    default: {
      const inert = INERT[input.toolName];
      if (inert !== undefined) return { kind: "inert", reason: inert };
      return {
        kind: "ask",
        reason: `Toolgate has no rule for Cline's \`${input.toolName}\` tool, so a person must decide`,
      };
    }
  }
}

/** What a Cline call brings into the session once it runs: the web hosts `fetch_web_content` reads. */
export function clineSource(call: AgentCall): string | undefined {
  if (call.toolName !== "fetch_web_content") return undefined;
  const urls = fetchUrls(call.toolInput);
  if (!Array.isArray(urls)) return "the web";
  return [...new Set(urls.map((u) => urlHost(u.trim()) ?? "the web"))].join(", ");
}

export const CLINE_STOPS =
  "Cline stops the whole task when its hook cancels a tool call; change the request or your Toolgate settings and start the task again.";

/**
 * `{cancel, errorMessage}`: an allow says nothing more (Cline would add an allow's message to the conversation)
 * than the rewritten input, where there is one.
 */
export function renderCline(answer: HookAnswer): Rendered {
  if (answer.decision === "allow") {
    const rewritten = answer.updatedInput !== undefined ? { overrideInput: answer.updatedInput } : {};
    return { stdout: JSON.stringify({ cancel: false, ...rewritten }) + "\n", exitCode: 0 };
  }
  return {
    stdout: JSON.stringify({ cancel: true, errorMessage: `${answer.reason} ${CLINE_STOPS}` }) + "\n",
    exitCode: 0,
  };
}

const USAGE = `usage: toolgate hook cline [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  Cline 3's PreToolUse hook: reads the hook JSON on stdin, answers {"cancel": false} or
  {"cancel": true, "errorMessage": "..."} (Cline has no ask: every ask cancels, and a cancel stops the task).
  The workspace is the input's workspaceRoots; commands are judged from the hook's working directory.
  Allowed commands are rewritten (overrideInput) to run in Toolgate's sandbox.
  Always exits 0; Cline ignores exit codes, so anything that cannot be decided is a cancel.
  Install as an executable <workspace>/.clinerules/hooks/PreToolUse (or ~/Documents/Cline/Hooks/PreToolUse):
    #!/bin/sh
    exec toolgate hook cline`;

/** Cline's side of the sandbox rewrite: `run_commands` carries its commands as the list `commands`. */
export const clineCommandRewrite: CommandRewrite = {
  commandField: (toolName) => (toolName === "run_commands" ? "commands" : undefined),
  commandInput: (line) => ({ commands: [line] }),
  commandListInput: (each) => ({
    commands: each.flatMap((i) => (Array.isArray(i.commands) ? (i.commands as unknown[]) : [])),
  }),
  // The spellings commandsOf also reads: left in, they could name another command than the rewritten one.
  dropFields: ["command", "cmd"],
  verifiedVersions: CLINE_REWRITE_VERIFIED,
};

export const clineAdapter: AgentAdapter = {
  name: "cline",
  displayName: "Cline",
  usage: USAGE,
  parse: (text) => parseClineInput(text, process.cwd(), versionFromAncestors(CLINE_BINARY)),
  map: (call) => mapClineTool(call),
  honoursAsk: () => false,
  source: clineSource,
  render: renderCline,
  commandRewrite: clineCommandRewrite,
};
