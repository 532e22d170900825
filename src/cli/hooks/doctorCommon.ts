/**
 * What every agent's doctor checks about one configured hook command: that its program exists and runs, that
 * it is Toolgate's wrapper (not `toolgate` itself, which fails open outside Node), that the wrapper's Node and
 * dist/cli.js exist and it is current, and that the agent waits longer than the wrapper can take.
 */
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parseWrapperSpec, renderWrapper, wrapperWorstCaseSeconds } from "../../agent/hooks/wrapperScript";
import type { CodexHookInfo } from "./codexHooks";
import { findProgram, isExecutableFile } from "./programs";

export type Level = "fails-open" | "warn" | "info";

export interface Finding {
  readonly level: Level;
  readonly code: string;
  readonly message: string;
}

export interface DoctorContext {
  readonly env: NodeJS.ProcessEnv;
  readonly dir: string;
  /** The agent's managed / system settings file (default: the agent's system path). */
  readonly managedFile?: string;
  /** The dist/cli.js of this toolgate, to tell a stale wrapper. */
  readonly cli?: string;
  readonly version?: string;
  /** Codex's own list of its PreToolUse hooks (`codex app-server` hooks/list); absent when not asked or unknown. */
  readonly codexHooks?: readonly CodexHookInfo[];
}

export const finding = (level: Level, code: string, message: string): Finding => ({ level, code, message });

/** The first word of a shell command line, unquoted (single, double or bare). */
export function firstWord(command: string): string {
  const c = command.trimStart();
  const single = /^'((?:[^']|'\\'')*)'/.exec(c);
  if (single) return (single[1] ?? "").replace(/'\\''/g, "'");
  const double = /^"((?:[^"\\]|\\.)*)"/.exec(c);
  if (double) return (double[1] ?? "").replace(/\\(.)/g, "$1");
  return /^\S*/.exec(c)?.[0] ?? "";
}

/** Whether the rest of the line refuses when the program itself cannot run (install's `|| exit 2` / `|| printf`). */
export function guardedLine(command: string): boolean {
  return /\|\|\s*(exit\s+2|printf\b)/.test(command);
}

export interface CommandCheck {
  /** The command line as configured. */
  readonly command: string;
  /** Where it is configured, for the messages. */
  readonly where: string;
  /** The agent's timeout for this hook in seconds (undefined: the agent's default). */
  readonly timeoutSeconds: number | undefined;
  readonly defaultTimeoutSeconds: number | undefined;
  /** The agent itself blocks when the hook fails (Claude Code's `onFailure: "block"`). */
  readonly agentBlocksOnFailure: boolean;
}

export function checkCommand(c: CommandCheck, ctx: DoctorContext): Finding[] {
  const out: Finding[] = [];
  const guarded = guardedLine(c.command) || c.agentBlocksOnFailure;
  const broken = (code: string, what: string): Finding =>
    guarded
      ? finding("warn", code, `${what} (${c.where}); every call is refused until it is fixed`)
      : finding("fails-open", code, `${what} (${c.where}); the agent lets every call through`);
  const word = firstWord(c.command);
  const program = path.isAbsolute(word) ? word : findProgram([word], ctx.env);
  if (program === undefined || !path.isAbsolute(program)) {
    out.push(broken("command-missing", `the hook command \`${word}\` is not found`));
    return out;
  }
  if (!isExecutableFile(program)) {
    out.push(broken("command-not-executable", `the hook command ${program} is missing or not executable`));
    return out;
  }
  let text = "";
  try {
    text = readFileSync(program, "utf8");
  } catch {
    text = "";
  }
  const spec = parseWrapperSpec(text);
  if (spec === undefined) {
    out.push(
      finding(
        "fails-open",
        "no-wrapper",
        `the hook runs ${program} directly, not Toolgate's wrapper (${c.where}): a crash, a timeout or a missing Node lets the call through; run \`toolgate hook install\``,
      ),
    );
    return out;
  }
  if (!isExecutableFile(spec.node))
    out.push(
      finding("warn", "wrapper-node-missing", `the wrapper's Node ${spec.node} is missing: every call is refused`),
    );
  if (!isExecutableFile(spec.tools.timeout))
    out.push(
      finding(
        "warn",
        "wrapper-timeout-missing",
        `the wrapper's ${spec.tools.timeout} is missing: every call is refused`,
      ),
    );
  let cliExists = true;
  try {
    readFileSync(spec.cli);
  } catch {
    cliExists = false;
  }
  if (!cliExists)
    out.push(finding("warn", "wrapper-cli-missing", `the wrapper's ${spec.cli} is missing: every call is refused`));
  if (renderWrapper(spec) !== text)
    out.push(
      finding(
        "warn",
        "wrapper-stale",
        `${program} was edited or written by another Toolgate version; run \`toolgate hook install\``,
      ),
    );
  else if (ctx.cli !== undefined && spec.cli !== ctx.cli)
    out.push(finding("info", "wrapper-other-cli", `${program} runs ${spec.cli}, not this toolgate (${ctx.cli})`));
  const worst = wrapperWorstCaseSeconds(spec);
  const timeout = c.timeoutSeconds ?? c.defaultTimeoutSeconds;
  if (timeout === undefined) {
    out.push(finding("warn", "timeout-unknown", `no timeout is set (${c.where}) and the agent's default is not known`));
  } else if (timeout <= worst) {
    out.push(
      c.agentBlocksOnFailure
        ? finding(
            "warn",
            "timeout-too-short",
            `the agent's hook timeout (${timeout} s) is not longer than the wrapper's ${worst} s: a slow answer is refused`,
          )
        : finding(
            "fails-open",
            "timeout-too-short",
            `the agent's hook timeout (${timeout} s, ${c.where}) is not longer than the wrapper's ${worst} s: the agent gives up first and lets the call through`,
          ),
    );
  } else if (c.timeoutSeconds === undefined) {
    out.push(
      finding(
        "info",
        "timeout-default",
        `no timeout is set (${c.where}); the agent's default ${timeout} s is longer than the wrapper's ${worst} s`,
      ),
    );
  }
  return out;
}

export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** `CLAUDE_CODE_SIMPLE`-style switches: set and not "0"/"false"/"". */
export function envTruthy(v: string | undefined): boolean {
  return v !== undefined && !["", "0", "false", "no", "off"].includes(v.trim().toLowerCase());
}
