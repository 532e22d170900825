import { lstatSync, realpathSync, statSync } from "node:fs";
import * as nodePath from "node:path";

/**
 * Credential stores and sockets outside the workspace that a sandboxed command must not read or reach. The
 * file system is read-only there anyway; these are hidden as well, because reading them is the harm. Unix
 * sockets are reachable through a read-only mount, so the runtime directories holding agent, keyring and
 * container-engine sockets are hidden too (`/run` is private as a whole).
 */
const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".config/gcloud",
  ".kube",
  ".docker/config.json",
  ".docker/run",
  ".docker/desktop",
  ".colima",
  ".lima",
  ".npmrc",
  ".yarnrc.yml",
  ".pypirc",
  ".netrc",
  ".git-credentials",
  ".config/git/credentials",
  ".config/gh",
  ".config/hub",
  ".azure",
  ".terraform.d/credentials.tfrc.json",
  ".password-store",
  ".claude/.credentials.json",
  ".codex/auth.json",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".m2/settings.xml",
  ".m2/settings-security.xml",
  ".gradle/gradle.properties",
  ".gem/credentials",
  ".config/containers/auth.json",
  ".vault-token",
  ".pgpass",
  ".my.cnf",
  ".local/share/keyrings",
  ".config/Code",
  ".config/Code - Insiders",
  ".config/Code - OSS",
  ".config/VSCodium",
  ".config/Cursor",
  ".vscode-server/data",
  ".vscode-server-insiders/data",
  ".local/share/code-server",
  ".config/code-server",
  "Library/Application Support/Code",
  "Library/Application Support/Code - Insiders",
  "Library/Application Support/VSCodium",
  "Library/Keychains",
];

/** Absolute socket paths of container engines, in case `/run` is not the directory they live in. */
const SOCKETS = ["/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock"];

export interface HostSecrets {
  readonly files: readonly string[];
  readonly dirs: readonly string[];
}

function candidatesOf(home: string | undefined, env: NodeJS.ProcessEnv): string[] {
  return [
    ...(home ? HOME_SECRETS.map((rel) => nodePath.join(home, rel)) : []),
    ...SOCKETS,
    ...[env.SSH_AUTH_SOCK, env.XDG_RUNTIME_DIR, env.GNUPGHOME].filter(
      (p): p is string => !!p && nodePath.isAbsolute(p),
    ),
  ];
}

/** The existing ones, as real paths, with their type (a bind must match what it covers). */
export function hostSecrets(home: string | undefined, env: NodeJS.ProcessEnv): HostSecrets {
  const candidates = candidatesOf(home, env);
  const files = new Set<string>();
  const dirs = new Set<string>();
  for (const c of candidates) {
    let real: string;
    try {
      real = realpathSync.native(c);
    } catch {
      continue;
    }
    const st = lstatSync(real, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) dirs.add(real);
    else if (st.isFile()) files.add(real);
    else if (st.isSocket()) {
      // A socket cannot be covered by a file bind: hide its directory unless that is `/` or `/tmp`-like.
      const parent = nodePath.dirname(real);
      if (parent !== "/" && parent !== "/tmp" && parent !== "/run" && parent !== "/var/run") dirs.add(parent);
    }
  }
  return { files: [...files].sort(), dirs: [...dirs].sort() };
}

/**
 * What decides whether the last answer still holds: the candidates themselves and the state of every directory
 * that holds one. Creating, removing or renaming an entry changes its directory's ctime (a command cannot set
 * ctime), so a credential store that appears mid-task (`gh auth login`) is hidden from the next command on.
 */
function stamp(candidates: readonly string[]): string {
  const parents = [...new Set(candidates.map((c) => nodePath.dirname(c)))];
  return (
    candidates.join("\0") +
    "\n" +
    parents
      .map((d) => {
        // Followed: a linked directory (`~/.config` -> elsewhere) changes where it leads.
        const st = statSync(d, { throwIfNoEntry: false, bigint: true });
        return st ? `${st.ino}:${st.mode}:${st.ctimeNs}` : "-";
      })
      .join("|")
  );
}

let cached: { readonly stamp: string; readonly result: HostSecrets } | undefined;

/** `hostSecrets`, reused while nothing changed in the directories that hold the candidates. */
export function currentHostSecrets(home: string | undefined, env: NodeJS.ProcessEnv): HostSecrets {
  const s = stamp(candidatesOf(home, env));
  if (cached?.stamp === s) return cached.result;
  const result = hostSecrets(home, env);
  // A directory changed within the last second may change again with the same coarse ctime: not cached then.
  cached = { stamp: recentlyChanged(s) ? "" : s, result };
  return result;
}

function recentlyChanged(s: string): boolean {
  const nowNs = BigInt(Date.now() - 1000) * 1_000_000n;
  for (const part of s.slice(s.lastIndexOf("\n") + 1).split("|")) {
    const ns = part.split(":")[2];
    if (ns !== undefined && BigInt(ns) > nowNs) return true;
  }
  return false;
}
