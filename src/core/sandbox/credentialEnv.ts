/**
 * The environment a sandboxed command gets: the runner's environment minus anything that looks like a
 * credential or a way to reach one (agent sockets, editor IPC handles). Over-approximates on purpose: a
 * build that needs a token is a command the person runs with a click, unsandboxed.
 */

/** A name part on `_` boundaries: `GH_TOKEN`, `OPENAI_API_KEY`, `DB_PASSWORD`, `AWS_SECRET_ACCESS_KEY`. */
const CREDENTIAL_WORD =
  /(^|_)(TOKENS?|SECRETS?|PASSWORDS?|PASSWD|PASS|PWD_?SECRET|KEYS?|APIKEY|CREDENTIALS?|CREDS|AUTH|AUTHTOKEN|COOKIES?|SESSION_?ID|PRIVATE)(_|$)/i;

const CREDENTIAL_PREFIX =
  /^(AWS_|GITHUB_|GH_|GITLAB_|AZURE_|ARM_|GOOGLE_|GCP_|GCLOUD_|CLOUDSDK_|DOCKER_|KUBE|NPM_CONFIG__|NPM_CONFIG_\/\/|VSCODE_GIT_|HEROKU_|DIGITALOCEAN_|VAULT_|OP_)/i;

const CREDENTIAL_NAMES = new Set(
  [
    "NPM_TOKEN",
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "GPG_AGENT_INFO",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "DBUS_SESSION_BUS_ADDRESS",
    "XAUTHORITY",
    "KRB5CCNAME",
    "NETRC",
    "PGPASSFILE",
    "PGPASSWORD",
    "MYSQL_PWD",
    "REDIS_URL",
    "DATABASE_URL",
  ].map((n) => n.toUpperCase()),
);

/** `GIT_CONFIG_KEY_<n>` holds a config name, not a secret; dropping it breaks every git command (git refuses a count without its keys). */
const GIT_CONFIG_KEY = /^GIT_CONFIG_KEY_[0-9]+$/;

/** Whether the variable `name` is dropped from a sandboxed command's environment. */
export function isCredentialVariable(name: string): boolean {
  if (GIT_CONFIG_KEY.test(name)) return false;
  return CREDENTIAL_NAMES.has(name.toUpperCase()) || CREDENTIAL_PREFIX.test(name) || CREDENTIAL_WORD.test(name);
}

export interface ScrubbedEnv {
  readonly env: Record<string, string>;
  /** Names removed, sorted (shown to the person; values never are). */
  readonly removed: readonly string[];
}

/**
 * Drops credential variables. `TMPDIR` and friends point at the private `/tmp`, since anything else outside
 * the workspace is read-only inside the sandbox.
 */
export function scrubEnvironment(env: Readonly<Record<string, string | undefined>>): ScrubbedEnv {
  const out: Record<string, string> = {};
  const removed: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue;
    if (isCredentialVariable(k)) removed.push(k);
    else out[k] = v;
  }
  for (const k of ["TMPDIR", "TMP", "TEMP"]) if (out[k] !== undefined) out[k] = "/tmp";
  return { env: out, removed: removed.sort() };
}
