/**
 * The sandbox probe remembered across processes, for the hooks: a hook process decides one call, and starting
 * bubblewrap to learn that it works costs more than the rest of the answer. Only a probe that found the sandbox
 * working is remembered, in `<cache>/toolgate/sandbox-probe.json` (private to the user), for ten minutes, and
 * only while nothing it depends on changed: the bwrap found on PATH (its path, device, inode, size, times), the
 * user, the boot, the user namespace and the sysctls that allow or forbid unprivileged namespaces.
 *
 * Invariant: a remembered probe can only move a decision toward the sandbox. A probe that found no sandbox is
 * never remembered (the next call probes again, so a fix is seen at once). If the sandbox stopped working
 * within the ten minutes, or the file was forged, a command is rewritten to run in it, and `toolgate sandbox`,
 * which always probes afresh before it runs anything, refuses to run it: nothing runs outside the sandbox
 * because of this file. A file that cannot be read, parsed or trusted is a fresh probe.
 */
import * as fs from "node:fs";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { findOnPath, probeSandbox, type SandboxProbe } from "./sandboxProbe";

const FORMAT = 1;
export const PROBE_MEMO_MS = 10 * 60 * 1000;

/** `$XDG_CACHE_HOME/toolgate/sandbox-probe.json`, else `~/.cache/toolgate/sandbox-probe.json`. */
export function probeMemoFile(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && nodePath.isAbsolute(xdg) ? xdg : nodePath.join(home, ".cache");
  return nodePath.join(base, "toolgate", "sandbox-probe.json");
}

function readOr(path: string): string {
  try {
    return fs.readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

/**
 * What a working probe depends on, as one string, and the bwrap it found; undefined where there is nothing to
 * remember (no bwrap).
 */
export function probeKey(env: NodeJS.ProcessEnv): { readonly key: string; readonly bwrap: string } | undefined {
  if (process.platform !== "linux") return undefined;
  const bwrap = findOnPath("bwrap", env.PATH);
  if (bwrap === undefined) return undefined;
  let st: fs.Stats;
  try {
    st = fs.statSync(bwrap);
  } catch {
    return undefined;
  }
  let userns = "";
  try {
    userns = fs.readlinkSync("/proc/self/ns/user");
  } catch {
    /* none */
  }
  const key = JSON.stringify([
    bwrap,
    st.dev,
    st.ino,
    st.size,
    st.mode,
    st.uid,
    st.mtimeMs,
    st.ctimeMs,
    process.getuid?.(),
    readOr("/proc/sys/kernel/random/boot_id"),
    userns,
    readOr("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"),
    readOr("/proc/sys/user/max_user_namespaces"),
    readOr("/proc/sys/kernel/unprivileged_userns_clone"),
  ]);
  return { key, bwrap };
}

interface Memo {
  readonly format: number;
  readonly key: string;
  readonly at: number;
  readonly probe: SandboxProbe;
}

function privateTo(st: fs.Stats): boolean {
  const uid = process.getuid?.();
  return (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
}

function readMemo(file: string, key: string, bwrap: string, now: number): SandboxProbe | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    const dir = fs.lstatSync(nodePath.dirname(file));
    if (!st.isFile() || !privateTo(st) || !dir.isDirectory() || !privateTo(dir)) return undefined;
    const m = JSON.parse(fs.readFileSync(fd, "utf8")) as Partial<Memo>;
    const p = m.probe;
    if (m.format !== FORMAT || m.key !== key || typeof m.at !== "number") return undefined;
    if (m.at > now || now - m.at >= PROBE_MEMO_MS) return undefined;
    if (p === undefined || p.available !== true || p.mechanism !== "bubblewrap") return undefined;
    if (p.executable !== bwrap || typeof p.reason !== "string" || typeof p.disableUserns !== "boolean")
      return undefined;
    return {
      available: true,
      mechanism: "bubblewrap",
      reason: p.reason,
      executable: bwrap,
      disableUserns: p.disableUserns,
    };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeMemo(file: string, memo: Memo): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(nodePath.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(tmp, JSON.stringify(memo) + "\n", { mode: 0o600, flag: "wx" });
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * The sandbox probe for a hook: the remembered working probe when it still holds, else a fresh one (which is
 * remembered when it found the sandbox working).
 */
export function probeSandboxRemembered(
  env: NodeJS.ProcessEnv = process.env,
  o: { readonly file?: string; readonly now?: number; readonly probe?: () => SandboxProbe } = {},
): SandboxProbe {
  const fresh = o.probe ?? (() => probeSandbox(false, env));
  const k = probeKey(env);
  if (k === undefined) return fresh();
  const file = o.file ?? probeMemoFile(env);
  const now = o.now ?? Date.now();
  const remembered = readMemo(file, k.key, k.bwrap, now);
  if (remembered !== undefined) return remembered;
  const p = fresh();
  if (p.available && p.mechanism === "bubblewrap" && p.executable === k.bwrap)
    writeMemo(file, { format: FORMAT, key: k.key, at: now, probe: p });
  return p;
}
