import { canonicalHost, compileAllowList, entryText, type AllowEntry } from "./networkAllowList";
import { CRATES, GO, MAVEN, NPM, PYPI, YARN } from "./registryHosts";

/**
 * The hosts a command line names, as a conservative lexical over-approximation: every word piece that spells a
 * host name with a dot or an IP literal (URL arguments, `user@host:path`, `--registry=…`, bare `example.com`),
 * the remotes of the workspace repositories when the line names `git` with a subcommand that talks to a remote,
 * and a package manager's configured registry when the line names that manager. Over-approximating is safe
 * here because the result is only ever intersected with the person's `toolgate.sandbox.network` (`grantHosts`):
 * the list bounds it, and a line that names nothing (`ls`) gets nothing even when the list is long.
 *
 * No I/O: what the workspace configures (git remote URLs, `.npmrc` registries) comes in as `LineHostFacts`.
 */

export interface NamedHost {
  readonly host: string;
  /** Known only when written (`https://h:8443/`); absent: any port the entry allows. */
  readonly port?: number;
}

/** What the workspace configures, read lazily by the caller (see `needsFacts`). */
export interface LineHostFacts {
  /** URLs of every remote of the workspace repositories (`remote.*.url`, `pushurl`). */
  readonly gitRemotes: readonly string[];
  /** `registry=` values of the roots' `.npmrc` files. */
  readonly npmRegistries: readonly string[];
}

/** git subcommands that reach a remote. */
const GIT_REMOTE_VERBS = /(^|[^a-z0-9-])(push|pull|fetch|clone|ls-remote|remote|submodule)([^a-z0-9-]|$)/;
const GIT = /(^|[^a-z0-9_.-])git([^a-z0-9_.-]|$)/;
/** Package managers and the registries they use unless configured otherwise. */
const MANAGERS: readonly { readonly word: RegExp; readonly defaults: readonly string[]; readonly npmrc: boolean }[] = [
  {
    word: /(^|[^a-z0-9_.-])(npm|npx|pnpm|pnpx|corepack)([^a-z0-9_.-]|$)/,
    defaults: NPM.hosts,
    npmrc: true,
  },
  {
    word: /(^|[^a-z0-9_.-])(yarn|yarnpkg)([^a-z0-9_.-]|$)/,
    defaults: YARN.hosts,
    npmrc: true,
  },
  { word: /(^|[^a-z0-9_.-])bunx?([^a-z0-9_.-]|$)/, defaults: NPM.hosts, npmrc: true },
  {
    word: /(^|[^a-z0-9_.-])(pip[0-9.]*|pipx|uv|uvx|poetry|pdm)([^a-z0-9_.-]|$)/,
    defaults: PYPI.hosts,
    npmrc: false,
  },
  {
    word: /(^|[^a-z0-9_.-])cargo([^a-z0-9_.-]|$)/,
    defaults: CRATES.hosts,
    npmrc: false,
  },
  {
    word: /(^|[^a-z0-9_.-])go([^a-z0-9_.-]|$)/,
    defaults: GO.hosts,
    npmrc: false,
  },
  {
    word: /(^|[^a-z0-9_.-])(gradlew?|mvnw?)([^a-z0-9_.-]|$)/,
    defaults: MAVEN.hosts,
    npmrc: false,
  },
];

/** Whether the line could need the workspace's configured hosts (so the caller reads them only then). */
export function needsFacts(line: string): { readonly git: boolean; readonly npmrc: boolean } {
  const l = line.toLowerCase();
  return {
    git: GIT.test(l) && GIT_REMOTE_VERBS.test(l),
    npmrc: MANAGERS.some((m) => m.npmrc && m.word.test(l)),
  };
}

/** Hosts spelled in `text`: URL authorities with their port, and every host-like piece between separators. */
function spelledHosts(text: string, out: NamedHost[]): void {
  // URL-like authorities first, to keep a written port and bracketed IPv6 literals.
  for (const m of text.matchAll(
    /[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s'"]*@)?(\[[0-9a-f:.]+\]|[^/:\s'"?#]+)(?::([0-9]{1,5}))?/gi,
  )) {
    const host = canonicalHost(m[1]!);
    if (host !== undefined) out.push({ host, ...(m[2] !== undefined ? { port: Number(m[2]) } : {}) });
  }
  // Every other piece: split on everything a host name cannot hold (quotes, `@`, `/`, `:`, `=`, spaces…).
  for (const piece of text.split(/[^a-z0-9._-]+/i)) {
    const trimmed = piece.replace(/^[.-]+|[.]+$/g, "");
    if (!trimmed.includes(".")) continue;
    const host = canonicalHost(trimmed);
    if (host !== undefined) out.push({ host });
  }
}

/** The hosts the line names (see the module comment). Duplicates are kept out; order is not meaningful. */
export function hostsNamed(line: string, facts: LineHostFacts): NamedHost[] {
  const out: NamedHost[] = [];
  spelledHosts(line, out);
  const need = needsFacts(line);
  if (need.git) for (const url of facts.gitRemotes) spelledHosts(url, out);
  const l = line.toLowerCase();
  for (const m of MANAGERS) {
    if (!m.word.test(l)) continue;
    for (const h of m.defaults) out.push({ host: h });
    if (m.npmrc) for (const r of facts.npmRegistries) spelledHosts(r, out);
  }
  const seen = new Set<string>();
  return out.filter((h) => {
    const key = `${h.host}:${h.port ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The hosts a failure message may suggest listing: URL authorities and the registries of the package managers
 * the line names (not every dotted word: `cat package.json` suggests nothing).
 */
export function suggestedHosts(line: string): string[] {
  const out: NamedHost[] = [];
  for (const m of line.matchAll(/[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s'"]*@)?([^/:\s'"?#]+)/gi)) {
    const host = canonicalHost(m[1]!);
    if (host !== undefined) out.push({ host });
  }
  const l = line.toLowerCase();
  for (const m of MANAGERS) if (m.word.test(l)) for (const h of m.defaults) out.push({ host: h });
  return [...new Set(out.map((h) => h.host))];
}

function entryCovers(e: AllowEntry, h: NamedHost): boolean {
  if (e.port !== undefined && h.port !== undefined && e.port !== h.port) return false;
  if (!e.wildcard) return e.host === h.host;
  return !/^[0-9.]+$|:/.test(h.host) && h.host.endsWith(`.${e.host}`);
}

/**
 * The person's allow-list entries that cover a host the line names: the grant's hosts. Entries are kept as
 * written (a wildcard stays a wildcard), so the proxy applies exactly the person's rule to this command —
 * including "only an exact entry may reach a private address". Sorted, unique.
 */
export function grantHosts(named: readonly NamedHost[], allowList: readonly string[]): string[] {
  if (named.length === 0 || allowList.length === 0) return [];
  const out = new Set<string>();
  for (const e of compileAllowList(allowList)) if (named.some((h) => entryCovers(e, h))) out.add(entryText(e));
  return [...out].sort();
}
