/**
 * The host's chat logic, free of `vscode` so it unit-tests in Node. It owns the current task session, the
 * connected webviews (sidebar view and editor tabs, each a WebviewChannel) and turns webview intents into
 * task calls, settings writes and saved rules.
 *
 * Invariants:
 * - Every webview gets a full snapshot on each `ready`, then the task's deltas, coalesced per frame.
 *   Before a snapshot, pending deltas are flushed to the other webviews, so none is lost or applied twice.
 * - An ask is answered through `TaskSession.answerAsk`, which accepts it exactly once; the webview whose
 *   answer lost is told so. A saved rule is always the one the host's own copy of the ask suggested.
 */
import type { RestoreMarks, TaskMessage } from "../shared/messages";
import type {
  FirstRunAction,
  HistoryItemView,
  HostState,
  HostToWebview,
  McpChange,
  ModelView,
  PresetOffer,
  RuleRef,
  TaskView,
  WebviewToHost,
} from "../shared/protocol";
import { NO_CHECKPOINTS, type CheckpointHost } from "./checkpointHost";
import { DeltaBatcher, FRAME_MS, realTimer, type Timer } from "./deltaBatcher";
import { attentionOf, NO_ATTENTION, type Attention } from "./askAttention";
import { formatAnswer } from "./decisionLog";
import { applyMcpChange, mcpView } from "./mcpPanel";
import { parseWebviewMessage } from "./protocolGuard";
import { ruleTarget, type RuleStore, type RuleTarget } from "./rememberedRules";
import type { SettingsLayer } from "../core/settingsLayers";
import { rememberedRules, removeRule, type RememberedRules } from "./rulesView";
import type { PresetOfferState } from "./presetOffer";
import type { SettingsBridge } from "./settingsBridge";
import { randomUUID } from "node:crypto";
import {
  IDLE_STATES,
  type Disposable,
  type McpStatusSource,
  type TaskSession,
  type TaskSessionFactory,
} from "./taskSession";
import type { WebviewChannel } from "./webviewChannel";
import { taintLine, type TaintState } from "../core/taint";

export interface HostServices {
  readonly settings: SettingsBridge;
  readonly rules: RuleStore;
  openDiff(message: TaskMessage): void | PromiseLike<void>;
  openSettings(query?: string): void | PromiseLike<void>;
  addMcpServer(): void | PromiseLike<void>;
  /** Opens VS Code's workspace trust editor (`workbench.trust.manage`). */
  manageTrust?(): void | PromiseLike<unknown>;
  /** Keyboard focus is inside a Toolgate panel (the `toolgate.chatFocused` context key). */
  chatFocused?(focused: boolean): Promise<void>;
  log(level: "info" | "warn" | "error", text: string): void;
  /** The call as the gate last decided it (DecisionLog.decidedCall), for the log line of the answer to it. */
  decidedCall?(taskId: string, callId: number): string | undefined;
  /** Told whenever the number of asks waiting for the person changes (badge, status bar, notification). */
  attention?(attention: Attention): void;
  /** Injected in tests; defaults to setTimeout. */
  readonly timer?: Timer;
  /** The managed policy layers the Rules view lists; default: the policy files every surface reads. */
  readonly managedLayers?: () => readonly SettingsLayer[];
  /** A first-run card button (choose a provider, set the key, open settings, the walkthrough). */
  firstRun?(action: FirstRunAction): void | PromiseLike<void>;
  /** The first-run preset card (shown once; again from a command). */
  readonly presets?: PresetOfferState;
}

export const NO_AGENT =
  "The agent runtime is not connected yet, so no task can run. Settings and MCP configuration work already.";

export class ChatController {
  private readonly channels = new Set<WebviewChannel>();
  private session: TaskSession | undefined;
  private sessionSubs: Disposable[] = [];
  private batcher: DeltaBatcher | undefined;
  private factory: TaskSessionFactory | undefined;
  private mcpSource: McpStatusSource | undefined;
  private mcpSub: Disposable | undefined;
  private pendingReveal: "autoApprove" | "input" | "mcp" | "rules" | "askFeedback" | undefined;
  private checkpoints: CheckpointHost | undefined;
  private checkpointsSub: Disposable | undefined;
  /** The current task's rows its files were restored to (from its checkpoint record). */
  private restoreMarks: RestoreMarks = {};
  private historyItems: readonly HistoryItemView[] = [];
  private model: ModelView | undefined;

  constructor(private readonly services: HostServices) {}

  // ----- wiring (called by activate.ts and by the runtime in runtime.ts) ------------------------------------

  connect(channel: WebviewChannel): Disposable {
    this.channels.add(channel);
    if (this.pendingReveal) channel.post({ type: "reveal", target: this.pendingReveal }); // queued until ready
    this.pendingReveal = undefined;
    return { dispose: () => this.channels.delete(channel) };
  }

  setTaskFactory(factory: TaskSessionFactory | undefined): void {
    this.factory = factory;
    if (factory && !this.session) {
      const restored = factory.restore?.({ extraRules: () => this.services.rules.extraRules(this.session?.id ?? "") });
      if (restored) this.attach(restored);
    }
    this.broadcastState();
    void this.refreshHistory();
  }

  /** Re-reads the task history and sends it to the webviews. */
  async refreshHistory(): Promise<void> {
    const read = this.factory?.history;
    if (!read) return;
    try {
      this.historyItems = await read.call(this.factory);
      this.broadcast({ type: "history", history: this.historyItems });
    } catch (e) {
      this.services.log("warn", `Could not read the task history: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** The model new tasks use changed (provider settings, API keys). */
  setModel(model: ModelView): void {
    this.model = model;
    this.broadcast({ type: "model", model });
  }

  setCheckpoints(host: CheckpointHost | undefined): void {
    this.checkpointsSub?.dispose();
    this.checkpoints = host;
    this.checkpointsSub = host?.onDidRestore?.((taskId) => {
      if (taskId === this.session?.id) void this.refreshRestoreMarks();
    });
    void this.refreshRestoreMarks();
  }

  /** Re-reads which rows of the current task were restored to, and tells the webviews when that changed. */
  async refreshRestoreMarks(): Promise<void> {
    const session = this.session;
    if (!session || !this.checkpoints) return;
    const marks = await this.checkpoints.marks(session.id).catch(() => ({}));
    if (this.session !== session || JSON.stringify(marks) === JSON.stringify(this.restoreMarks)) return;
    this.restoreMarks = marks;
    this.broadcast({ type: "restoreMarks", taskId: session.id, marks });
  }

  setMcpSource(source: McpStatusSource | undefined): void {
    this.mcpSub?.dispose();
    this.mcpSource = source;
    this.mcpSub = source?.onDidChange(() => this.mcpChanged());
    this.mcpChanged();
  }

  get currentSession(): TaskSession | undefined {
    return this.session;
  }

  state(): HostState {
    const rules = this.remembered();
    return {
      task: this.taskView(),
      settings: this.services.settings.view(),
      mcp: mcpView(this.services.settings.mcpServers(), this.mcpSource, rules.forMcpTool),
      agentAvailable: this.factory !== undefined,
      rules: rules.view,
      history: this.historyItems,
      ...(this.model ? { model: this.model } : {}),
      ...this.presetOffer(),
    };
  }

  private presetOffer(): { presetOffer?: PresetOffer } {
    const offer = this.services.presets?.offer();
    return offer ? { presetOffer: offer } : {};
  }

  /** The "choose a preset" command: the card again, in every panel. */
  offerPresets(): void {
    this.services.presets?.reopen();
    this.broadcastState();
  }

  settingsChanged(): void {
    this.broadcast({ type: "settings", settings: this.services.settings.view() });
    this.mcpChanged();
  }

  /** The MCP tab and the Rules view: both show remembered rules, so they are sent together. */
  mcpChanged(): void {
    const rules = this.remembered();
    this.broadcast({
      type: "mcp",
      mcp: mcpView(this.services.settings.mcpServers(), this.mcpSource, rules.forMcpTool),
    });
    this.broadcast({ type: "rules", rules: rules.view });
  }

  private remembered(): RememberedRules {
    return rememberedRules({
      rules: this.services.rules,
      settings: this.services.settings,
      ...(this.session ? { taskId: this.session.id } : {}),
      ...(this.services.managedLayers ? { managed: this.services.managedLayers } : {}),
    });
  }

  /**
   * Status bar / commands: ask the panel(s) to show a part. Queued until a webview is ready; kept for the
   * first webview when none exists yet (the view is still being created by the focus command).
   */
  reveal(target: "autoApprove" | "input" | "mcp" | "rules" | "askFeedback"): void {
    if (this.channels.size === 0) this.pendingReveal = target;
    for (const ch of this.channels) ch.post({ type: "reveal", target });
  }

  // ----- webview messages ------------------------------------------------------------------------------

  async handleMessage(channel: WebviewChannel, raw: unknown): Promise<void> {
    const msg = await parseWebviewMessage(raw);
    if (!msg) {
      this.services.log("warn", `Dropped a malformed message from the ${channel.name} webview.`);
      return;
    }
    if (msg.type === "ready") return this.onReady(channel);
    const requestId = "requestId" in msg ? msg.requestId : undefined;
    try {
      const error = await this.dispatch(msg);
      if (requestId !== undefined)
        channel.post({ type: "result", requestId, ok: error === undefined, ...(error ? { error } : {}) });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      this.services.log("error", `${msg.type} failed: ${error}`);
      if (requestId !== undefined) channel.post({ type: "result", requestId, ok: false, error });
    }
  }

  /**
   * Order matters: the snapshot is taken first (it may make the runtime emit buffered deltas into the batcher),
   * then pending deltas go to the webviews that already hold a snapshot (this one is closed and drops them, as
   * they are in its snapshot), then this one opens with the snapshot.
   */
  private onReady(channel: WebviewChannel): void {
    channel.close();
    const state = this.state();
    this.batcher?.flush();
    channel.open({ type: "state", state });
  }

  /** Returns a person-readable error, or undefined on success. */
  private async dispatch(msg: Exclude<WebviewToHost, { type: "ready" }>): Promise<string | undefined> {
    switch (msg.type) {
      case "newTask":
        return this.newTask(msg.text);
      case "sendMessage":
        return this.sendMessage(msg.text);
      case "cancelTask":
        this.session?.cancel();
        return undefined;
      case "clearTask":
        return this.clearTask();
      case "answerAsk":
        return this.answerAsk(msg);
      case "setSetting":
        await this.services.settings.apply(msg.change);
        return undefined;
      case "mcpChange":
        return this.mcpChange(msg.change);
      case "openDiff": {
        const m = this.findMessage(msg.messageId);
        // A refused edit never happens: a diff of it would show a change (or a missing `content` as the file
        // deleted) that the file on disk never had.
        if (m?.tool?.status === "denied") return "This edit was refused: it changed nothing, so there is no diff.";
        if (m) await this.services.openDiff(m);
        return undefined;
      }
      case "openSettings":
        await this.services.openSettings(msg.query);
        return undefined;
      case "addMcpServer":
        await this.services.addMcpServer();
        return undefined;
      case "removeRule":
        return this.removeRule(msg.ref);
      case "restoreCheckpoint":
      case "undoRestore": {
        const m = this.findMessage(msg.messageId);
        if (!this.session || !m) return "This step is no longer part of the task.";
        if (!this.checkpoints) return NO_CHECKPOINTS;
        const error = await (msg.type === "restoreCheckpoint"
          ? this.checkpoints.restore(this.session.id, m)
          : this.checkpoints.undoRestore(this.session.id, m));
        await this.refreshRestoreMarks();
        return error;
      }
      case "showTaskChanges":
        if (!this.session) return "There is no task.";
        return this.checkpoints ? this.checkpoints.showTaskChanges(this.session.id) : NO_CHECKPOINTS;
      case "manageTrust":
        await this.services.manageTrust?.();
        return undefined;
      case "focusChanged":
        await this.services.chatFocused?.(msg.focused);
        return undefined;
      case "openHistoryTask":
        return this.openHistoryTask(msg.id);
      case "firstRun":
        await this.services.firstRun?.(msg.action);
        return undefined;
      case "choosePreset":
        await this.services.presets?.choose(msg.preset);
        this.broadcastState();
        return undefined;
      case "deleteHistoryTask":
        return this.deleteHistoryTask(msg.id);
    }
  }

  // ----- tasks -------------------------------------------------------------------------------------------

  newTask(text: string): string | undefined {
    if (!text.trim()) return "Type what the agent should do.";
    if (!this.factory) return NO_AGENT;
    if (this.session && !IDLE_STATES.includes(this.session.state)) return "A task is still running. Cancel it first.";
    this.detach();
    let id = "";
    const session = this.factory.create({ extraRules: () => this.services.rules.extraRules(id) });
    id = session.id;
    this.attach(session);
    session.start(text);
    return undefined;
  }

  /**
   * The title bar's "New Task": a finished task makes way, as with the panel's own New task button (it stays in
   * the history), and the input gets the focus. False while a task still runs: it is kept, the input shown.
   */
  startOver(): boolean {
    const running = this.session !== undefined && !IDLE_STATES.includes(this.session.state);
    if (this.session && !running) this.clearTask();
    this.reveal("input");
    return !running;
  }

  /**
   * `new_task`: the running task hands over to a new one with `text` as its context. The new task starts
   * once the current one has ended (the handover ends it), in the same panel; returns the new task's id.
   */
  handOver(text: string, taint?: TaintState): string | undefined {
    const factory = this.factory;
    if (!factory) return undefined;
    const id = randomUUID();
    const start = () => {
      this.detach();
      const session = factory.create({
        id,
        extraRules: () => this.services.rules.extraRules(id),
        ...(taint ? { taint } : {}),
      });
      this.attach(session);
      session.start(text);
    };
    const current = this.session;
    if (!current || IDLE_STATES.includes(current.state)) start();
    else {
      const sub = current.onStateChange((state) => {
        if (!IDLE_STATES.includes(state)) return;
        sub.dispose();
        // Only if the person has not moved on (cleared the panel or started another task) meanwhile.
        if (this.session === current && state === "done") start();
      });
    }
    return id;
  }

  private sendMessage(text: string): string | undefined {
    if (!text.trim()) return "Type a message.";
    if (!this.session) return "There is no task to continue. Start a new one.";
    if (!IDLE_STATES.includes(this.session.state))
      return "The task is working. Answer its question or wait for it to finish.";
    if (!this.session.sendMessage || this.session.canContinue === false)
      return "This task cannot be continued. Start a new one.";
    this.session.sendMessage(text);
    return undefined;
  }

  private async openHistoryTask(id: string): Promise<string | undefined> {
    if (!this.factory?.open) return NO_AGENT;
    if (this.session?.id === id) return undefined;
    if (this.session && !IDLE_STATES.includes(this.session.state)) return "A task is still running. Cancel it first.";
    const session = await this.factory.open(id, { id, extraRules: () => this.services.rules.extraRules(id) });
    if (!session) return "This task is no longer in the history.";
    this.detach();
    this.attach(session);
    return undefined;
  }

  /** Deletes a past task (its transcript and its checkpoints); the task shown in the panel is not deleted. */
  private async deleteHistoryTask(id: string): Promise<string | undefined> {
    if (!this.factory?.delete) return NO_AGENT;
    if (this.session?.id === id) return "This task is open in the panel. Clear it first, then delete it.";
    try {
      await this.factory.delete(id);
    } catch (e) {
      return e instanceof Error ? e.message : `The task could not be deleted: ${String(e)}`;
    } finally {
      await this.refreshHistory();
    }
    return undefined;
  }

  private clearTask(): string | undefined {
    if (this.session && !IDLE_STATES.includes(this.session.state)) return "The task is still running. Cancel it first.";
    this.detach();
    this.broadcast({ type: "task", task: null });
    this.broadcast({ type: "rules", rules: this.remembered().view });
    void this.refreshHistory();
    return undefined;
  }

  private attach(session: TaskSession): void {
    this.session = session;
    this.restoreMarks = {};
    // Snapshot before subscribing: deltas the runtime flushes while snapshotting are already in it.
    const view = this.taskView();
    const batcher = new DeltaBatcher(
      (deltas) => this.broadcast({ type: "deltas", taskId: session.id, deltas }),
      FRAME_MS,
      this.services.timer ?? realTimer,
    );
    this.batcher = batcher;
    this.sessionSubs = [
      session.onDelta((d) => batcher.push(d)),
      session.onStateChange((state) => {
        batcher.flush(); // the messages that led to the new state arrive before it
        this.broadcast({ type: "taskState", taskId: session.id, state });
        this.updateAttention();
        if (IDLE_STATES.includes(state)) void this.refreshHistory();
        // A step recorded after a restore means it can no longer be undone by itself.
        void this.refreshRestoreMarks();
      }),
      ...(session.onTaintChange
        ? [
            session.onTaintChange((sources) => {
              // The audit log says when the task's ways out started (or stopped) asking, and because of what.
              this.services.log("info", `[task ${session.id}] untrusted content: ${taintLine(sources)}`);
              this.broadcast({ type: "taskTaint", taskId: session.id, sources: [...sources] });
            }),
          ]
        : []),
    ];
    this.broadcast({ type: "task", task: view });
    this.broadcast({ type: "rules", rules: this.remembered().view }); // "this task" rules are the new task's
    this.updateAttention();
    void this.refreshRestoreMarks();
  }

  /** Recomputed on state changes only: a task waits for the person exactly while its state is "waiting". */
  private updateAttention(): void {
    const s = this.session;
    this.services.attention?.(s ? attentionOf(s.snapshot(), s.state === "waiting") : NO_ATTENTION);
  }

  /** Keyboard answers (contributed keybindings): the newest pending ask of the current task. */
  answerPending(kind: "approve" | "reject"): string | undefined {
    const s = this.session;
    const a = s ? attentionOf(s.snapshot(), s.state === "waiting") : NO_ATTENTION;
    if (!s || a.latestId === undefined) return "Nothing is waiting for an answer.";
    const ask = this.findMessage(a.latestId);
    if (kind === "approve" && ask?.kind !== "tool" && ask?.kind !== "completion")
      return "This request needs an answer in the panel.";
    if (!s.answerAsk(a.latestId, { kind })) return "This request was already answered.";
    if (ask)
      this.services.log("info", formatAnswer(ask, { kind }, s.id, undefined, "keyboard", this.decided(s.id, ask)));
    return undefined;
  }

  private detach(): void {
    this.batcher?.flush();
    this.batcher?.dispose();
    this.batcher = undefined;
    for (const d of this.sessionSubs) d.dispose();
    this.sessionSubs = [];
    if (this.session) this.services.rules.forgetTask(this.session.id);
    this.session = undefined;
    this.services.attention?.(NO_ATTENTION);
  }

  private taskView(): TaskView | null {
    const s = this.session;
    if (!s) return null;
    const sources = s.untrustedSources?.() ?? [];
    return {
      id: s.id,
      state: s.state,
      messages: s.snapshot(),
      ...(s.fromHistory ? { fromHistory: true } : {}),
      ...(s.canContinue === false ? { canContinue: false } : {}),
      ...(Object.keys(this.restoreMarks).length > 0 ? { restoreMarks: this.restoreMarks } : {}),
      ...(sources.length > 0 ? { untrustedSources: sources } : {}),
    };
  }

  private decided(taskId: string, ask: TaskMessage): string | undefined {
    return ask.tool ? this.services.decidedCall?.(taskId, ask.id) : undefined;
  }

  private findMessage(id: number): TaskMessage | undefined {
    return this.session?.snapshot().find((m) => m.id === id);
  }

  private async answerAsk(msg: Extract<WebviewToHost, { type: "answerAsk" }>): Promise<string | undefined> {
    const session = this.session;
    const ask = this.findMessage(msg.messageId);
    if (!session || !ask || ask.role !== "ask") return "This request is no longer part of the task.";
    if (ask.askState !== "pending") return "This request was already answered.";
    if (msg.response.kind === "approveOutsideSandbox" && ask.tool?.sandboxOutlook?.canRunOutside !== true)
      return "This request cannot run outside the sandbox.";

    let target: (RuleTarget & { where?: string }) | undefined;
    if (msg.remember) {
      const wanted = msg.remember.effect === "allow" ? "approve" : "reject";
      if (msg.response.kind !== wanted) return "An 'always' rule must go with the matching answer.";
      target = ruleTarget(ask.tool?.name ?? "", ask.tool?.decision?.suggestion, msg.remember.effect);
      if (!target) return "There is no rule that can be saved for this call.";
    }

    // A granted rule is saved and the running task's gate rebuilt BEFORE the answer, so the task's very next
    // decision already uses it; this ask is held meanwhile, so it is settled by the person's answer, not the rule.
    let saveError: string | undefined;
    if (msg.remember && target) {
      try {
        const where = await this.services.rules.save(msg.remember.scope, target, session.id);
        target = { ...target, where };
        this.services.log("info", `Saved ${where} rule "${target.rule}" (${msg.remember.scope}).`);
        await session.rulesChanged?.(msg.messageId);
        this.mcpChanged();
      } catch (e) {
        saveError = e instanceof Error ? e.message : String(e);
      }
    }
    const answered = session.answerAsk(msg.messageId, msg.response);
    if (answered)
      this.services.log(
        "info",
        formatAnswer(
          ask,
          msg.response,
          session.id,
          msg.remember && target && saveError === undefined
            ? { scope: msg.remember.scope, list: target.where ?? target.list, rule: target.rule }
            : undefined,
          "panel",
          this.decided(session.id, ask),
        ),
      );
    if (saveError !== undefined) return `The rule could not be saved: ${saveError}`;
    if (!answered && !(msg.remember && target)) return "This request was already answered.";
    return undefined;
  }

  /** Removes one remembered rule; the running task's gate is rebuilt before its next decision. */
  private async removeRule(ref: RuleRef): Promise<string | undefined> {
    await removeRule(
      {
        rules: this.services.rules,
        settings: this.services.settings,
        ...(this.session ? { taskId: this.session.id } : {}),
      },
      ref,
    );
    const what =
      ref.source === "mcpAlwaysAllow" ? `${ref.server} alwaysAllow ${ref.tool}` : `${ref.list} "${ref.rule}"`;
    this.services.log("info", `Removed ${ref.source} rule ${what}.`);
    await this.session?.rulesChanged?.();
    this.mcpChanged();
    return undefined;
  }

  private async mcpChange(change: McpChange): Promise<string | undefined> {
    const view = mcpView(this.services.settings.mcpServers(), this.mcpSource);
    const server = view.servers.find((s) => s.name === change.server);
    const next = applyMcpChange(this.services.settings.mcpServers(), change, server?.tools.map((t) => t.name) ?? []);
    await this.services.settings.updateMcpServers(next);
    return undefined;
  }

  // ----- broadcast ---------------------------------------------------------------------------------------

  private broadcast(message: HostToWebview): void {
    for (const ch of this.channels) ch.post(message);
  }

  /** Snapshot first, then flush: deltas the snapshot already holds reach webviews before it, never after. */
  private broadcastState(): void {
    const state = this.state();
    this.batcher?.flush();
    for (const ch of this.channels) if (ch.ready) ch.post({ type: "state", state });
  }

  dispose(): void {
    this.detach();
    this.mcpSub?.dispose();
    this.channels.clear();
  }
}
