/**
 * `toolgate hook install <agent> [--project DIR | --user] [--dry-run] [--agent-bin PATH] [-- HOOK-ARGS]`: writes
 * the per-user wrapper and merges the agent's configuration so that the agent runs it.
 *
 * Invariants: nothing but the Toolgate entry changes in a configuration file (jsoncHooks.ts, codexToml.ts); a
 * file that cannot be parsed, or a Cline hook file that is not Toolgate's, is left alone and install fails
 * (exit 2) before writing anything; every write replaces the file atomically and keeps its mode; running
 * install twice leaves every file as the first run wrote it.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { writeExecutableIfChanged, wrapperPath } from "../../agent/hooks/wrapperFile";
import { renderWrapper, type WrapperSpec } from "../../agent/hooks/wrapperScript";
import { UsageError } from "../args";
import type { CliIo } from "../command";
import {
  AGENTS,
  CLAUDE_ON_FAILURE_SINCE,
  CLINE_MARKER,
  claudeEntry,
  clineHookFile,
  configFile,
  cursorEntry,
  CURSOR_EVENTS,
  FACTS,
  geminiEntry,
  hookCommand,
  isToolgateCommand,
  WRAPPER_LIMIT_SECONDS,
  AGENT_TIMEOUT_SECONDS,
  type AgentName,
  type Scope,
} from "./agentConfigs";
import { codexBlock, mergeCodexBlock } from "./codexToml";
import { agentVersion, compareVersions } from "./agentVersion";
import { findProgram } from "./programs";
import { ConfigEditError, mergeFlatHook, mergeGroupedHook, setIfAbsent } from "./jsoncHooks";

export const INSTALL_USAGE = `usage: toolgate hook install <agent> [--project DIR | --user] [--dry-run] [--agent-bin PATH] [-- HOOK-ARGS...]
  agents: ${AGENTS.join(", ")}
  Writes a POSIX sh wrapper at $XDG_DATA_HOME/toolgate/hooks/<agent>.sh (default ~/.local/share/...) that runs
  this Node and this dist/cli.js under \`timeout\` and turns any failure into the agent's refusal, then merges
  the agent's hook configuration (user scope by default; --project DIR for the project's files). Comments and
  other entries are kept; an existing Toolgate entry is replaced. --dry-run prints what would be written.
  HOOK-ARGS are passed to \`toolgate hook <agent>\` (for example: -- --headless for gemini-cli -p).`;

export interface InstallOptions {
  readonly agent: AgentName;
  readonly scope: Scope;
  /** The project folder (scope "project"). */
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Absolute Node interpreter and dist/cli.js the wrapper runs. */
  readonly node: string;
  readonly cli: string;
  readonly hookArgs: readonly string[];
  /** The agent's version, when known (Claude Code: whether `onFailure` is written). */
  readonly agentVersion?: string;
}

export interface PlannedFile {
  readonly path: string;
  readonly content: string;
  readonly before: string | undefined;
  readonly executable: boolean;
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ConfigEditError(`${file} cannot be read: ${(e as Error).message}`);
  }
}

function tools(env: NodeJS.ProcessEnv): WrapperSpec["tools"] {
  const sys = ["/usr/bin", "/bin"];
  // macOS has no coreutils `timeout`; Homebrew's coreutils names it gtimeout.
  const timeout = findProgram(["timeout", "gtimeout"], env, sys);
  if (timeout === undefined)
    throw new ConfigEditError(
      "coreutils `timeout` was not found (on macOS: brew install coreutils), so no wrapper can bound the hook",
    );
  const need = (n: string): string => {
    const p = findProgram([n], env, sys);
    if (p === undefined) throw new ConfigEditError(`\`${n}\` was not found on PATH`);
    return p;
  };
  return { timeout, mktemp: need("mktemp"), cat: need("cat"), rm: need("rm") };
}

export function wrapperSpec(o: InstallOptions): WrapperSpec {
  return {
    agent: o.agent,
    style: FACTS[o.agent].style,
    node: o.node,
    cli: o.cli,
    hookArgs: o.hookArgs,
    limitSeconds: WRAPPER_LIMIT_SECONDS,
    tools: tools(o.env),
  };
}

function configContent(o: InstallOptions, file: string, before: string, wrapper: string): string {
  const command = hookCommand(FACTS[o.agent].style, wrapper);
  const ours = (h: unknown): boolean =>
    typeof h === "object" && h !== null && isToolgateCommand((h as { command?: unknown }).command, wrapper);
  switch (o.agent) {
    case "claude-code": {
      const onFailure = o.agentVersion === undefined || compareVersions(o.agentVersion, CLAUDE_ON_FAILURE_SINCE) >= 0;
      return mergeGroupedHook(before, file, ["hooks", "PreToolUse"], claudeEntry(command, onFailure), ours);
    }
    case "gemini-cli": {
      const oursGemini = (h: unknown): boolean => ours(h) || (h as { name?: unknown } | null)?.name === "toolgate";
      return mergeGroupedHook(before, file, ["hooks", "BeforeTool"], geminiEntry(command), oursGemini);
    }
    case "codex":
      return mergeCodexBlock(before, file, codexBlock(command, AGENT_TIMEOUT_SECONDS));
    case "cursor": {
      let t = setIfAbsent(before, file, ["version"], 1);
      for (const event of CURSOR_EVENTS) t = mergeFlatHook(t, file, ["hooks", event], cursorEntry(command), ours);
      return t;
    }
    case "cline":
      if (before !== "" && !before.includes(CLINE_MARKER))
        throw new ConfigEditError(
          `${file} exists and is not Toolgate's: move it away (Cline runs every hook file) and run install again`,
        );
      return clineHookFile(wrapper);
  }
}

/** What install would write: the wrapper, then the agent's configuration file. Throws ConfigEditError. */
export function planInstall(o: InstallOptions): PlannedFile[] {
  const wrapper = wrapperPath(o.agent, o.env);
  const file = configFile(o.agent, o.scope, o.dir, o.env);
  const before = readIfExists(file);
  return [
    { path: wrapper, content: renderWrapper(wrapperSpec(o)), before: readIfExists(wrapper), executable: true },
    { path: file, content: configContent(o, file, before ?? "", wrapper), before, executable: o.agent === "cline" },
  ];
}

function writeKeepingMode(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const mode = existsSync(file) ? statSync(file).mode & 0o7777 : 0o644;
  const tmp = `${file}.toolgate-${process.pid}.tmp`;
  try {
    writeFileSync(tmp, content, { mode });
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

export function applyPlan(plan: readonly PlannedFile[]): string[] {
  const written: string[] = [];
  for (const f of plan) {
    if (f.executable) {
      if (writeExecutableIfChanged(f.path, f.content) === "written") written.push(f.path);
    } else if (f.before !== f.content) {
      writeKeepingMode(f.path, f.content);
      written.push(f.path);
    }
  }
  return written;
}

const PER_USER_PATH =
  "the configuration names this user's wrapper path: in a shared repository each person runs install (or use --user, or the agent's managed settings)";

/** What a person must know after installing for each agent. */
const AFTER_INSTALL: Readonly<Record<AgentName, (scope: Scope) => string[]>> = {
  "claude-code": (scope) => (scope === "project" ? [PER_USER_PATH] : []),
  "gemini-cli": (scope) => [
    "for `gemini -p` install with `-- --headless` (an ask would hang a headless run)",
    ...(scope === "project" ? [PER_USER_PATH, "Gemini CLI runs project hooks only in a trusted folder"] : []),
  ],
  cline: (scope) => [
    "Cline has no ask: a refusal cancels the whole task",
    ...(scope === "project" ? [PER_USER_PATH] : []),
  ],
  codex: (scope) => [
    "Codex runs the hook only once you trust it: start codex, open /hooks and trust the Toolgate hook (again after an install that changes it)",
    ...(scope === "project" ? [PER_USER_PATH, "Codex reads .codex/config.toml only for a trusted project"] : []),
  ],
  cursor: () => ["Cursor's hook format is taken from its documentation and was not verified against Cursor"],
};

function parseInstallArgs(argv: readonly string[]): {
  agent: AgentName;
  scope: Scope;
  dir?: string;
  dryRun: boolean;
  agentBin?: string;
  hookArgs: string[];
} {
  const dash = argv.indexOf("--");
  const own = dash === -1 ? argv : argv.slice(0, dash);
  const hookArgs = dash === -1 ? [] : argv.slice(dash + 1);
  let agent: string | undefined;
  let dir: string | undefined;
  let user = false;
  let dryRun = false;
  let agentBin: string | undefined;
  for (let i = 0; i < own.length; i++) {
    const a = own[i]!;
    if (a === "--project") {
      dir = own[++i];
      if (dir === undefined) throw new UsageError("--project needs a folder");
    } else if (a === "--user") user = true;
    else if (a === "--dry-run") dryRun = true;
    else if (a === "--agent-bin") {
      agentBin = own[++i];
      if (agentBin === undefined) throw new UsageError("--agent-bin needs a program");
    } else if (a.startsWith("-")) throw new UsageError(`unknown option \`${a}\``);
    else if (agent === undefined) agent = a;
    else throw new UsageError(`unexpected argument \`${a}\``);
  }
  if (agent === undefined || !(AGENTS as readonly string[]).includes(agent))
    throw new UsageError(`name the agent: ${AGENTS.join(", ")}`);
  if (user && dir !== undefined) throw new UsageError("give --project DIR or --user, not both");
  return {
    agent: agent as AgentName,
    scope: dir !== undefined ? "project" : "user",
    ...(dir !== undefined ? { dir } : {}),
    dryRun,
    ...(agentBin !== undefined ? { agentBin } : {}),
    hookArgs,
  };
}

/** The dist/cli.js this process runs (symlinks resolved: npm's bin link must not be what the wrapper names). */
export function runningCli(): string {
  const script = process.argv[1];
  if (script === undefined) throw new ConfigEditError("cannot tell which dist/cli.js is running");
  return realpathSync(script);
}

export async function installMain(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(INSTALL_USAGE + "\n");
    return 0;
  }
  const a = parseInstallArgs(argv);
  const version = await agentVersion(a.agent, a.agentBin, io.env);
  const o: InstallOptions = {
    agent: a.agent,
    scope: a.scope,
    dir: path.resolve(io.cwd, a.dir ?? "."),
    env: io.env,
    node: process.execPath,
    cli: runningCli(),
    hookArgs: a.hookArgs,
    ...(version.version !== undefined ? { agentVersion: version.version } : {}),
  };
  let plan: PlannedFile[];
  try {
    plan = planInstall(o);
  } catch (e) {
    if (!(e instanceof ConfigEditError)) throw e;
    io.stderr.write(`toolgate hook install: ${e.message}\n`);
    return 2;
  }
  if (a.dryRun) {
    for (const f of plan)
      io.stdout.write(
        f.before === f.content
          ? `unchanged: ${f.path}\n`
          : `would write ${f.path}${f.executable ? " (mode 0755)" : ""}:\n${f.content}${f.content.endsWith("\n") ? "" : "\n"}`,
      );
    return 0;
  }
  const written = new Set(applyPlan(plan));
  for (const f of plan) io.stdout.write(`${written.has(f.path) ? "wrote" : "unchanged"}: ${f.path}\n`);
  for (const note of AFTER_INSTALL[a.agent](a.scope)) io.stdout.write(`note: ${note}\n`);
  io.stdout.write(`check it: toolgate hook doctor ${a.agent}${a.scope === "project" ? ` --project ${o.dir}` : ""}\n`);
  return 0;
}
