/**
 * The agent runtime without VS Code: the real task loop, gate factory, handlers and MCP hub, with the Node
 * adapters for files, commands and search. Headless, so every ask the gate makes is a deny carrying its
 * reason (the model reads it); the task's own asks have fixed answers: a completion is accepted, a failed
 * model request is not retried beyond the provider's own retries. With a checkpoint service, every call that may
 * change files is checkpointed first, and the run reports how to restore.
 */
import { sandboxForGate } from "../agent/sandbox/gateFacts";
import { realGateFactory } from "../agent/approvalGate";
import type { CheckpointService } from "../agent/checkpoints/types";
import type { AskChannel } from "../agent/env";
import { ToolExecutor } from "../agent/executor/toolExecutor";
import { McpHub } from "../agent/mcp/hub";
import { JsSearcher } from "../agent/node/jsSearcher";
import { NodeCommandRunner } from "../agent/node/nodeCommandRunner";
import { NodeFs } from "../agent/node/nodeFs";
import { disposeSandboxSessions } from "../agent/sandbox/sandboxedSpawn";
import type { ModelProvider } from "../agent/providers/types";
import { Task } from "../agent/task/task";
import type { TaskState } from "../agent/task/snapshot";
import type { ToolEnv } from "../agent/tools/types";
import { IgnoreRules } from "../core/ignoreFile";
import type { ToolgateSettings } from "../core/settingsModel";
import { taskCheckpoints } from "../shared/checkpointRows";
import type { AskResponse, TaskMessage } from "../shared/messages";
import { RunEvents, type RunEvent } from "./runEvents";
import { watchedFacts } from "../agent/node/watchedFacts";

export interface HeadlessOptions {
  readonly prompt: string;
  readonly settings: ToolgateSettings;
  /** The effective flat settings (the OS sandbox reads `toolgate.sandbox.*` from them). */
  readonly values?: Readonly<Record<string, unknown>>;
  readonly roots: readonly string[];
  readonly provider: ModelProvider;
  readonly emit: (e: RunEvent) => void;
  readonly onRefusal: (tool: string, reason: string, rule: string) => void;
  readonly onNotice?: (text: string) => void;
  readonly checkpoints?: CheckpointService;
  /** Called once the run ended with what was recorded (nothing when no call changed files). */
  readonly onCheckpoints?: (c: RunCheckpoints) => void;
}

/** The checkpoints a run recorded, or why it recorded none. */
export type RunCheckpoints =
  | { readonly taskId: string; readonly steps: number; readonly changedFiles: number }
  | { readonly taskId: string; readonly unavailable: string };

export interface HeadlessResult {
  readonly state: TaskState;
  readonly refusals: number;
  readonly exitCode: number;
}

/** Exit codes: 0 completed (refusals or not), 1 ended on an error, 3 ended without completing after a refusal. */
export function exitCodeFor(state: TaskState, refusals: number): number {
  if (state === "completed") return 0;
  return refusals > 0 ? 3 : 1;
}

class HeadlessAsks implements AskChannel {
  getMessage: (id: number) => TaskMessage | undefined = () => undefined;

  ask(messageId: number): Promise<AskResponse> {
    const m = this.getMessage(messageId);
    // An automatic retry's countdown: no one will say "now" or "stop", so its timer decides.
    if (m?.kind === "error" && m.retry?.at !== undefined) return new Promise<AskResponse>(() => undefined);
    // A completion has no one to review it: accepted. Anything else (a retry after a failed request, a
    // tool approval, which a headless gate never asks for, a command that cannot run sandboxed, a re-run outside
    // the sandbox) is declined; declining protected-path changes a sandboxed command made removes them.
    return Promise.resolve(m?.kind === "completion" ? { kind: "approve" } : { kind: "reject" });
  }
}

export async function runHeadless(o: HeadlessOptions): Promise<HeadlessResult> {
  const settings = o.settings;
  // The task's file-system facts, kept between its decisions while fs.watch reports no change.
  const watched = watchedFacts(o.roots);
  const executor = new ToolExecutor({
    createGate: realGateFactory({
      settings: () => settings,
      headless: true,
      extra: () => ({
        sandbox: sandboxForGate(o.values ?? {}),
        // A checkpoint is taken only with a service; without one the sandboxed tier asks (headless: refuses).
        ...(o.checkpoints ? { checkpoints: { available: true } } : {}),
        facts: watched.facts,
      }),
    }),
    roots: () => o.roots,
  });
  const config = await executor.asToolConfig("run");
  const servers = Object.entries(settings.mcpServers).filter(([, s]) => !s.disabled);
  const hub = servers.length > 0 ? new McpHub({ ...(o.roots[0] ? { cwd: o.roots[0] } : {}) }) : undefined;
  if (hub) {
    await hub.updateConfig(settings.mcpServers);
    for (const s of hub.servers())
      if (s.status === "error") o.onNotice?.(`MCP server ${s.name} did not start: ${s.error ?? "unknown error"}`);
  }
  const fs = new NodeFs();
  const env: ToolEnv = {
    fs,
    // The same runner and sandbox plan as the VS Code host: headless, a command that cannot run sandboxed is
    // asked about, and headless asks are declined, so it does not run.
    runner: new NodeCommandRunner(process.env, {
      values: () => o.values ?? {},
      ignoreFileName: () => settings.ignoreFile,
    }),
    searcher: new JsSearcher(fs),
    ignoreRules: (roots) => IgnoreRules.load(roots, settings.ignoreFile),
    ...(hub ? { mcp: hub } : {}),
  };
  const asks = new HeadlessAsks();
  const task = Task.create(
    {
      provider: o.provider,
      config,
      env,
      ask: asks,
      onEnd: () => {
        executor.release("run");
        env.runner.endTask?.("run");
      },
      ...(o.checkpoints ? { checkpoints: o.checkpoints } : {}),
    },
    o.prompt,
  );
  asks.getMessage = (id) => task.store.get(id);
  const events = new RunEvents(o.emit, o.onRefusal, o.onNotice, () => config.taint.active);
  for (const m of task.store.messages) events.apply({ type: "add", message: m });
  task.store.onDelta((d) => {
    events.apply(d);
    // A limit reached headless can never be reset: stop instead of letting the model hit it again and again.
    if (events.limitReached) task.cancel();
  });
  const stop = (): void => task.cancel();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    if (o.checkpoints) void o.checkpoints.warm().catch(() => undefined);
    const state = await task.run();
    task.store.flush();
    if (o.checkpoints) await reportCheckpoints(o.checkpoints, task, o);
    const exitCode = exitCodeFor(state, events.refusals);
    o.emit({ type: "end", state, exitCode, refusals: events.refusals });
    return { state, refusals: events.refusals, exitCode };
  } finally {
    process.removeListener("SIGINT", stop);
    process.removeListener("SIGTERM", stop);
    await hub?.dispose();
    watched.close();
    // The run is over: its sandbox sessions (proxies, mount targets, the task's /tmp) go now, not at exit.
    disposeSandboxSessions();
  }
}

/** Waits for the last step's record (operations of a service run in order), then reports the task's steps. */
async function reportCheckpoints(service: CheckpointService, task: Task, o: HeadlessOptions): Promise<void> {
  const list = await service.list(task.id).catch(() => undefined);
  const tool = list?.steps.filter((s) => s.kind === "tool") ?? [];
  if (tool.length > 0) {
    const changedFiles = tool.reduce((n, s) => n + (s.changedFiles ?? 0), 0);
    o.onCheckpoints?.({ taskId: task.id, steps: tool.length, changedFiles });
    return;
  }
  const why = taskCheckpoints(task.store.messages).unavailable;
  if (why !== undefined) o.onCheckpoints?.({ taskId: task.id, unavailable: why });
}
