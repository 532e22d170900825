/**
 * execute_command where the person can watch it: a VS Code terminal fed by a Pseudoterminal. The command
 * itself runs through the one command runner (a child `bash --noprofile --norc -c LINE`, see
 * src/agent/node/nodeCommandRunner.ts); the terminal only shows its output and exit code, and Ctrl+C in it
 * kills the command's process group. Nothing is ever typed into the person's own interactive shell, and a
 * command runs exactly once.
 */
import * as vscode from "vscode";
import type { CommandResult, CommandRunner, CommandRunOptions } from "../../agent/env";
import { NodeCommandRunner } from "../../agent/node/nodeCommandRunner";
import type { SandboxGrant } from "../../core/sandbox/grant";
import type { SandboxOutlook } from "../../shared/messages";

/** A terminal line ending is CRLF; the command's own bare LFs would staircase. */
function forTerminal(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

export class VscodeTerminalRunner implements CommandRunner {
  constructor(
    private readonly runner: CommandRunner = new NodeCommandRunner(),
    private readonly name = "Toolgate",
  ) {}

  /** How a command with this grant would run (the card shows it before the click): the inner runner's plan. */
  sandboxOutlook(autoApproved: boolean, grant?: SandboxGrant): SandboxOutlook | undefined {
    return this.runner.sandboxOutlook?.(autoApproved, grant);
  }

  endTask(taskKey: string): void {
    this.runner.endTask?.(taskKey);
  }

  async run(o: CommandRunOptions): Promise<CommandResult> {
    const write = new vscode.EventEmitter<string>();
    const close = new vscode.EventEmitter<number | void>();
    const interrupt = new AbortController();
    let opened!: () => void;
    const ready = new Promise<void>((r) => (opened = r));
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      onDidClose: close.event,
      open: () => opened(),
      close: () => interrupt.abort(),
      handleInput: (data) => {
        if (data.includes("\x03")) interrupt.abort();
      },
    };
    const terminal = vscode.window.createTerminal({ name: this.name, pty });
    terminal.show(true);
    // The terminal opens asynchronously; output written before that would be lost.
    await Promise.race([ready, new Promise((r) => setTimeout(r, 1000))]);
    write.fire(`\x1b[2m${forTerminal(o.cwd)}\x1b[0m\r\n$ ${forTerminal(o.command)}\r\n`);
    try {
      const result = await this.runner.run({
        ...o,
        signal: AbortSignal.any([o.signal, interrupt.signal]),
        onOutput: (text) => {
          write.fire(forTerminal(text));
          o.onOutput?.(text);
        },
      });
      const notRun = result.sandbox?.notRun;
      const end =
        notRun !== undefined
          ? `not run: ${notRun}`
          : `${result.killed ? `killed (${result.killed})` : `exit ${result.exitCode ?? "?"}`}${result.sandbox?.sandboxed ? ", sandboxed" : ""}`;
      write.fire(`\r\n\x1b[2m[${end}]\x1b[0m\r\n`);
      return interrupt.signal.aborted && !o.signal.aborted
        ? { ...result, killed: "interrupted in the terminal" }
        : result;
    } finally {
      write.dispose();
      close.dispose();
    }
  }

  dispose(): void {
    // Each command's terminal stays open for the person to read; VS Code disposes them with the window.
  }
}
