import { accessSync, constants, readFileSync } from "node:fs";
import * as nodePath from "node:path";
import { baseBwrapArgs } from "../../core/sandbox/bwrapArgs";
import type { SandboxAvailability } from "../../core/sandbox/sandboxPlan";

/** What the runtime needs beyond the public availability: how to start the mechanism. */
export interface SandboxProbe extends SandboxAvailability {
  /** bubblewrap's path; the sandbox-exec path on macOS. */
  readonly executable?: string;
  /** Whether this bubblewrap accepts `--disable-userns` (0.8 and later). */
  readonly disableUserns: boolean;
}

export function findOnPath(name: string, pathVar: string | undefined): string | undefined {
  const dirs = [...(pathVar ?? "").split(":").filter(Boolean), "/usr/bin", "/bin", "/usr/local/bin"];
  for (const d of dirs) {
    const p = nodePath.join(d, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

function readSysctl(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return undefined;
  }
}

/** The likely cause of a failed user-namespace start, with the fix a person can apply. */
function userNamespaceHint(): string {
  if (readSysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") === "1")
    return (
      "AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns=1, " +
      "Ubuntu 23.10 and later): add an AppArmor profile for /usr/bin/bwrap that allows `userns`, " +
      "or set the sysctl to 0"
    );
  if (readSysctl("/proc/sys/user/max_user_namespaces") === "0")
    return "user namespaces are disabled (user.max_user_namespaces=0): raise it, e.g. sysctl user.max_user_namespaces=15000";
  if (readSysctl("/proc/sys/kernel/unprivileged_userns_clone") === "0")
    return "unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0): set it to 1";
  return "user namespaces are not usable here (a container without user namespaces, or a seccomp filter): run with them allowed";
}

function probeBubblewrap(env: NodeJS.ProcessEnv): SandboxProbe {
  const none = (reason: string): SandboxProbe => ({
    available: false,
    mechanism: "none",
    reason,
    disableUserns: false,
  });
  const bwrap = findOnPath("bwrap", env.PATH);
  if (bwrap === undefined)
    return none("bubblewrap (bwrap) is not installed: install the `bubblewrap` package (apt install bubblewrap)");
  const attempt = (extra: readonly string[]) =>
    // child_process is loaded when first needed: a hook process that spawns nothing never loads it.
    process
      .getBuiltinModule("node:child_process")
      .spawnSync(bwrap, [...baseBwrapArgs(extra.includes("--disable-userns")), "--tmpfs", "/tmp", "--", "/bin/true"], {
        encoding: "utf8",
        timeout: 10_000,
        stdio: ["ignore", "ignore", "pipe"],
      });
  let disableUserns = true;
  let r = attempt(["--disable-userns"]);
  if (r.status !== 0 && /disable-userns/.test(r.stderr ?? "")) {
    disableUserns = false;
    r = attempt([]);
  }
  if (r.error) return none(`bubblewrap could not be started: ${r.error.message}`);
  if (r.status !== 0) {
    const msg = (r.stderr ?? "").trim().split("\n")[0] ?? "";
    const userns = /namespace|uid map|setting up|Permission denied|Operation not permitted|No permissions/i.test(msg);
    return none(
      `bubblewrap cannot start a sandbox (${msg || `exit ${String(r.status)}`})${userns ? `: ${userNamespaceHint()}` : ""}`,
    );
  }
  return {
    available: true,
    mechanism: "bubblewrap",
    reason: `bubblewrap at ${bwrap} works${disableUserns ? "" : " (too old to forbid nested user namespaces)"}`,
    executable: bwrap,
    disableUserns,
  };
}

function probeSeatbelt(): SandboxProbe {
  const exe = "/usr/bin/sandbox-exec";
  const r = process
    .getBuiltinModule("node:child_process")
    .spawnSync(exe, ["-p", "(version 1)(allow default)", "/usr/bin/true"], { timeout: 10_000 });
  if (r.error || r.status !== 0)
    return {
      available: false,
      mechanism: "none",
      reason: `sandbox-exec does not work here (${r.error?.message ?? `exit ${String(r.status)}`})`,
      disableUserns: false,
    };
  return {
    available: true,
    mechanism: "seatbelt",
    reason: "sandbox-exec works",
    executable: exe,
    disableUserns: false,
  };
}

let cached: SandboxProbe | undefined;

/** Probed once per process (a host session); `fresh` re-probes (after the person installed bubblewrap). */
export function probeSandbox(fresh = false, env: NodeJS.ProcessEnv = process.env): SandboxProbe {
  if (cached && !fresh) return cached;
  if (process.platform === "linux") cached = probeBubblewrap(env);
  else if (process.platform === "darwin") cached = probeSeatbelt();
  else
    cached = {
      available: false,
      mechanism: "none",
      reason: `no OS sandbox for ${process.platform} yet`,
      disableUserns: false,
    };
  return cached;
}

/** The public view (`toolgate sandbox --status`, the status bar). */
export function availabilityOf(p: SandboxProbe): SandboxAvailability {
  return { available: p.available, mechanism: p.mechanism, reason: p.reason };
}
