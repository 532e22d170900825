/**
 * Telling a failure the sandbox caused from an ordinary one, from the exit code and the output alone, so the
 * model hears "the sandbox blocked this" instead of guessing, and the person can be offered one unsandboxed
 * re-run. Over-approximates: a wrong "blocked" costs an offered ask, a missed one costs only the hint.
 */

export interface RunOutcome {
  readonly exitCode: number | undefined;
  /** stdout and stderr as captured (interleaved is fine). */
  readonly output: string;
}

export interface FailureContext {
  /** Hidden paths (absolute), and their workspace-relative spellings, that a message may name. */
  readonly hidden: readonly string[];
  readonly networkOff: boolean;
  /** `toolgate.sandbox.network` lists hosts and the proxy serves them: refusals name the list. */
  readonly allowedHosts?: readonly string[];
  /** `toolgate.sandbox.network` lists hosts, but this command's grant has none of them. */
  readonly listConfigured?: boolean;
  /** What to list for this command to get network (`list registry.npmjs.org in …`), when known. */
  readonly networkHint?: string;
  /** The command ran under the read-only grant (judged read-only, or plan mode): the workspace was read-only too. */
  readonly readOnlyGrant?: boolean;
}

export type SandboxFailure =
  | { readonly kind: "start"; readonly reason: string }
  | { readonly kind: "blocked"; readonly cause: "read-only" | "hidden" | "network"; readonly message: string };

/** bubblewrap reports its own set-up failures as `bwrap: ...` and exits 1 before the command starts. */
const START_FAILURE = /^bwrap: (.*)$/m;
const READ_ONLY = /Read-only file system|EROFS|Operation not permitted.*(sandbox|deny)/i;
const NOT_FOUND = /No such file or directory|ENOENT|Permission denied|EACCES/;
const NO_NETWORK =
  /Temporary failure in name resolution|ENOTFOUND|NewConnectionError|Failed to establish a new connection|dial tcp|spurious network error|failed to download from|Could not transfer artifact|Could not GET|Could not resolve host|Name or service not known|Network is unreachable|ENETUNREACH|EAI_AGAIN|getaddrinfo|Connection refused|ECONNREFUSED|No route to host|Could not connect to|Failed to connect to/i;

/** The allow-list proxy's refusal as clients report it (curl, npm/undici, git, pip), or a bridge that never came up. */
const PROXY_REFUSED =
  /toolgate sandbox proxy:|network bridge did not start|CONNECT tunnel failed|from proxy after CONNECT|Received HTTP code 40[0-9] from proxy|tunneling socket could not be established|Tunnel connection failed|ProxyError|403 Forbidden/i;

const NOTE =
  "This was the OS sandbox around auto-approved commands, not a problem with the command. Do not try to work " +
  "around it; if this step is needed, say so: the person can approve one unsandboxed re-run, or call " +
  "execute_command again with `sandbox: false` and a `reason`, and the person decides.";

export function classifySandboxFailure(run: RunOutcome, ctx: FailureContext): SandboxFailure | undefined {
  if (run.exitCode === 0) return undefined;
  const head = run.output.slice(0, 4096);
  const start = START_FAILURE.exec(head);
  if (run.exitCode === 1 && start && head.trimStart().startsWith("bwrap: "))
    return { kind: "start", reason: start[1] ?? "bubblewrap could not start" };
  const text = run.output.length > 65536 ? run.output.slice(0, 32768) + run.output.slice(-32768) : run.output;
  if (READ_ONLY.test(text))
    return {
      kind: "blocked",
      cause: "read-only",
      message: ctx.readOnlyGrant
        ? `The sandbox blocked a write: this command was allowed as read-only (or the task is in plan mode), so it ran with the whole file system read-only, the workspace included. ${NOTE}`
        : `The sandbox blocked a write: outside the workspace, and in protected paths (git config and hooks, .vscode, workflows, the ignore file), the file system is read-only. ${NOTE}`,
    };
  if (NOT_FOUND.test(text)) {
    const named = ctx.hidden.slice(0, 500).find((h) => h !== "" && text.includes(h));
    if (named !== undefined)
      return {
        kind: "blocked",
        cause: "hidden",
        message: `The sandbox hides \`${named}\` (the ignore file or a credential store): it looks empty or missing inside the sandbox. ${NOTE}`,
      };
  }
  if (
    ctx.allowedHosts !== undefined &&
    ctx.allowedHosts.length > 0 &&
    (PROXY_REFUSED.test(text) || NO_NETWORK.test(text))
  )
    return {
      kind: "blocked",
      cause: "network",
      message: `The sandbox reaches only the hosts in \`toolgate.sandbox.network\` (${ctx.allowedHosts.slice(0, 20).join(", ")}), through a proxy that refuses every other host and private addresses. ${NOTE}`,
    };
  if (ctx.networkOff && NO_NETWORK.test(text)) {
    const why = ctx.listConfigured
      ? "this command names no host of `toolgate.sandbox.network`, so it ran with no network"
      : 'the sandbox has no network (setting `toolgate.sandbox.network` is "off")';
    const hint = ctx.networkHint !== undefined ? `: ${ctx.networkHint}` : "";
    return {
      kind: "blocked",
      cause: "network",
      message: `${why[0]!.toUpperCase()}${why.slice(1)}${hint}. ${NOTE}`,
    };
  }
  return undefined;
}
