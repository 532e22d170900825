/**
 * One tool call from the moment its block starts streaming until its result: what the person sees (a tool
 * message whose text is the streamed body param), the gate's decision, the approval, and the run.
 *
 * Invariants:
 * - Nothing executes unless the block is complete (`complete` state, parsed arguments) AND the decision
 *   for those complete arguments, under the current gate, is allow or the person approved it.
 * - While a file edit streams with its path known, a preview decision makes the message a say (will run)
 *   or an ask (will wait). A gate swap (settings changed) re-decides it; the role switches accordingly.
 * - A preview is only a UI hint: it counts no request and is never reused. The complete block always goes
 *   through the whole validator and gate, and what runs is the resolved call of THAT decision.
 * - The person can answer only once the block is complete (the ask is registered with the AskChannel then).
 */
import type { AskResponse, FileTarget, SandboxOutlook, TaskMessage, ToolInfo, ToolStatus } from "../../shared/messages";
import type { CallDanger, CallFacts, Decision, ToolCall } from "../../core/types";
import { publicDecision, type Judged, type ResolvedCall } from "../../core/resolvedCall";
import type { AskChannel, DiffSession } from "../env";
import { WORKSPACE_WRITE_GRANT, withApprovedReads, type SandboxGrant } from "../../core/sandbox/grant";
import type { TaskConfig } from "../executor/taskConfig";
import { toolDefinition } from "../tools/definitions";
import type { MessageStore } from "./messageStore";

const PREVIEWED_TOOLS = new Set(["write_to_file", "replace_in_file"]);
/** The rule of the ask for one run outside the OS sandbox (never a gate decision: only a click approves it). */
const UNSANDBOXED_RULE = "sandbox:unsandboxed";

export type Approval =
  | {
      readonly kind: "run";
      readonly decision: Decision;
      readonly call: ResolvedCall;
      readonly feedback?: string;
      /** The person chose "Run outside the sandbox" on a card that offered it. */
      readonly outsideSandbox?: true;
    }
  | { readonly kind: "denied"; readonly decision: Decision }
  | { readonly kind: "rejected"; readonly decision: Decision; readonly feedback?: string };

export interface ToolCallRunDeps {
  readonly messages: MessageStore;
  readonly config: TaskConfig;
  readonly ask: AskChannel;
  /** An ask became pending (and is registered with the AskChannel): save the task now. */
  readonly onAskPending: () => Promise<void>;
  /** The ask was answered or withdrawn. */
  readonly onAskSettled: () => void;
  /** What must be found out before deciding (web_fetch: the DNS answer), looked up afresh for each decision. */
  readonly facts?: (name: string, params: Readonly<Record<string, unknown>>) => Promise<CallFacts | undefined>;
  /** Opens a diff the person can edit, for file edits that will wait for approval (undefined: no reviewer). */
  readonly openDiff?: (path: string) => Promise<DiffSession | undefined>;
  /** Commands: how one would run if the person approved it now (the card says so before the click). */
  readonly sandboxOutlook?: (grant?: SandboxGrant) => SandboxOutlook | undefined;
}

export function displayParams(name: string, params: Readonly<Record<string, unknown>>): Record<string, string> {
  const body = toolDefinition(name)?.body;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (k === body) continue;
    const s = typeof v === "string" ? v : JSON.stringify(v);
    out[k] = s.length > 2000 ? s.slice(0, 2000) + "…" : s;
  }
  return out;
}

export class ToolCallRun {
  readonly messageId: number;
  readonly body: string | undefined;
  private params: Readonly<Record<string, unknown>> = {};
  private status: ToolStatus = "streaming";
  private decision: Decision | undefined;
  private preview: { decision: Decision; generation: number; path: string } | undefined;
  private role: "say" | "ask" = "say";
  private unsubscribe: () => void;
  private diff: Promise<DiffSession | undefined> | undefined;
  private wake: (() => void) | undefined;
  /** A command's decided working directory, once decided. */
  private cwd: string | undefined;
  /** Commands: whether it ran inside the OS sandbox, once known. */
  private sandboxed: boolean | undefined;
  /** A result shown while the call still waits (the sandbox stopped a first run; a re-run is asked about). */
  private interimResult: string | undefined;
  /** Commands waiting for a click: how they will run once approved. */
  private outlook: SandboxOutlook | undefined;
  /** File tools: where the decided call really lands. */
  private target: FileTarget | undefined;
  /** The content a file edit will write, once prepared (shown in the diff). */
  private proposed: string | undefined;

  constructor(
    readonly toolUseId: string,
    readonly name: string,
    private readonly deps: ToolCallRunDeps,
    existingMessageId?: number,
  ) {
    this.body = toolDefinition(name)?.body;
    // The followup question and the completion have their own kinds; their body (question, result) is the text.
    const kind = name === "ask_followup_question" ? "followup" : name === "attempt_completion" ? "completion" : "tool";
    this.messageId =
      existingMessageId ??
      deps.messages.add({ role: "say", kind, partial: true, tool: { name, params: {}, status: "streaming" } });
    const existing = existingMessageId !== undefined ? deps.messages.get(existingMessageId) : undefined;
    if (existing) this.role = existing.role;
    // Restored from history: the row keeps what it said about the call (its decision, where it runs).
    const shown = existing?.tool;
    if (shown?.decision) this.decision = shown.decision;
    if (shown?.cwd !== undefined) this.cwd = shown.cwd;
    if (shown?.sandboxed !== undefined) this.sandboxed = shown.sandboxed;
    if (shown?.target) this.target = shown.target;
    this.unsubscribe = deps.config.onGateChanged(() => this.gateChanged());
  }

  get currentStatus(): ToolStatus {
    return this.status;
  }

  get previewDecision(): Decision | undefined {
    return this.preview?.decision;
  }

  get diffSession(): Promise<DiffSession | undefined> | undefined {
    return this.diff;
  }

  // ---- streaming -------------------------------------------------------------------------------------

  /** The body param grew: shown as appended message text, and streamed into an open diff. */
  onStringDelta(key: string, delta: string, params: Readonly<Record<string, unknown>>): void {
    this.params = params;
    if (key === this.body) {
      this.deps.messages.append(this.messageId, delta);
      if (this.name === "write_to_file") void this.diff?.then((d) => d?.append(delta));
      if (this.name === "replace_in_file" && !this.preview) this.tryPreview();
    }
  }

  onFieldComplete(key: string, params: Readonly<Record<string, unknown>>): void {
    this.params = params;
    if (key === "options" && this.name === "ask_followup_question" && Array.isArray(params.options)) {
      this.patchTool({
        options: params.options.map((o) => (typeof o === "string" ? o : JSON.stringify(o))).slice(0, 10),
      });
    } else if (key !== this.body) this.patchTool({});
    if (key === "path") this.tryPreview();
  }

  private tryPreview(): void {
    if (!PREVIEWED_TOOLS.has(this.name) || this.status !== "streaming") return;
    const path = this.params.path;
    if (typeof path !== "string") return;
    const bodyKey = this.name === "write_to_file" ? "content" : "diff";
    const sofar = typeof this.params[bodyKey] === "string" ? (this.params[bodyKey] as string) : "";
    // replace_in_file's diff must not be blank for the validator; wait for its first visible character.
    if (bodyKey === "diff" && sofar.trim() === "") return;
    const d = publicDecision(
      this.deps.config.callbacks.shouldAutoApproveToolWithPath(this.name, path, { [bodyKey]: sofar }),
    );
    this.preview = { decision: d, generation: this.deps.config.generation, path };
    this.show(d);
  }

  /** Shows a decision: the message role follows it (ask = will wait for the person). */
  private show(d: Decision): void {
    this.decision = publicDecision(d);
    const command = (d as Judged).resolved?.command;
    if (command) this.cwd = command.cwd;
    if (command && d.decision === "ask" && d.rule !== UNSANDBOXED_RULE) {
      // The model's request to leave the sandbox: the card says it runs unsandboxed, and why.
      const outlook = command.leaveSandbox
        ? { sandboxed: false, reason: `the model asks to leave the sandbox: ${command.leaveSandbox.reason}` }
        : // Approved, it runs with the outside reads this card names bound read-only (executeCommand.ts).
          this.deps.sandboxOutlook?.(
            command.outsideReads
              ? withApprovedReads(command.grant ?? WORKSPACE_WRITE_GRANT, command.outsideReads)
              : command.grant,
          );
      // Leaving the sandbox is a separate, explicit choice, offered only where it would be sandboxed at all.
      this.outlook =
        outlook?.sandboxed === true && command.mayRunOutside === true ? { ...outlook, canRunOutside: true } : outlook;
    }
    const path = (d as Judged).resolved?.path;
    if (path)
      this.target = {
        real: path.real,
        inside: path.realRoot !== undefined,
        ...(path.realRoot ? { relative: path.realRoot.relative } : {}),
      };
    const role = d.decision === "ask" ? "ask" : "say";
    const patch: Partial<TaskMessage> = role !== this.role ? { role } : {};
    this.role = role;
    if (role === "ask") this.openDiffOnce();
    this.patchTool(patch);
  }

  /** A file edit that will wait for the person opens a diff they can edit (once; it stays open until settled). */
  private openDiffOnce(): void {
    if (this.diff || !this.deps.openDiff || !PREVIEWED_TOOLS.has(this.name) || typeof this.params.path !== "string")
      return;
    // What the diff shows first is captured now; deltas arriving while it opens are appended after it.
    const first =
      this.proposed ??
      (this.name === "write_to_file" && typeof this.params.content === "string" ? this.params.content : undefined);
    this.diff = this.deps.openDiff(this.params.path).then((session) => {
      if (session && first !== undefined) session.setContent(first);
      return session;
    });
  }

  private patchTool(extra: Partial<TaskMessage>, status: ToolStatus = this.status): void {
    this.status = status;
    const tool: ToolInfo = {
      name: this.name,
      params: displayParams(this.name, this.params),
      status,
      ...(this.decision ? { decision: this.decision } : {}),
      ...(this.name === "use_mcp_tool" && typeof this.params.server_name === "string"
        ? { serverName: this.params.server_name }
        : {}),
      ...(this.cwd !== undefined ? { cwd: this.cwd } : {}),
      ...(this.sandboxed !== undefined ? { sandboxed: this.sandboxed } : {}),
      ...(this.outlook !== undefined ? { sandboxOutlook: this.outlook } : {}),
      ...(this.interimResult !== undefined ? { result: this.interimResult } : {}),
      ...(this.target ? { target: this.target } : {}),
      ...(this.name === "use_mcp_tool" && typeof this.params.tool_name === "string"
        ? { toolName: this.params.tool_name }
        : {}),
    };
    this.deps.messages.patch(this.messageId, { ...extra, tool });
  }

  private gateChanged(): void {
    if (this.status === "streaming" && this.preview) {
      this.preview = undefined;
      this.tryPreview();
    }
    this.wake?.();
  }

  /** The block ended without complete arguments: it never runs. */
  interrupt(reason: "interrupted" | "error", text?: string): void {
    this.status = reason;
    this.patchTool({ partial: false, ...(this.role === "ask" ? { role: "say" as const } : {}) }, reason);
    this.role = "say";
    if (text)
      this.deps.messages.patch(this.messageId, {
        tool: { ...this.deps.messages.get(this.messageId)!.tool!, result: text },
      });
    this.dispose();
  }

  // ---- approval ----------------------------------------------------------------------------------------

  /** Complete arguments arrived: from here on the params are final. */
  complete(params: Readonly<Record<string, unknown>>): void {
    this.params = params;
    this.patchTool({ partial: false });
  }

  /** The whole gate on the complete call, with facts looked up now; a preview's decision is never reused. */
  private async decideNow(): Promise<Judged> {
    this.preview = undefined;
    const facts = await this.deps.facts?.(this.name, this.params);
    const call: ToolCall = { tool: this.name, params: this.params, ...(facts ? { facts } : {}) };
    return this.deps.config.callbacks.decide(call, this.messageId);
  }

  /**
   * The command could not run inside the OS sandbox, or the sandbox stopped it (`sandboxedRun`: how that run
   * ended, shown on the row): one ask on this call's card, labelled "unsandboxed", whatever the gate decided.
   * A gate swap while waiting asks again; only "approve" approves.
   */
  async askUnsandboxed(
    reason: string,
    signal: AbortSignal,
    sandboxedRun?: string,
    danger?: readonly CallDanger[],
  ): Promise<{ readonly approved: boolean; readonly feedback?: string }> {
    // A re-run after the sandbox stopped it: the row keeps saying how the first run ended, and where.
    this.sandboxed = sandboxedRun !== undefined;
    this.outlook = {
      sandboxed: false,
      reason:
        sandboxedRun !== undefined
          ? "once, after the OS sandbox stopped it"
          : reason.replace(/^(runs )?unsandboxed: /, ""),
    };
    this.interimResult = sandboxedRun;
    const d: Decision = { decision: "ask", reason, rule: UNSANDBOXED_RULE, ...(danger ? { danger } : {}) };
    for (;;) {
      if (signal.aborted) throw new Error("cancelled");
      const outcome = await this.waitForPerson(d, signal);
      if (outcome.kind === "gateChanged") continue;
      const fb = outcome.response.text ? { feedback: outcome.response.text } : {};
      if (outcome.response.kind === "approve") {
        this.setStatus("running");
        return { approved: true, ...fb };
      }
      if (outcome.response.kind === "resetLimits") continue;
      this.setStatus("rejected");
      return { approved: false, ...fb };
    }
  }

  /**
   * A call the gate allowed only on the condition of a checkpoint taken just before it (the sandboxed tier),
   * when none could be taken: one ask on this call's card saying why, with the sandbox and grant as decided.
   * A gate swap while waiting asks again; only an approval runs it (inside the sandbox, the stricter reading).
   */
  async askBeforeRunning(
    reason: string,
    rule: string,
    call: ResolvedCall,
    signal: AbortSignal,
  ): Promise<{ readonly approved: boolean; readonly feedback?: string }> {
    const d: Judged = { decision: "ask", reason, rule, resolved: call };
    for (;;) {
      if (signal.aborted) throw new Error("cancelled");
      const outcome = await this.waitForPerson(d, signal);
      if (outcome.kind === "gateChanged") continue;
      const fb = outcome.response.text ? { feedback: outcome.response.text } : {};
      if (outcome.response.kind === "approve" || outcome.response.kind === "approveOutsideSandbox") {
        this.setStatus("running");
        return { approved: true, ...fb };
      }
      if (outcome.response.kind === "resetLimits") continue;
      this.setStatus("rejected");
      return { approved: false, ...fb };
    }
  }

  /** A new decision for changed params (a redirect hop, a path that changed before it was used). */
  async approveAgain(params: Readonly<Record<string, unknown>>, signal: AbortSignal): Promise<Approval> {
    this.params = params;
    this.patchTool({}, "streaming");
    return this.approve(signal);
  }

  /**
   * Decides the complete call and, if it asks, waits for the person, re-deciding whenever the gate changes.
   * `prepare` runs once the decision is not a deny (file edits compute the proposed content there, which the
   * diff then shows); if it fails, the call is settled with its message, without asking.
   */
  async approve(
    signal: AbortSignal,
    prepare?: (call: ResolvedCall) => Promise<{ readonly error?: string; readonly proposed?: string }>,
  ): Promise<Approval> {
    let d = await this.decideNow();
    let prepared = false;
    for (;;) {
      if (signal.aborted) throw new Error("cancelled");
      if (d.decision === "deny") {
        this.show(d);
        this.setStatus("denied");
        return { kind: "denied", decision: d };
      }
      const call = d.resolved;
      if (!call) {
        this.show(d);
        this.setStatus("denied");
        return {
          kind: "denied",
          decision: { decision: "deny", reason: "the call was not resolved", rule: "gate:unresolved" },
        };
      }
      if (!prepared && prepare) {
        prepared = true;
        const r = await prepare(call);
        if (r.error !== undefined)
          return { kind: "denied", decision: { decision: "deny", reason: r.error, rule: "tool:prepare" } };
        if (r.proposed !== undefined) {
          this.proposed = r.proposed;
          const proposed = r.proposed;
          void this.diff?.then((session) => session?.setContent(proposed));
        }
      }
      if (d.decision === "allow") {
        this.show(d);
        this.setStatus("approved");
        return { kind: "run", decision: publicDecision(d), call };
      }
      const outcome = await this.waitForPerson(d, signal);
      // A followup question is answered, not approved: a typed message or a clicked option is the answer.
      const answers = this.name === "ask_followup_question" ? ["approve", "message"] : ["approve"];
      // "Run outside the sandbox" counts only where this card offered it; anywhere else it is a plain approval,
      // which runs inside the sandbox (the stricter reading).
      const outside =
        outcome.kind === "answer" &&
        outcome.response.kind === "approveOutsideSandbox" &&
        call.command?.mayRunOutside === true &&
        this.outlook?.canRunOutside === true;
      if (
        outcome.kind === "answer" &&
        (answers.includes(outcome.response.kind) || outcome.response.kind === "approveOutsideSandbox")
      ) {
        this.setStatus("approved");
        return {
          kind: "run",
          decision: publicDecision(d),
          call,
          ...(outcome.response.text ? { feedback: outcome.response.text } : {}),
          ...(outside ? { outsideSandbox: true as const } : {}),
        };
      }
      if (outcome.kind === "answer" && outcome.response.kind === "trustSource") {
        // The person vouched for what the task read: those sources stop counting, and the call is decided again
        // (it may still ask for another reason, or for a source the person did not see on this card).
        for (const source of d.taintedBy ?? []) this.deps.config.taint.trust(source);
        d = await this.decideNow();
        continue;
      }
      if (outcome.kind === "answer" && outcome.response.kind !== "resetLimits") {
        this.setStatus("rejected");
        return { kind: "rejected", decision: d, ...(outcome.response.text ? { feedback: outcome.response.text } : {}) };
      }
      // The gate changed while waiting, or the person reset the limits: decide again under the current gate.
      if (outcome.kind === "answer") this.deps.config.gate.resetLimits();
      d = await this.decideNow();
    }
  }

  /**
   * Registers the ask and waits for the answer or a gate swap (which withdraws the ask; the caller re-decides
   * and asks again if it still must). Limit asks go on their own `limit` message ("reset and continue").
   */
  private async waitForPerson(
    d: Decision,
    signal: AbortSignal,
  ): Promise<{ kind: "gateChanged" } | { kind: "answer"; response: AskResponse }> {
    // The generation `d` was decided under: a swap at any point from here on (even while saving) re-decides.
    const gen = this.deps.config.generation;
    this.show(d);
    this.setStatus("pending");
    const isLimit = d.rule.startsWith("limits.");
    const askId = isLimit
      ? this.deps.messages.add({ role: "ask", kind: "limit", text: d.reason, askState: "pending" })
      : this.messageId;
    if (!isLimit) this.deps.messages.patch(askId, { askState: "pending" });
    const withdraw = new AbortController();
    const onTaskAbort = (): void => withdraw.abort();
    signal.addEventListener("abort", onTaskAbort, { once: true });
    try {
      const result = await new Promise<
        { kind: "gateChanged" } | { kind: "answer"; response: AskResponse } | { kind: "aborted" }
      >((resolve) => {
        withdraw.signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
        // Registered in the same synchronous step that showed the ask as pending: an answer can never arrive
        // for an ask the channel does not know yet. Saving it follows.
        this.deps.ask.ask(askId, withdraw.signal).then(
          (response) => resolve({ kind: "answer", response }),
          () => resolve({ kind: "aborted" }),
        );
        // A swap re-decides, unless the person's answer to this very ask is on its way (see AskChannel.answering).
        this.wake = () => {
          if (this.deps.config.generation !== gen && this.deps.ask.answering?.(askId) !== true)
            resolve({ kind: "gateChanged" });
        };
        this.wake();
        void this.deps.onAskPending();
      });
      this.wake = undefined;
      this.deps.onAskSettled();
      if (result.kind === "aborted") throw new Error("cancelled");
      withdraw.abort();
      this.deps.messages.patch(askId, { askState: "answered" });
      return result;
    } finally {
      signal.removeEventListener("abort", onTaskAbort);
    }
  }

  private setStatus(status: ToolStatus): void {
    this.patchTool({}, status);
  }

  markRunning(): void {
    this.setStatus("running");
  }

  finish(result: string, isError: boolean, sandboxed?: boolean): void {
    const shown = result.length > 4000 ? result.slice(0, 4000) + "…" : result;
    this.status = isError ? "error" : "done";
    if (sandboxed !== undefined) this.sandboxed = sandboxed;
    const tool: ToolInfo = {
      ...this.deps.messages.get(this.messageId)!.tool!,
      status: this.status,
      result: shown,
      ...(this.sandboxed !== undefined ? { sandboxed: this.sandboxed } : {}),
    };
    this.deps.messages.patch(this.messageId, { tool, partial: false });
    this.dispose();
  }

  /** For a denied/rejected/skipped call: the status already says what happened; record the text shown. */
  settle(status: ToolStatus, text: string): void {
    this.status = status;
    const m = this.deps.messages.get(this.messageId)!;
    const tool: ToolInfo = { ...m.tool!, status, result: text };
    this.deps.messages.patch(this.messageId, {
      tool,
      partial: false,
      ...(m.askState === "pending" ? { askState: "answered" as const } : {}),
    });
    this.dispose();
  }

  dispose(): void {
    this.unsubscribe();
    this.unsubscribe = () => undefined;
    const d = this.diff;
    this.diff = undefined;
    void d?.then((s) => s?.close()).catch(() => undefined);
  }
}
