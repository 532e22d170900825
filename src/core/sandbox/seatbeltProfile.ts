import { assertAbsolute, policyPaths, tmpfsHomes, type SandboxPolicy } from "./sandboxPolicy";

/**
 * The same policy as a Seatbelt profile for macOS's `sandbox-exec -p PROFILE`. Seatbelt matches paths, not
 * mounts, so it can also refuse protected paths that do not exist yet (a new `.git/hooks`, a new
 * `.vscode/settings.json`) by pattern. In SBPL the last matching rule wins: every deny follows the allow it
 * narrows.
 */

export interface SeatbeltOptions {
  /** A fresh directory used as TMPDIR: the only writable place outside the roots. */
  readonly scratchDir: string;
  /** The ignore file's name (protected in every root). */
  readonly ignoreFileName: string;
  /**
   * `toolgate.sandbox.network` lists hosts: the allow-list proxy's port on the host's loopback, the one network
   * destination allowed (the proxy decides the rest). Absent: no network at all.
   */
  readonly proxyPort?: number;
}

/** An SBPL string literal. */
export function sbplString(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** An SBPL regex literal matching `s` exactly, as a prefix of a larger pattern. */
function regexQuote(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/"]/g, (c) => (c === '"' ? '\\"' : `\\${c}`));
}

/** Protected names inside a root, at any depth, whether or not they exist yet. */
function protectedPatterns(root: string, ignoreFileName: string): string[] {
  const r = regexQuote(root);
  const any = `${r}(/.*)?/`;
  return [
    `^${any}\\.git/(config|config\\.worktree|hooks|info)(/|$)`,
    `^${any}\\.git/modules/.*/(config|hooks|info)(/|$)`,
    `^${any}\\.vscode(/|$)`,
    `^${any}\\.github/workflows(/|$)`,
    `^${any}\\.husky(/|$)`,
    `^${any}[^/]*\\.code-workspace$`,
    `^${any}(\\.mcp|mcp|mcp_settings|cline_mcp_settings)\\.json$`,
    `^${any}\\.gitmodules$`,
    `^${any}${regexQuote(ignoreFileName)}$`,
  ];
}

/** Mach services ordinary command-line tools need (name lookups, logging, notifications); no keychain. */
const MACH_SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.notification_center",
  "com.apple.system.logger",
  "com.apple.logd",
  "com.apple.diagnosticd",
  "com.apple.CoreServices.coreservicesd",
];

/** Every proper ancestor of `p` (`/a/b/c` → `/a`, `/a/b`): their metadata must stay readable to reach `p`. */
function ancestors(p: string): string[] {
  const out: string[] = [];
  for (let i = p.indexOf("/", 1); i > 0; i = p.indexOf("/", i + 1)) out.push(p.slice(0, i));
  return out;
}

export function seatbeltProfile(policy: SandboxPolicy, o: SeatbeltOptions): string {
  assertAbsolute([...policyPaths(policy), o.scratchDir]);
  const lines: string[] = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow ipc-posix-shm)",
    "(allow pseudo-tty)",
    `(allow mach-lookup ${MACH_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(" ")})`,
    "(allow file-read*)",
  ];
  // The homes read as empty except what the policy binds into them (last match wins: allow after deny).
  const homes = tmpfsHomes(policy);
  if (homes.length > 0) {
    const shown = [
      ...(policy.homeBinds ?? []),
      ...(policy.writableBinds ?? []),
      ...policy.writableRoots,
      ...(policy.readOnlyRoots ?? []),
      o.scratchDir,
    ];
    lines.push("(deny file-read*", ...homes.map((h) => `  (subpath ${sbplString(h)})`), ")");
    lines.push("(allow file-read*", ...shown.map((p) => `  (subpath ${sbplString(p)})`), ")");
    const up = [...new Set(shown.flatMap(ancestors))].sort();
    if (up.length > 0) lines.push("(allow file-read-metadata", ...up.map((p) => `  (literal ${sbplString(p)})`), ")");
  }
  const hiddenFiles = [...policy.hiddenFiles, ...policy.secretFiles];
  const hiddenDirs = [...policy.hiddenDirs, ...policy.secretDirs];
  if (hiddenFiles.length + hiddenDirs.length > 0)
    lines.push(
      "(deny file-read*",
      ...hiddenFiles.map((p) => `  (literal ${sbplString(p)})`),
      ...hiddenDirs.map((p) => `  (subpath ${sbplString(p)})`),
      ")",
    );
  lines.push(
    "(allow file-write*",
    ...policy.writableRoots.map((p) => `  (subpath ${sbplString(p)})`),
    ...(policy.writableBinds ?? []).map((p) => `  (subpath ${sbplString(p)})`),
    `  (subpath ${sbplString(o.scratchDir)})`,
    '  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/stdout") (literal "/dev/stderr")',
    '  (regex #"^/dev/fd/[0-9]+$")',
    ")",
  );
  const ro = [
    ...policy.readOnly.map((p) => `  (subpath ${sbplString(p)})`),
    ...policy.writableRoots.flatMap((root) =>
      protectedPatterns(root, o.ignoreFileName).map((re) => `  (regex #"${re}")`),
    ),
  ];
  if (ro.length > 0) lines.push("(deny file-write*", ...ro, ")");
  // Hidden paths stay unwritable even where a writable root contains them.
  if (hiddenFiles.length + hiddenDirs.length > 0)
    lines.push(
      "(deny file-write*",
      ...hiddenFiles.map((p) => `  (literal ${sbplString(p)})`),
      ...hiddenDirs.map((p) => `  (subpath ${sbplString(p)})`),
      ")",
    );
  lines.push("(deny network*)");
  if (o.proxyPort !== undefined) {
    if (!Number.isInteger(o.proxyPort) || o.proxyPort < 1 || o.proxyPort > 65535)
      throw new Error(`seatbelt profile: not a port: ${String(o.proxyPort)}`);
    lines.push(`(allow network-outbound (remote ip ${sbplString(`localhost:${o.proxyPort}`)}))`);
  }
  return lines.join("\n") + "\n";
}
