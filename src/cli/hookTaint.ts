/**
 * The taint of another agent's session, for its hook (DESIGN: "the hooks keep it per agent session"). Claude
 * Code's PreToolUse hook sees calls, not results (PostToolUse is not wired), so a call that brings content in
 * (`WebFetch`, `WebSearch`, an MCP tool) and that Toolgate answered allow marks the session from then on: its
 * result will enter the session. Later ways out then ask like in a tainted Toolgate task.
 *
 * One file per session, `<state>/toolgate/hooks/<agent>-<sha256(session id)>.json`, mode 0600 in a 0700 folder
 * (`<state>` is `$XDG_STATE_HOME`, else `~/.local/state`). The session id is hashed, so no input can name a
 * path. Fail closed: a file that exists but cannot be read or parsed taints the session with `unknown`; so does
 * an input without a session id (nothing to key the record by).
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as nodePath from "node:path";
import { EMPTY_TAINT, parseTaintState, TaskTaint, UNKNOWN_SOURCE, type TaintState } from "../core/taint";

export function hookStateDir(env: NodeJS.ProcessEnv): string {
  const base =
    env.XDG_STATE_HOME && nodePath.isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : nodePath.join(homedir(), ".local", "state");
  return nodePath.join(base, "toolgate", "hooks");
}

function stateFile(dir: string, agent: string, sessionId: string): string {
  const key = createHash("sha256").update(sessionId).digest("hex").slice(0, 40);
  return nodePath.join(dir, `${agent}-${key}.json`);
}

/** The session's taint as recorded; never throws. */
export function readSessionTaint(dir: string, agent: string, sessionId: string | undefined): TaintState {
  if (sessionId === undefined || sessionId === "") return { sources: [UNKNOWN_SOURCE], trusted: [] };
  let text: string;
  try {
    text = readFileSync(stateFile(dir, agent, sessionId), "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? EMPTY_TAINT : { sources: [UNKNOWN_SOURCE], trusted: [] };
  }
  try {
    return parseTaintState(JSON.parse(text) as unknown);
  } catch {
    return { sources: [UNKNOWN_SOURCE], trusted: [] };
  }
}

/** Adds sources to the session's record (atomically: a temp file renamed over it). Throws on failure. */
export function addSessionTaint(dir: string, agent: string, sessionId: string, sources: readonly string[]): void {
  const taint = new TaskTaint(readSessionTaint(dir, agent, sessionId));
  if (!taint.add(sources)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = stateFile(dir, agent, sessionId);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(taint.state()) + "\n", { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
