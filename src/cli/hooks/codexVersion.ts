/**
 * Which Codex is running this hook: the version of the `codex` binary among the hook process's ancestors, read
 * from the package file that sits beside its `bin/` folder (`codex-package.json`: `{"version", "entrypoint":
 * "bin/codex", …}`, in the npm package's `vendor/<target>/` and in the release archives alike).
 *
 * Why not the input's `transcript_path` (verified with the real 0.171.0): its first line is a `session_meta`
 * record whose `cli_version` is the version that STARTED the session; `codex exec resume` appends to the same
 * file and writes no new `session_meta`, so a session resumed by another version still names the first one.
 * The binary that started the hook is the one that will (or will not) apply the rewrite.
 *
 * Invariants: only the kernel's `/proc/PID/exe` names the binary (the model cannot point it elsewhere); the
 * package file counts only when its entrypoint is that binary; anything unreadable, another platform (no
 * `/proc`), or no `codex` within a few ancestors is "unknown" — never a verified version.
 */
import { readFileSync, readlinkSync } from "node:fs";
import * as nodePath from "node:path";

/** How far up the hook may sit below Codex: Codex → shell → Toolgate's `sh` wrapper → `timeout` → node. */
const MAX_DEPTH = 8;
const PACKAGE_FILE = "codex-package.json";

/** What the lookup reads; the real file system by default (tests give a fake `/proc`). */
export interface ProcReader {
  readonly exe: (pid: number) => string;
  readonly stat: (pid: number) => string;
  readonly file: (path: string) => string;
}

const REAL: ProcReader = {
  exe: (pid) => readlinkSync(`/proc/${pid}/exe`),
  stat: (pid) => readFileSync(`/proc/${pid}/stat`, "utf8"),
  file: (p) => readFileSync(p, "utf8"),
};

/** The parent pid from `/proc/PID/stat` (the field after the state, past the parenthesised name). */
function parentOf(stat: string): number | undefined {
  const rest = stat
    .slice(stat.lastIndexOf(")") + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number.parseInt(rest[1] ?? "", 10);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
}

/** The version in the package file beside `exe`, when that file names `exe` as its entrypoint. */
function packageVersion(exe: string, read: ProcReader): string | undefined {
  const root = nodePath.dirname(nodePath.dirname(exe));
  try {
    const pkg = JSON.parse(read.file(nodePath.join(root, PACKAGE_FILE))) as unknown;
    if (typeof pkg !== "object" || pkg === null) return undefined;
    const { version, entrypoint } = pkg as Record<string, unknown>;
    if (typeof version !== "string" || !/^\d+\.\d+\.\d+$/.test(version)) return undefined;
    if (typeof entrypoint !== "string" || nodePath.resolve(root, entrypoint) !== exe) return undefined;
    return version;
  } catch {
    return undefined;
  }
}

/** The running Codex's version, starting from `pid`'s parent; undefined when it cannot be told. */
export function codexVersionFromProcess(pid: number = process.pid, read: ProcReader = REAL): string | undefined {
  let current = pid;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    let parent: number | undefined;
    try {
      parent = parentOf(read.stat(current));
    } catch {
      return undefined;
    }
    if (parent === undefined) return undefined;
    let exe: string;
    try {
      exe = read.exe(parent);
    } catch {
      return undefined;
    }
    if (nodePath.basename(exe) === "codex") return packageVersion(exe, read);
    current = parent;
  }
  return undefined;
}
