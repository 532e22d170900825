/** What one subcommand of `toolgate` is: its help text and its entry point (which returns the exit code). */
import type { Readable, Writable } from "node:stream";

export interface CliIo {
  readonly stdin: Readable;
  /**
   * The descriptor behind `stdin` when it is this process's own (0): a command that reads all of its input at
   * once may read it from there without setting up Node's stream (a hook process does, once per tool call).
   */
  readonly stdinFd?: number;
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export interface CliCommand {
  /** One line for `toolgate --help`. */
  readonly summary: string;
  /** The full text of `toolgate <command> --help`. */
  readonly usage: string;
  main(argv: readonly string[], io: CliIo): Promise<number>;
}
