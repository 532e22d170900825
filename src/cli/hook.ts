/**
 * `toolgate hook <agent>`: Toolgate's gate as another agent's pre-tool hook, in that agent's protocol
 * (src/cli/hooks/: one adapter per agent), with the same policy as every other surface.
 *
 * Invariant: once the agent is known, whatever happens — unreadable or malformed input, broken settings, a
 * missing workspace, an exception anywhere — the hook writes that agent's refusal and exits as the adapter says,
 * and anything it could not decide is a refusal. An unknown agent or a usage error exits 2 with the reason on
 * stderr, which the agents that block on an exit code read as a refusal.
 */
import { readSync } from "node:fs";
import type { Readable } from "node:stream";
import type { CliCommand, CliIo } from "./command";
import type { AgentAdapter, HookAnswer } from "./hooks/adapter";
import { hookAdminMain, isHookAdmin } from "./hooks/admin";
import { decideHook } from "./hooks/decide";
import { AGENTS, agentAdapter } from "./hooks/registry";

const MAX_INPUT_BYTES = 16 * 1024 * 1024;

const USAGE = `usage: toolgate hook <agent> [--settings FILE | --user-settings FILE] [--managed FILE] [--mcp FILE]
  The agent's pre-tool hook: reads the hook JSON on stdin and answers in the agent's protocol.
  Agents: ${Object.keys(AGENTS).join(", ")}   (toolgate hook <agent> --help for each)
       toolgate hook install <agent> [--project DIR | --user] [--dry-run]   install it so that it fails closed
       toolgate hook doctor <agent> [--project DIR] [--json]   report what would let a call through unchecked`;

async function readAll(input: Readable, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const b = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > max) throw tooLarge();
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

function tooLarge(): Error {
  return new Error(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
}

/**
 * All of the input: read from the descriptor when there is one, the rest (if a non-blocking pipe would block,
 * or the descriptor cannot be read) from the stream, which continues where the reads stopped.
 */
async function readInput(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (io.stdinFd !== undefined) {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = readSync(io.stdinFd, buf, 0, buf.length, null);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EOF") break;
        if (code === "EAGAIN" || code === "EWOULDBLOCK" || size === 0) {
          chunks.push(await readAll(io.stdin, MAX_INPUT_BYTES - size));
          break;
        }
        throw e;
      }
      if (n === 0) break;
      size += n;
      if (size > MAX_INPUT_BYTES) throw tooLarge();
      chunks.push(Buffer.from(buf.subarray(0, n)));
    }
    return Buffer.concat(chunks).toString("utf8");
  }
  return (await readAll(io.stdin, MAX_INPUT_BYTES)).toString("utf8");
}

async function answerAgent(adapter: AgentAdapter, argv: readonly string[], io: CliIo): Promise<number> {
  let answered = false;
  let code = 0;
  const respond = (a: HookAnswer): void => {
    if (answered) return;
    answered = true;
    const out = adapter.render(a);
    io.stdout.write(out.stdout);
    if (out.stderr !== undefined) io.stderr.write(out.stderr);
    code = out.exitCode;
    process.exitCode = code;
  };
  const internal = (e: unknown): HookAnswer => ({
    decision: "deny",
    reason: `Toolgate: internal error, so the call is refused: ${e instanceof Error ? e.message : String(e)}`,
  });
  // Errors outside the awaited chain (a stream, a timer) must still end in a refusal, never in a crash.
  const onCrash = (e: unknown): void => respond(internal(e));
  process.on("uncaughtException", onCrash);
  process.on("unhandledRejection", onCrash);
  try {
    if (argv.includes("--help") || argv.includes("-h")) {
      io.stdout.write(adapter.usage + "\n");
      return 0;
    }
    const text = await readInput(io);
    respond(await decideHook(adapter, text, argv, io.env));
  } catch (e) {
    respond(internal(e));
  }
  return code;
}

async function hookMain(argv: readonly string[], io: CliIo): Promise<number> {
  if (isHookAdmin(argv[0])) return hookAdminMain(argv[0], argv.slice(1), io);
  const [agent, ...rest] = argv;
  if (agent === "--help" || agent === "-h") {
    io.stdout.write(USAGE + "\n");
    return 0;
  }
  const adapter = agent !== undefined ? agentAdapter(agent) : undefined;
  if (!adapter) {
    io.stderr.write(`Toolgate: unknown agent ${JSON.stringify(agent ?? "")}, so the call is refused\n${USAGE}\n`);
    return 2;
  }
  return answerAgent(adapter, rest, io);
}

export const hookCommand: CliCommand = {
  summary: "pre-tool hook for other agents (Claude Code…): the same policy gates their tool calls",
  usage: USAGE,
  main: hookMain,
};
