/**
 * The task loop: model turn → streamed assistant message → tool blocks → gate → (the person) → execute →
 * results back to the model → next turn, until attempt_completion is accepted, the task is cancelled, or an
 * error the person chooses not to retry.
 *
 * Invariants:
 * - Tool calls of a turn are executed only after the turn's stream ended cleanly; if it was cut, failed or
 *   was cancelled, none of them runs (they are shown as interrupted) and the turn can be retried.
 * - Every tool_use in the conversation is answered by a tool_result (denied, rejected, skipped, cancelled
 *   calls included), so the conversation stays valid for every provider and after a reload.
 * - Deltas only: the body of a tool call and assistant text stream as appends, never re-sent whole.
 */
import { randomUUID } from "node:crypto";
import type { AskResponse } from "../../shared/messages";
import type { AskChannel } from "../env";
import type { TaskConfig } from "../executor/taskConfig";
import { costOf } from "../providers/pricing";
import { ProviderError, type ContentPart, type ConversationMessage, type ModelProvider } from "../providers/types";
import { TurnAssembler, type TextBlock, type ToolBlock } from "../streaming/turn";
import { visibleTools, type ToolDefinition } from "../tools/definitions";
import { handlerFor } from "../tools/handlers/registry";
import { DEFAULT_TOOL_LIMITS, type PreparedEdit, type ToolContext, type ToolEnv, type ToolResult } from "../tools/types";
import { resolveLike } from "../tools/workspaceFiles";
import type { IgnoreRules } from "../../core/ignoreFile";
import { requestMessages, trimFor } from "./conversation";
import { MessageStore, type MessageStoreOptions } from "./messageStore";
import { buildSystemPrompt } from "./prompt";
import type { PendingCall, PendingTurn, TaskPersistence, TaskSnapshot, TaskState } from "./snapshot";
import { ToolCallRun } from "./toolCallRun";

export interface TaskDeps {
  readonly provider: ModelProvider;
  readonly config: TaskConfig;
  readonly env: ToolEnv;
  readonly ask: AskChannel;
  /** Where the task is saved: a writer, or a factory given the task's snapshot function (`history.writer`). */
  readonly persistence?: TaskPersistence | ((snapshot: () => TaskSnapshot) => TaskPersistence);
  readonly parentId?: string;
  readonly customInstructions?: string;
  /** Reserve for the model's answer when trimming (tokens). */
  readonly outputReserve?: number;
  /** Turns in a row without a tool call before the task stops and asks the person. */
  readonly maxTurnsWithoutTools?: number;
  readonly store?: MessageStoreOptions;
  /** Called once when the task stops (to release its executor config). */
  readonly onEnd?: (state: TaskState) => void;
}

const REPEATABLE_TOOLS: ReadonlySet<string> = new Set(["read_file", "list_files", "search_files", "access_mcp_resource", "ask_followup_question"]);

class Cancelled extends Error {
  constructor() {
    super("cancelled");
  }
}

export class Task {
  readonly store: MessageStore;
  private readonly abort = new AbortController();
  private conversation: ConversationMessage[];
  private keepFrom: number;
  private pending: PendingTurn | undefined;
  private state: TaskState;
  private readonly createdAt: number;
  private readonly title: string;
  private readonly runs = new Map<string, ToolCallRun>();
  private ignoreRules: IgnoreRules | undefined;
  private running: Promise<TaskState> | undefined;
  private turnsWithoutTools = 0;

  private constructor(
    readonly id: string,
    private readonly deps: TaskDeps,
    snapshot: Partial<TaskSnapshot> & Pick<TaskSnapshot, "title" | "createdAt">,
  ) {
    this.store = new MessageStore(snapshot.messages ?? [], deps.store);
    this.conversation = [...(snapshot.conversation ?? [])];
    this.keepFrom = snapshot.keepFrom ?? 1;
    this.pending = snapshot.pending ? { ...snapshot.pending, calls: snapshot.pending.calls.map((c) => ({ ...c })), results: [...snapshot.pending.results] } : undefined;
    this.state = snapshot.state ?? "running";
    this.createdAt = snapshot.createdAt;
    this.title = snapshot.title;
    this.persistence = typeof deps.persistence === "function" ? deps.persistence(() => this.snapshot()) : deps.persistence;
    this.store.onChange(() => this.persistence?.changed());
  }

  private readonly persistence: TaskPersistence | undefined;

  /** A new task for `text`; call `run()` to start it. */
  static create(deps: TaskDeps, text: string, id: string = randomUUID()): Task {
    const t = new Task(id, deps, { title: text.slice(0, 120), createdAt: Date.now(), conversation: [{ role: "user", content: [{ type: "text", text: `<task>\n${text}\n</task>` }] }] });
    t.store.add({ role: "say", kind: "user", text });
    return t;
  }

  /**
   * A task from history. Messages left mid-stream are shown as interrupted; a pending ask stays pending and
   * `run()` waits on it again; a call that was running when the window closed is reported to the model as
   * of unknown outcome.
   */
  static restore(deps: TaskDeps, snap: TaskSnapshot): Task {
    const t = new Task(snap.id, deps, snap);
    for (const m of t.store.messages) {
      if (m.tool && (m.tool.status === "streaming" || m.tool.status === "running" || m.tool.status === "approved")) {
        const inPending = t.pending?.calls.find((c) => c.messageId === m.id);
        if (!inPending || m.tool.status === "streaming") t.store.patch(m.id, { partial: false, tool: { ...m.tool, status: "interrupted" } });
      } else if (m.partial) t.store.patch(m.id, { partial: false });
    }
    if (snap.state === "running") t.state = "interrupted";
    return t;
  }

  get currentState(): TaskState {
    return this.state;
  }

  get signal(): AbortSignal {
    return this.abort.signal;
  }

  snapshot(): TaskSnapshot {
    this.store.flush();
    const tree = this.deps.config.tree;
    return {
      version: 1,
      id: this.id,
      ...(this.deps.parentId ? { parentId: this.deps.parentId } : {}),
      title: this.title,
      createdAt: this.createdAt,
      updatedAt: Date.now(),
      state: this.state,
      messages: this.store.messages,
      conversation: this.conversation,
      keepFrom: this.keepFrom,
      ...(this.pending ? { pending: this.pending } : {}),
      usage: { inputTokens: tree.inputTokens, outputTokens: tree.outputTokens, costUsd: tree.costUsd },
    };
  }

  /** Runs (or resumes) the loop; resolves with the state it stopped in. Calling it while running returns the same run. */
  run(): Promise<TaskState> {
    this.running ??= this.loop().finally(() => (this.running = undefined));
    return this.running;
  }

  /** A message from the person while the task is idle (completed, failed, cancelled, interrupted): continues it. */
  sendMessage(text: string): Promise<TaskState> {
    if (this.running) throw new Error("the task is running; answer its ask instead");
    this.store.add({ role: "say", kind: "user", text });
    this.pushUser([{ type: "text", text }]);
    return this.run();
  }

  cancel(): void {
    this.abort.abort();
  }

  // ---- loop --------------------------------------------------------------------------------------------

  private async loop(): Promise<TaskState> {
    this.setState("running");
    try {
      // Asks left pending when the task was saved are waited on again.
      // (A completion whose tool is still pending is an approval of its command: that one is in `pending`.)
      const waiting = this.store.messages.find((m) => m.askState === "pending" && ((m.kind === "completion" && m.tool?.status === "done") || m.kind === "error"));
      if (waiting?.kind === "completion") {
        if (!(await this.completionVerdict(waiting.id))) return this.end("completed");
      } else if (waiting?.kind === "error") {
        if (!(await this.retryVerdict(waiting.id))) return this.end("failed");
      }
      for (;;) {
        this.throwIfCancelled();
        if (this.pending) {
          const outcome = await this.processPending();
          if (outcome === "handover") return this.end("completed");
          if (outcome === "completion") {
            // The completion message itself becomes the ask: accept, or reply with feedback to go on.
            const msgId = this.lastCompletionMessage();
            this.store.patch(msgId, { role: "ask", askState: "pending" });
            if (!(await this.completionVerdict(msgId))) return this.end("completed");
          }
          continue;
        }
        const turn = await this.runTurn();
        if (turn === "stop") return this.end("failed");
      }
    } catch (e) {
      if (e instanceof Cancelled || this.abort.signal.aborted) {
        this.answerPendingAsCancelled();
        // No ask outlives the task (a restored task must not wait on one).
        for (const m of this.store.messages) if (m.askState === "pending") this.store.patch(m.id, { askState: "answered" });
        this.store.add({ role: "say", kind: "info", text: "The task was cancelled." });
        return this.end("cancelled");
      }
      this.store.add({ role: "say", kind: "error", text: `The task stopped on an internal error: ${(e as Error).message}` });
      return this.end("failed");
    }
  }

  private lastCompletionMessage(): number {
    const all = this.store.messages;
    for (let i = all.length - 1; i >= 0; i--) if (all[i]!.kind === "completion") return all[i]!.id;
    return this.store.add({ role: "ask", kind: "completion", text: "" });
  }

  private async end(state: TaskState): Promise<TaskState> {
    this.setState(state);
    this.store.flush();
    await this.persistence?.flush();
    this.deps.onEnd?.(state);
    return state;
  }

  private setState(s: TaskState): void {
    const changed = s !== this.state;
    this.state = s;
    this.persistence?.changed();
    if (changed) for (const l of [...this.stateListeners]) l(s);
  }

  private readonly stateListeners = new Set<(s: TaskState) => void>();

  /** running ⇄ waiting (an ask is pending), then the end state. */
  onStateChange(listener: (s: TaskState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  private throwIfCancelled(): void {
    if (this.abort.signal.aborted) throw new Cancelled();
  }

  /** Waits for the person on a message; a cancel rejects. */
  private async askPerson(messageId: number): Promise<AskResponse> {
    this.setState("waiting");
    // Registered before any await, in the step that showed the ask as pending; then saved.
    const answer = this.deps.ask.ask(messageId, this.abort.signal);
    this.store.flush();
    try {
      await this.persistence?.flush();
      const r = await answer;
      this.throwIfCancelled();
      this.store.patch(messageId, { askState: "answered" });
      return r;
    } catch (e) {
      if (this.abort.signal.aborted) throw new Cancelled();
      throw e;
    } finally {
      if (this.state === "waiting") this.setState("running");
    }
  }

  /** true = the person replied with feedback and the task goes on; false = accepted, the task ends. */
  private async completionVerdict(messageId: number): Promise<boolean> {
    const r = await this.askPerson(messageId);
    if (r.kind === "approve" && !r.text) return false;
    const text = r.text ?? "";
    if (r.kind === "approve" || text.trim() === "") return false;
    this.store.add({ role: "say", kind: "user", text });
    this.pushUser([{ type: "text", text: `The person replied to your result:\n${text}` }]);
    return true;
  }

  private async retryVerdict(messageId: number): Promise<boolean> {
    const r = await this.askPerson(messageId);
    return r.kind === "approve";
  }

  private pushUser(parts: readonly ContentPart[]): void {
    const last = this.conversation[this.conversation.length - 1];
    if (last?.role === "user") this.conversation[this.conversation.length - 1] = { role: "user", content: [...last.content, ...parts] };
    else this.conversation.push({ role: "user", content: [...parts] });
    this.persistence?.changed();
  }

  // ---- one model turn ------------------------------------------------------------------------------------

  private tools(): ToolDefinition[] {
    const denied = new Set(this.deps.config.deniedTools());
    if (!this.deps.env.mcp) ["use_mcp_tool", "access_mcp_resource"].forEach((t) => denied.add(t));
    return visibleTools([...denied]);
  }

  /** "next": the turn produced tool calls or a nudge; "stop": the person chose not to retry a failure. */
  private async runTurn(): Promise<"next" | "stop"> {
    const provider = this.deps.provider;
    const tools = this.tools();
    const system = buildSystemPrompt({ tools, roots: this.deps.config.roots, ...(this.deps.env.mcp ? { mcpServers: this.deps.env.mcp.servers() } : {}), ...(this.deps.customInstructions ? { customInstructions: this.deps.customInstructions } : {}) });
    const budget = provider.contextWindow - (this.deps.outputReserve ?? 8192);
    // Tool schemas are sent with every request and take context too.
    const trim = trimFor(this.conversation, system + JSON.stringify(tools), budget, this.keepFrom);
    if (trim.keepFrom > this.keepFrom) {
      const dropped = trim.keepFrom - this.keepFrom;
      this.keepFrom = trim.keepFrom;
      this.store.add({ role: "say", kind: "info", text: `Removed the ${dropped} oldest messages of the conversation so it fits the model's context window (${provider.contextWindow} tokens).` });
    }
    const apiId = this.store.add({ role: "say", kind: "api_request", text: provider.id, partial: true });
    let textId: number | undefined;
    let reasoningId: number | undefined;
    const endText = (): void => {
      if (textId !== undefined) this.store.patch(textId, { partial: false });
      if (reasoningId !== undefined) this.store.patch(reasoningId, { partial: false });
      textId = reasoningId = undefined;
    };
    const turnRuns = new Map<ToolBlock, ToolCallRun>();
    const assembler = new TurnAssembler({
      onTextDelta: (_b: TextBlock, delta) => {
        textId ??= this.store.add({ role: "say", kind: "text", partial: true });
        this.store.append(textId, delta);
      },
      onReasoningDelta: (delta) => {
        reasoningId ??= this.store.add({ role: "say", kind: "reasoning", partial: true });
        this.store.append(reasoningId, delta);
      },
      onToolStart: (block) => {
        endText();
        turnRuns.set(block, new ToolCallRun(block.id, block.name, this.runDeps()));
      },
      onToolStringDelta: (block, key, delta) => turnRuns.get(block)?.onStringDelta(key, delta, block.params),
      onToolFieldComplete: (block, key) => turnRuns.get(block)?.onFieldComplete(key, block.params),
      onToolEnd: (block) => {
        const run = turnRuns.get(block);
        if (!run) return;
        if (block.state === "complete") run.complete(block.params);
        else if (block.state === "error") run.interrupt("error", block.error);
        else run.interrupt("interrupted", "The response was cut before this call was complete; it was not run.");
      },
    });
    let failure: unknown;
    try {
      const stream = provider.stream({
        system,
        messages: requestMessages(this.conversation, this.keepFrom),
        tools,
        signal: this.abort.signal,
        onRetry: (r) => this.store.add({ role: "say", kind: "info", text: `The model service answered "${r.reason}"; retrying in ${Math.round(r.delayMs / 100) / 10} s (attempt ${r.attempt}).` }),
      });
      for await (const ev of stream) assembler.handle(ev);
      if (!assembler.ended) throw new ProviderError("the response stream ended without its end marker", "cut");
    } catch (e) {
      failure = e;
      assembler.interrupt();
    }
    endText();
    const usage = assembler.usage;
    const cost = costOf(provider.model, usage);
    this.deps.config.recordCost(cost, usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens, usage.outputTokens);
    this.store.patch(apiId, { partial: false, usage: { inputTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens, outputTokens: usage.outputTokens, costUsd: cost } });

    if (failure !== undefined || this.abort.signal.aborted) {
      // Nothing of a failed turn runs, not even its complete calls.
      for (const [block, run] of turnRuns) if (block.state === "complete") run.interrupt("interrupted", "The response did not finish, so no call of it was run.");
      this.throwIfCancelled();
      const msg = failure instanceof Error ? failure.message : String(failure);
      const errId = this.store.add({ role: "ask", kind: "error", text: `The model request failed: ${msg}`, askState: "pending" });
      return (await this.retryVerdict(errId)) ? "next" : "stop";
    }

    const blocks = assembler.toolBlocks;
    const assistant: ContentPart[] = [];
    if (assembler.text) assistant.push({ type: "text", text: assembler.text });
    for (const b of blocks) assistant.push({ type: "tool_use", id: b.id, name: b.name, input: b.state === "complete" ? b.params : {} });
    if (assistant.length === 0) assistant.push({ type: "text", text: "(no response)" });
    this.conversation.push({ role: "assistant", content: assistant });

    if (blocks.length === 0) {
      this.turnsWithoutTools++;
      if (this.turnsWithoutTools >= (this.deps.maxTurnsWithoutTools ?? 3)) {
        const errId = this.store.add({ role: "ask", kind: "error", text: "The model keeps answering without using a tool. Try again?", askState: "pending" });
        if (!(await this.retryVerdict(errId))) return "stop";
        this.turnsWithoutTools = 0;
      }
      this.pushUser([{ type: "text", text: "You answered without using a tool. If the task is done, call attempt_completion; if you need the person, call ask_followup_question; otherwise continue with a tool." }]);
      return "next";
    }
    this.turnsWithoutTools = 0;
    this.pending = {
      calls: blocks.map((b) => ({
        toolUseId: b.id,
        name: b.name,
        input: b.state === "complete" ? b.params : {},
        messageId: turnRuns.get(b)!.messageId,
        ...(b.state === "error" ? { error: b.error ?? "malformed arguments" } : {}),
        state: "queued" as const,
      })),
      results: [],
      skipRest: false,
    };
    for (const [b, run] of turnRuns) this.runs.set(b.id, run);
    this.persistence?.changed();
    return "next";
  }

  private runDeps() {
    return {
      messages: this.store,
      config: this.deps.config,
      ask: this.deps.ask,
      onAskPending: async () => {
        this.setState("waiting");
        this.store.flush();
        await this.persistence?.flush();
      },
      onAskSettled: () => {
        if (this.state === "waiting") this.setState("running");
      },
      ...(this.deps.env.diff ? { openDiff: (path: string) => this.openDiff(path) } : {}),
    };
  }

  private async openDiff(path: string) {
    const reviewer = this.deps.env.diff;
    if (!reviewer) return undefined;
    const abs = resolveLike(this.deps.config.cwd, path);
    const st = await this.deps.env.fs.stat(abs).catch(() => undefined);
    const original = st?.type === "file" ? new TextDecoder().decode(await this.deps.env.fs.readFile(abs)) : undefined;
    return reviewer.open(abs, original);
  }

  // ---- tool calls ----------------------------------------------------------------------------------------

  private async processPending(): Promise<PendingTurn["outcome"]> {
    const turn = this.pending!;
    try {
      for (const call of turn.calls) {
        if (call.state === "done") continue;
        this.throwIfCancelled();
        const result = await this.processCall(call, turn);
        turn.results.push({ type: "tool_result", toolUseId: call.toolUseId, content: result.content, ...(result.isError ? { isError: true } : {}) });
        call.state = "done";
        if (result.outcome) turn.outcome = result.outcome;
        this.persistence?.changed();
      }
    } catch (e) {
      if (!(e instanceof Cancelled) && !this.abort.signal.aborted) throw e;
      this.answerPendingAsCancelled();
      throw new Cancelled();
    }
    this.pending = undefined;
    this.pushUser(turn.results);
    return turn.outcome;
  }

  /** On cancel: every call of the turn gets a result, so the conversation can be continued later. */
  private answerPendingAsCancelled(): void {
    const turn = this.pending;
    if (!turn) return;
    for (const call of turn.calls) {
      if (call.state === "done") continue;
      const content = call.state === "running" ? "The task was cancelled while this call ran; it was stopped." : "Not run: the task was cancelled.";
      turn.results.push({ type: "tool_result", toolUseId: call.toolUseId, content, isError: true });
      call.state = "done";
      const run = this.runs.get(call.toolUseId);
      if (run) run.settle("interrupted", content);
      else {
        const m = this.store.get(call.messageId);
        if (m?.tool) this.store.patch(call.messageId, { partial: false, ...(m.askState === "pending" ? { askState: "answered" as const } : {}), tool: { ...m.tool, status: "interrupted", result: content } });
      }
    }
    this.pending = undefined;
    this.pushUser(turn.results);
  }

  private runFor(call: PendingCall): ToolCallRun {
    let run = this.runs.get(call.toolUseId);
    if (!run) {
      // Restored from history: the message exists, the arguments are complete.
      run = new ToolCallRun(call.toolUseId, call.name, this.runDeps(), call.messageId);
      run.complete(call.input);
      this.runs.set(call.toolUseId, run);
    }
    return run;
  }

  private async processCall(call: PendingCall, turn: PendingTurn): Promise<ToolResult> {
    if (call.error) return { content: call.error, isError: true };
    const run = this.runFor(call);
    if (call.state === "running") {
      const text = "The editor was closed while this call ran; it is not known whether it finished. Check before repeating it.";
      run.settle("interrupted", text);
      return { content: text, isError: true };
    }
    if (turn.skipRest) {
      const text = "Not run: an earlier call in this message was rejected.";
      run.settle("rejected", text);
      return { content: text, isError: true };
    }
    const handler = handlerFor(call.name);
    if (!handler) {
      const text = `There is no tool named \`${call.name}\`.`;
      run.settle("error", text);
      return { content: text, isError: true };
    }
    let prepared: PreparedEdit | undefined;
    const baseCtx = this.toolContext(run.messageId);
    const approval = await run.approve(
      this.abort.signal,
      handler.prepare
        ? async () => {
            const r = await handler.prepare!(call.input, baseCtx);
            if (!r.ok) return { error: r.error };
            prepared = r.edit;
            return { proposed: r.edit.proposed };
          }
        : undefined,
    );
    if (approval.kind === "denied") {
      const d = approval.decision;
      const text = d.rule === "tool:prepare" ? d.reason : `Refused by the gate: ${d.reason} (rule: ${d.rule}). Do not retry this call in another form; choose another way or ask the person.`;
      run.settle(d.rule === "tool:prepare" ? "error" : "denied", text);
      return { content: text, isError: true };
    }
    if (approval.kind === "rejected") {
      turn.skipRest = true;
      const text = `The person rejected this call.${approval.feedback ? ` Their feedback: ${approval.feedback}` : ""}`;
      run.settle("rejected", text);
      return { content: text, isError: true };
    }
    call.state = "running";
    run.markRunning();
    // A call with effects is saved as running before it starts, so a reload can say its outcome is unknown
    // rather than run it twice. Reads are harmless to repeat and skip the write.
    if (!REPEATABLE_TOOLS.has(call.name)) {
      this.store.flush();
      await this.persistence?.flush();
    }
    const diffSession = await run.diffSession;
    const ctx: ToolContext = {
      ...baseCtx,
      ...(approval.feedback ? { feedback: approval.feedback } : {}),
      ...(diffSession ? { diffSession } : {}),
      ...(prepared ? { prepared } : {}),
    };
    let result: ToolResult;
    try {
      result = await handler.execute(call.input, ctx);
    } catch (e) {
      if (this.abort.signal.aborted) throw new Cancelled();
      result = { content: `The tool failed: ${(e as Error).message}`, isError: true };
    }
    // Cancelled while it ran: the call stays "running" so the cancel path reports it as stopped.
    if (this.abort.signal.aborted) throw new Cancelled();
    if (approval.feedback && call.name !== "ask_followup_question") result = { ...result, content: `${result.content}\n\nThe person said when approving: ${approval.feedback}` };
    run.finish(result.display ?? result.content, result.isError === true);
    return result;
  }

  private toolContext(messageId: number): ToolContext {
    const config = this.deps.config;
    this.ignoreRules ??= this.deps.env.ignoreRules(config.roots);
    return {
      config,
      env: this.deps.env,
      limits: { ...DEFAULT_TOOL_LIMITS, ...this.deps.env.limits },
      ignore: this.ignoreRules,
      signal: this.abort.signal,
      messages: this.store,
      messageId,
      resolve: (p) => resolveLike(config.cwd, p),
    };
  }
}
