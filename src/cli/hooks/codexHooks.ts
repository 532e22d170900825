/**
 * What Codex itself says about its hooks: `codex app-server`'s `hooks/list` (JSON-RPC over stdio), which
 * reports each configured hook with `enabled` and `trustStatus`. Codex runs a non-managed hook only once a
 * person trusted it, so an untrusted Toolgate hook checks nothing. Verified with Codex 0.171.0: the entry
 * install writes is listed with `timeoutSec: 30`, `matcher: null`, `trustStatus: "untrusted"` until trusted.
 * Any failure (no binary, no answer in time, another shape) is "unknown", never "trusted".
 */

export interface CodexHookInfo {
  readonly command: string;
  readonly enabled: boolean;
  readonly trustStatus: string;
  readonly sourcePath: string;
  readonly isManaged: boolean;
}

const TIMEOUT_MS = 15_000;

function parseList(result: unknown): CodexHookInfo[] | undefined {
  const data = (result as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  const hooks: CodexHookInfo[] = [];
  for (const entry of data) {
    const list = (entry as { hooks?: unknown } | null)?.hooks;
    if (!Array.isArray(list)) return undefined;
    for (const h of list as Record<string, unknown>[]) {
      if (h.eventName !== "preToolUse" || typeof h.command !== "string") continue;
      hooks.push({
        command: h.command,
        enabled: h.enabled === true,
        trustStatus: typeof h.trustStatus === "string" ? h.trustStatus : "unknown",
        sourcePath: typeof h.sourcePath === "string" ? h.sourcePath : "",
        isManaged: h.isManaged === true,
      });
    }
  }
  return hooks;
}

/** The PreToolUse hooks Codex would run in `cwd`, or undefined when Codex did not say. */
export function codexPreToolUseHooks(
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<CodexHookInfo[] | undefined> {
  return new Promise((resolve) => {
    let done = false;
    let buffer = "";
    // Its own process group, so whatever the app server starts is stopped with it.
    // child_process is loaded when first needed: a hook process that spawns nothing never loads it.
    const child = process
      .getBuiltinModule("node:child_process")
      .spawn(bin, ["app-server"], { cwd, env, stdio: ["pipe", "pipe", "ignore"], detached: true });
    const finish = (v: CodexHookInfo[] | undefined): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      resolve(v);
    };
    const timer = setTimeout(() => finish(undefined), TIMEOUT_MS);
    child.on("error", () => finish(undefined));
    child.on("close", () => finish(undefined));
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        let msg: { id?: unknown; result?: unknown; error?: unknown };
        try {
          msg = JSON.parse(line) as typeof msg;
        } catch {
          continue;
        }
        if (msg.id === 2) finish(msg.error === undefined ? parseList(msg.result) : undefined);
      }
    });
    child.stdin.on("error", () => finish(undefined));
    const send = (m: unknown): boolean => child.stdin.write(JSON.stringify(m) + "\n");
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { clientInfo: { name: "toolgate-doctor", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [cwd] } });
  });
}
