/**
 * Gate calls for what agents without Toolgate's executor do themselves: a command the agent runs in its own
 * process environment, from a directory the model chose, and a patch that names the files it writes. Shared by
 * the adapters of agents that run commands themselves (Cline, Codex, Cursor); where the agent applies a
 * rewritten input (Codex), the decision loop moves an allowed command into Toolgate's sandbox.
 */
import * as nodePath from "node:path";
import type { MappedCall } from "./adapter";
import { patchFiles } from "./patchFiles";

/**
 * A command the agent runs itself: judged from its directory (`CallFacts.cwd`; the workspace stays the agent's
 * project). Unless it is rewritten into the sandbox (sandboxRewrite.ts), the decision loop refuses it under
 * `sandbox.mode: "required"` and asks where it could print the agent's environment, as for every agent.
 */
export function agentCommand(cwd: string, line: string): MappedCall {
  return {
    call: { tool: "execute_command", params: { command: line }, facts: { cwd: nodePath.resolve(cwd) } },
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
