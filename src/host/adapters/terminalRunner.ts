/**
 * execute_command in a VS Code terminal with shell integration, so the person sees the command run where they
 * work; output is read from the execution stream (VT sequences stripped). Without shell integration (after
 * a short wait) it falls back to the child-process runner. Cancel and timeout send Ctrl-C, then dispose the
 * terminal, which ends its process tree.
 */
import * as vscode from "vscode";
import type { CommandResult, CommandRunner, CommandRunOptions } from "../../agent/env";
import { NodeCommandRunner } from "../../agent/node/nodeCommandRunner";
import { RunControl } from "../../agent/node/runControl";

const SHELL_INTEGRATION_WAIT_MS = 3000;
const KILL_GRACE_MS = 2000;
// CSI, OSC (terminated by BEL or ST) and single-character escapes.
// eslint-disable-next-line no-control-regex
const VT = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripVt(text: string): string {
  return text.replace(VT, "").replace(/\r\n/g, "\n");
}

function waitForIntegration(terminal: vscode.Terminal): Promise<vscode.TerminalShellIntegration | undefined> {
  if (terminal.shellIntegration) return Promise.resolve(terminal.shellIntegration);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      sub.dispose();
      resolve(undefined);
    }, SHELL_INTEGRATION_WAIT_MS);
    const sub = vscode.window.onDidChangeTerminalShellIntegration((e) => {
      if (e.terminal !== terminal) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(e.shellIntegration);
    });
  });
}

export class VscodeTerminalRunner implements CommandRunner {
  private terminal: vscode.Terminal | undefined;
  private busy = false;

  constructor(
    private readonly fallback: CommandRunner = new NodeCommandRunner(),
    private readonly name = "Toolgate",
  ) {}

  async run(o: CommandRunOptions): Promise<CommandResult> {
    // One command at a time per terminal; a second concurrent command (a subtask) uses the fallback.
    if (this.busy) return this.fallback.run(o);
    this.busy = true;
    try {
      if (!this.terminal || this.terminal.exitStatus !== undefined)
        this.terminal = vscode.window.createTerminal({ name: this.name, cwd: o.cwd });
      const terminal = this.terminal;
      const integration = await waitForIntegration(terminal);
      if (!integration) return await this.fallback.run(o);
      terminal.show(true);
      return await this.runIn(terminal, integration, o);
    } finally {
      this.busy = false;
    }
  }

  private async runIn(
    terminal: vscode.Terminal,
    integration: vscode.TerminalShellIntegration,
    o: CommandRunOptions,
  ): Promise<CommandResult> {
    const quotedCwd = `'${o.cwd.replace(/'/g, `'\\''`)}'`;
    const execution = integration.executeCommand(`cd ${quotedCwd} && ${o.command}`);
    const ended = new Promise<number | undefined>((resolve) => {
      const sub = vscode.window.onDidEndTerminalShellExecution((e) => {
        if (e.execution !== execution) return;
        sub.dispose();
        resolve(e.exitCode);
      });
    });
    const control = new RunControl(o, () => {
      terminal.sendText("\x03", false);
      setTimeout(() => {
        if (this.terminal === terminal) this.terminal = undefined;
        terminal.dispose();
      }, KILL_GRACE_MS);
    });
    const reading = (async () => {
      for await (const raw of execution.read()) control.output(stripVt(raw));
    })();
    // A terminal closed by the person (or by the kill) never sends the end event.
    const closed = new Promise<undefined>((resolve) => {
      const sub = vscode.window.onDidCloseTerminal((t) => {
        if (t === terminal) {
          sub.dispose();
          resolve(undefined);
        }
      });
    });
    const exitCode = await Promise.race([ended, closed]);
    await Promise.race([reading, new Promise((r) => setTimeout(r, 500))]);
    control.release();
    const { killed, timedOut, capture } = control;
    const pid = await terminal.processId;
    return {
      exitCode: killed ? undefined : exitCode,
      ...(killed ? { killed } : {}),
      timedOut,
      output: capture.text(),
      truncatedBytes: capture.truncated,
      ...(pid !== undefined ? { pid } : {}),
    };
  }

  dispose(): void {
    this.terminal?.dispose();
  }
}
