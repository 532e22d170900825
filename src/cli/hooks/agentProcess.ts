/**
 * Which agent binary is running this hook, and its version: the nearest ancestor of the hook process whose
 * executable (the kernel's `/proc/PID/exe`, which the model cannot point elsewhere) has the agent's name, and
 * the version its package file states — each adapter says which file and how it names the binary (codex.ts,
 * cline.ts). The binary that started the hook is the one that will (or will not) apply a rewritten input.
 *
 * Invariants: anything unreadable, another platform (no `/proc`), a binary replaced since it started (its exe
 * ends in " (deleted)"), or no such ancestor within a few levels is "unknown" — never a verified version.
 */
import { readFileSync, readlinkSync } from "node:fs";
import * as nodePath from "node:path";

/** How far up the hook may sit below the agent: agent → shell → Toolgate's `sh` wrapper → `timeout` → node. */
const MAX_DEPTH = 8;

/** What the lookup reads; the real file system by default (tests give a fake `/proc`). */
export interface ProcReader {
  readonly exe: (pid: number) => string;
  readonly stat: (pid: number) => string;
  readonly file: (path: string) => string;
}

export const REAL_PROC: ProcReader = {
  exe: (pid) => readlinkSync(`/proc/${pid}/exe`),
  stat: (pid) => readFileSync(`/proc/${pid}/stat`, "utf8"),
  file: (p) => readFileSync(p, "utf8"),
};

/** An agent's binary: its file name, and its version from the package file beside it (undefined: not its own). */
export interface AgentBinary {
  readonly name: string;
  readonly version: (exe: string, read: (path: string) => unknown) => string | undefined;
}

/** The parent pid from `/proc/PID/stat` (the field after the state, past the parenthesised name). */
function parentOf(stat: string): number | undefined {
  const rest = stat
    .slice(stat.lastIndexOf(")") + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number.parseInt(rest[1] ?? "", 10);
  return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
}

/** `x.y.z`, or undefined. */
export function plainVersion(v: unknown): string | undefined {
  return typeof v === "string" && /^\d+\.\d+\.\d+$/.test(v) ? v : undefined;
}

/** The version of the nearest `binary` among `pid`'s ancestors; undefined when it cannot be told. */
export function versionFromAncestors(
  binary: AgentBinary,
  pid: number = process.pid,
  read: ProcReader = REAL_PROC,
): string | undefined {
  const json = (p: string): unknown => {
    try {
      return JSON.parse(read.file(p)) as unknown;
    } catch {
      return undefined;
    }
  };
  let current = pid;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    let parent: number | undefined;
    let exe: string;
    try {
      parent = parentOf(read.stat(current));
      if (parent === undefined) return undefined;
      exe = read.exe(parent);
    } catch {
      return undefined;
    }
    if (nodePath.basename(exe) === binary.name) return binary.version(exe, json);
    current = parent;
  }
  return undefined;
}
