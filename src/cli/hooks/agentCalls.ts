/**
 * Gate calls for what agents without Toolgate's executor do themselves: a command the agent runs in its own
 * process environment, from a directory the model chose, and a patch that names the files it writes. Shared by
 * the adapters of agents whose hook cannot move a command into Toolgate's sandbox (Cline, Codex).
 */
import * as nodePath from "node:path";
import type { MappedCall } from "./adapter";
import { environmentAsk } from "./envExposure";
import { patchFiles } from "./patchFiles";

export const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * The command line as the gate should read it: run from `cwd`. The gate judges lines from the workspace root,
 * so another directory becomes a leading `cd` (which the analysis follows, and which takes a project command
 * out of its allow entry, as a `cd` the model typed would).
 */
export function lineFrom(root: string, cwd: string, line: string): string {
  return nodePath.resolve(cwd) === nodePath.resolve(root) ? line : `cd -- ${shellQuote(cwd)} && ${line}`;
}

/**
 * A command the agent runs itself: judged from its directory, refused under `sandbox.mode: "required"`, and
 * an ask where it could print the agent's environment (checked on the line as the model wrote it).
 */
export function agentCommand(
  agent: string,
  root: string,
  cwd: string,
  line: string,
  env: NodeJS.ProcessEnv,
): MappedCall {
  const hardAsk = environmentAsk(agent, line, env);
  return {
    call: { tool: "execute_command", params: { command: lineFrom(root, cwd, line) } },
    runsUnsandboxed: true,
    ...(hardAsk !== undefined ? { hardAsk } : {}),
  };
}

/**
 * Each file an `apply_patch` patch writes, as a write (relative paths from `cwd`); a deletion or a move's
 * source is also a hard ask. A patch Toolgate cannot read is a reason.
 */
export function patchCalls(cwd: string, patch: string): MappedCall[] | string {
  const files = patchFiles(patch);
  if (!files.ok) return files.reason;
  const write = (f: string, hardAsk?: string): MappedCall => ({
    call: { tool: "write_to_file", params: { path: nodePath.resolve(cwd, f), content: "" } },
    ...(hardAsk !== undefined ? { hardAsk } : {}),
  });
  return files.ops.flatMap((op) =>
    op.kind === "delete"
      ? [write(op.path, `the patch deletes \`${op.path}\``)]
      : op.kind === "move"
        ? [write(op.from, `the patch moves \`${op.from}\` away`), write(op.to)]
        : [write(op.path)],
  );
}
