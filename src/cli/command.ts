/** What one subcommand of `toolgate` is: its help text and its entry point (which returns the exit code). */
import type { Readable, Writable } from "node:stream";

export interface CliIo {
  readonly stdin: Readable;
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
