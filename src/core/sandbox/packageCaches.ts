import * as nodePath from "node:path";

/**
 * Package-manager caches of sandboxed commands: Toolgate's own per-user folders (`<cacheRoot>/<manager>`), so
 * a build in the sandbox can neither read-modify the person's caches nor poison them for unsandboxed runs.
 * A command with network uses the same variables, so a cache fills once and later offline runs reuse it.
 * Each manager is pointed there by its own documented environment variable; nothing else of the person's
 * configuration is replaced, except where a manager has no cache-only variable (noted per entry).
 */
export interface PackageCache {
  readonly manager: string;
  /** Folder name under the cache root. */
  readonly dir: string;
  /** Variables set for the sandboxed command (value: the folder, or a function of it and the current value). */
  readonly vars: readonly { readonly name: string; readonly value: (dir: string, current?: string) => string }[];
  /** What the README says about the person's own configuration. */
  readonly note: string;
}

const same = (dir: string): string => dir;

export const PACKAGE_CACHES: readonly PackageCache[] = [
  {
    manager: "npm",
    dir: "npm",
    vars: [{ name: "npm_config_cache", value: same }],
    note: "keeps ~/.npmrc settings (the file itself is hidden: it holds tokens) and the project's .npmrc",
  },
  {
    manager: "pnpm",
    dir: "pnpm",
    vars: [{ name: "pnpm_config_store_dir", value: (d) => nodePath.join(d, "store") }],
    note: "store only; pnpm's metadata cache follows XDG_CACHE_HOME (below)",
  },
  {
    manager: "yarn",
    dir: "yarn",
    vars: [
      { name: "YARN_CACHE_FOLDER", value: same },
      { name: "YARN_GLOBAL_FOLDER", value: (d) => nodePath.join(d, "global") },
    ],
    note: "keeps .yarnrc.yml settings of the project",
  },
  { manager: "pip", dir: "pip", vars: [{ name: "PIP_CACHE_DIR", value: same }], note: "keeps pip.conf" },
  { manager: "uv", dir: "uv", vars: [{ name: "UV_CACHE_DIR", value: same }], note: "keeps uv.toml" },
  {
    manager: "cargo",
    dir: "cargo",
    // Cargo has no registry-cache-only variable: CARGO_HOME moves the registry, git checkouts and the
    // person's ~/.cargo/config.toml alike. Binaries still come from PATH (~/.cargo/bin, bound read-only).
    vars: [{ name: "CARGO_HOME", value: same }],
    note: "CARGO_HOME moves, so ~/.cargo/config.toml is NOT read in the sandbox; ~/.cargo/bin stays on PATH",
  },
  {
    manager: "go",
    dir: "go",
    vars: [
      { name: "GOMODCACHE", value: (d) => nodePath.join(d, "mod") },
      { name: "GOCACHE", value: (d) => nodePath.join(d, "build") },
    ],
    note: "keeps GOPATH, GOPROXY and go env settings",
  },
  {
    manager: "gradle",
    dir: "gradle",
    vars: [{ name: "GRADLE_USER_HOME", value: same }],
    note: "GRADLE_USER_HOME moves, so ~/.gradle/gradle.properties (hidden anyway: it holds credentials) is not read",
  },
  {
    manager: "maven",
    dir: "maven",
    vars: [
      {
        name: "MAVEN_OPTS",
        value: (d, current) =>
          [current?.trim(), `-Dmaven.repo.local=${nodePath.join(d, "repository")}`].filter(Boolean).join(" "),
      },
    ],
    note: "keeps ~/.m2/settings.xml out (hidden: credentials); the local repository moves",
  },
  {
    manager: "other tools (XDG)",
    dir: "xdg",
    vars: [{ name: "XDG_CACHE_HOME", value: same }],
    note: "every tool that caches under $XDG_CACHE_HOME (pnpm metadata, pre-commit, …)",
  },
];

/** `<cacheRoot>/<manager>` for every manager: the folders the sandbox binds (created by the caller). */
export function packageCacheDirs(cacheRoot: string): string[] {
  return PACKAGE_CACHES.map((c) => nodePath.join(cacheRoot, c.dir));
}

/** The variables a sandboxed command gets, given its environment (MAVEN_OPTS is extended, not replaced). */
export function packageCacheEnv(
  cacheRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of PACKAGE_CACHES) {
    const dir = nodePath.join(cacheRoot, c.dir);
    for (const v of c.vars) out[v.name] = v.value(dir, env[v.name]);
  }
  return out;
}

/** Where the caches live: `$XDG_CACHE_HOME/toolgate/pkg`, else `~/.cache/toolgate/pkg` (per user). */
export function packageCacheRoot(home: string, xdgCacheHome: string | undefined): string {
  const base =
    xdgCacheHome !== undefined && nodePath.isAbsolute(xdgCacheHome) ? xdgCacheHome : nodePath.join(home, ".cache");
  return nodePath.join(base, "toolgate", "pkg");
}
