import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import * as nodePath from "node:path";
import { constants } from "node:os";
import { parseJsonc } from "../core/jsonc";
import { parseSandboxSettings, type SandboxSettings } from "../core/sandbox/sandboxSettings";
import { availabilityOf, probeSandbox } from "../agent/sandbox/sandboxProbe";
import { SandboxSession, SandboxUnavailableError } from "../agent/sandbox/sandboxedSpawn";

/**
 * `toolgate sandbox [--settings F] [--workspace D]... -- LINE`: runs one command line as the runtime runs an
 * auto-approved one (same policy, `bash --noprofile --norc -c LINE`, cwd = the first workspace), without the
 * gate: the second layer alone. stdout, stderr and the exit code pass through; when no sandbox can start it
 * runs nothing and exits 125. `toolgate sandbox --status` prints the probe as one JSON line.
 */

export const SANDBOX_USAGE = `usage: toolgate sandbox [--settings FILE] [--workspace DIR]... -- LINE
       toolgate sandbox --status`;

/** Exit status when no sandbox could be started (nothing ran), as `env`/`timeout` use 125. */
export const NO_SANDBOX_EXIT = 125;

/** Variables that change what bash runs before or around LINE: never passed to it. */
const SHELL_HOOK_VARS = /^(BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|SHELLOPTS|BASHOPTS|CDPATH|GLOBIGNORE|BASH_FUNC_.*)$/;

interface SandboxArgs {
  readonly status: boolean;
  readonly settingsFile?: string;
  readonly workspaces: readonly string[];
  readonly line?: string;
}

class SandboxUsageError extends Error {}

function parseSandboxArgs(argv: readonly string[]): SandboxArgs {
  let status = false;
  let settingsFile: string | undefined;
  const workspaces: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      const rest = argv.slice(i + 1);
      if (rest.length !== 1) throw new SandboxUsageError("exactly one command line must follow `--`");
      if (status) throw new SandboxUsageError("--status takes no command line");
      return { status, workspaces, line: rest[0]!, ...(settingsFile ? { settingsFile } : {}) };
    }
    const eq = a.indexOf("=");
    const [flag, inline] = a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new SandboxUsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--status" && inline === undefined) status = true;
    else if (flag === "--settings") settingsFile = value();
    else if (flag === "--workspace") workspaces.push(value());
    else throw new SandboxUsageError(`unknown option \`${a}\``);
  }
  if (!status) throw new SandboxUsageError("no command line: `-- LINE` is missing");
  return { status, workspaces, ...(settingsFile ? { settingsFile } : {}) };
}

/** The two things this command reads from a flat settings file: the ignore file's name and the sandbox keys. */
function readSettings(file: string | undefined): { ignoreFileName: string; sandbox: SandboxSettings } {
  let flat: unknown = {};
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      throw new SandboxUsageError(`cannot read settings file ${file}: ${(e as NodeJS.ErrnoException).code ?? ""}`);
    }
    try {
      flat = parseJsonc(text);
    } catch (e) {
      throw new SandboxUsageError(`settings file ${file} is not valid JSON: ${(e as Error).message}`);
    }
  }
  const parsed = parseSandboxSettings(flat);
  if (!parsed.ok) throw new SandboxUsageError(parsed.error);
  const raw = (flat as Record<string, unknown>)["toolgate.ignoreFile"];
  let ignoreFileName = ".toolgateignore";
  if (raw !== undefined) {
    if (typeof raw !== "string" || raw.trim() === "" || raw.includes("\0"))
      throw new SandboxUsageError("`toolgate.ignoreFile` must be a file name");
    ignoreFileName = raw.trim();
  }
  return { ignoreFileName, sandbox: parsed.value };
}

function workspaceDirs(dirs: readonly string[]): string[] {
  return (dirs.length > 0 ? dirs : [process.cwd()]).map((d) => {
    const abs = nodePath.resolve(d);
    if (!statSync(abs, { throwIfNoEntry: false })?.isDirectory())
      throw new SandboxUsageError(`workspace ${d} is not a directory`);
    return abs;
  });
}

export async function runSandboxCli(argv: readonly string[]): Promise<number> {
  let args: SandboxArgs;
  let settings: ReturnType<typeof readSettings>;
  let roots: string[];
  try {
    args = parseSandboxArgs(argv);
    settings = readSettings(args.settingsFile);
    roots = workspaceDirs(args.workspaces);
  } catch (e) {
    if (!(e instanceof SandboxUsageError)) throw e;
    process.stderr.write(`toolgate sandbox: ${e.message}\n${SANDBOX_USAGE}\n`);
    return 2;
  }
  const probe = probeSandbox();
  if (args.status) {
    process.stdout.write(JSON.stringify(availabilityOf(probe)) + "\n");
    return 0;
  }
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SHELL_HOOK_VARS.test(k)) env[k] = v;
  let prepared;
  let session: SandboxSession | undefined;
  try {
    session = new SandboxSession(
      { roots, ignoreFileName: settings.ignoreFileName, network: settings.sandbox.network },
      probe,
    );
    await session.ready();
    prepared = session.prepare({
      file: "/bin/bash",
      args: ["--noprofile", "--norc", "-c", args.line!],
      env,
      cwd: roots[0]!,
    });
  } catch (e) {
    session?.dispose();
    if (!(e instanceof SandboxUnavailableError)) throw e;
    process.stderr.write(`toolgate sandbox: no sandbox: ${e.message}\n`);
    return NO_SANDBOX_EXIT;
  }
  // The allow-list proxy (if the settings list hosts) lives in this process until the command ended.
  const s = session;
  if (prepared.notice) process.stderr.write(`toolgate sandbox: ${prepared.notice}\n`);
  const p = prepared;
  return new Promise<number>((resolve) => {
    const child = spawn(p.file, p.args, { cwd: p.cwd, env: p.env, stdio: ["inherit", "inherit", "pipe"] });
    // stderr passes through; its head is kept to tell bubblewrap's own start failure from the command's.
    let head = "";
    child.stderr.on("data", (b: Buffer) => {
      if (head.length < 4096) head += b.toString("utf8");
      process.stderr.write(b);
    });
    child.on("error", (e) => {
      p.cleanup();
      s.dispose();
      process.stderr.write(`toolgate sandbox: cannot start ${p.file}: ${e.message}\n`);
      resolve(NO_SANDBOX_EXIT);
    });
    child.on("close", (code, signal) => {
      const exit = code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
      const report = p.afterRun({ exitCode: exit, output: head });
      s.dispose();
      if (report.startFailure !== undefined) {
        process.stderr.write(`toolgate sandbox: the sandbox did not start: ${report.startFailure}\n`);
        resolve(NO_SANDBOX_EXIT);
        return;
      }
      for (const c of report.protectedChanges)
        process.stderr.write(`toolgate sandbox: protected path ${c.kind}: ${c.path} (${c.what})\n`);
      resolve(exit);
    });
  });
}
