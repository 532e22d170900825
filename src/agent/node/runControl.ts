/**
 * The bookkeeping of one command run that both command runners share (child process here, VS Code terminal in
 * src/host/adapters/terminalRunner.ts): the output capture that also streams to `onOutput`, and cancel and
 * timeout — why the run was stopped (the first reason wins; nothing stops a run that already ended) and
 * whether the timeout fired. How a run is actually halted (signals to a process group, Ctrl-C to a terminal)
 * stays with each runner.
 */
import type { CommandRunOptions } from "../env";
import { OutputCapture } from "./outputCapture";

export class RunControl {
  /** Why the run was stopped ("cancelled", "timeout"), once it was. */
  killed: string | undefined;
  timedOut = false;
  readonly capture: OutputCapture;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort = (): void => this.stop("cancelled");

  /**
   * Starts watching `o.signal` and `o.timeoutMs`. `halt` is called at most once, on the first stop;
   * `ended` says the run is over already (then a stop does nothing).
   */
  constructor(
    private readonly o: CommandRunOptions,
    private readonly halt: () => void,
    private readonly ended: () => boolean = () => false,
  ) {
    this.capture = new OutputCapture(o.maxOutputBytes);
    o.signal.addEventListener("abort", this.onAbort, { once: true });
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.stop("timeout");
    }, o.timeoutMs);
  }

  stop(why: string): void {
    if (this.killed || this.ended()) return;
    this.killed = why;
    this.halt();
  }

  /** Decoded output as it arrives: kept within the cap and passed on to `onOutput`. */
  output(text: string): void {
    if (text === "") return;
    this.capture.push(text);
    this.o.onOutput?.(text);
  }

  /** The run is over: neither the timeout nor a cancel reaches it any more. */
  release(): void {
    clearTimeout(this.timer);
    this.o.signal.removeEventListener("abort", this.onAbort);
  }
}
