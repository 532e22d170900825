/**
 * Builds a whole agent for tests (plain Node, no test-framework imports): a temp-dir workspace, the real
 * gate from flat `toolgate.*` settings, Node fs/runner/search, the scripted model server, and an AskChannel
 * whose answers the test scripts. Every delta the task emits is recorded, and applied to a mirror list the
 * way a webview would.
 *
 *   const h = await startHarness({ turns, settings: { "toolgate.autoApprove.actions": { editFiles: true } },
 *                                  files: { "src/a.ts": "…" }, answer: (msg) => ({ kind: "approve" }) });
 *   const state = await h.task.run();
 *   h.read("src/a.ts"); h.model.requests; h.deltas; h.view; h.asks
 *   await h.close();
 */
import type { GateOptions } from "../../src/core/gate";
import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { parseSettings, type ToolgateSettings } from "../../src/core/settingsModel";
import { IgnoreRules } from "../../src/core/ignoreFile";
import type { AskResponse, MessageDelta, TaskMessage } from "../../src/shared/messages";
import type { AskChannel, DiffReviewer } from "../../src/agent/env";
import { realGateFactory } from "../../src/agent/approvalGate";
import { ToolExecutor } from "../../src/agent/executor/toolExecutor";
import type { TaskConfig } from "../../src/agent/executor/taskConfig";
import { NodeFs } from "../../src/agent/node/nodeFs";
import { NodeCommandRunner } from "../../src/agent/node/nodeCommandRunner";
import { JsSearcher } from "../../src/agent/node/jsSearcher";
import { OpenAiCompatibleProvider } from "../../src/agent/providers/openai";
import { AnthropicProvider } from "../../src/agent/providers/anthropic";
import type { ModelProvider } from "../../src/agent/providers/types";
import { Task, type TaskDeps } from "../../src/agent/task/task";
import { applyDelta } from "../../src/agent/task/messageStore";
import type { ToolEnv } from "../../src/agent/tools/types";
import type { McpClientHub } from "../../src/agent/mcp/types";
import { mcpToolLister } from "../../src/agent/mcp/toolList";
import { startScriptedModel, type ScriptedModel, type ScriptedTurn } from "./scriptedModel";

export type Answer = (message: TaskMessage, signal: AbortSignal) => AskResponse | Promise<AskResponse>;

export interface HarnessOptions {
  readonly turns: readonly ScriptedTurn[];
  readonly settings?: Record<string, unknown>;
  readonly files?: Readonly<Record<string, string>>;
  readonly format?: "openai" | "anthropic";
  readonly model?: string;
  /** Answers each ask; default: never answers (the test answers through `h.answerNext`). */
  readonly answer?: Answer;
  readonly diff?: DiffReviewer;
  readonly mcp?: McpClientHub;
  readonly env?: Partial<ToolEnv>;
  readonly deps?: Partial<TaskDeps>;
  readonly task?: string;
  /** Workspace Trust (default trusted). */
  readonly trusted?: boolean;
  /** The directory the workspace is created in (default the OS temp dir). */
  readonly parent?: string;
  /** More gate options (a fake analyzer, the sandbox host list). */
  readonly gate?: () => Partial<
    Omit<GateOptions, "settings" | "roots" | "limits" | "trusted" | "headless" | "settingsErrors">
  >;
}

export interface AskRecord {
  readonly messageId: number;
  readonly message: TaskMessage;
  readonly signal: AbortSignal;
  resolve(r: AskResponse): void;
}

export class ScriptedAskChannel implements AskChannel {
  readonly asks: AskRecord[] = [];
  private waiters: ((a: AskRecord) => void)[] = [];
  getMessage: (id: number) => TaskMessage | undefined = () => undefined;

  constructor(private readonly answer?: Answer) {}

  ask(messageId: number, signal: AbortSignal): Promise<AskResponse> {
    return new Promise((resolve, reject) => {
      // A copy: the store mutates its messages, the record shows the message as it was when asked.
      const message = { ...this.getMessage(messageId)! };
      const record: AskRecord = { messageId, message, signal, resolve };
      this.asks.push(record);
      signal.addEventListener("abort", () => reject(new Error("withdrawn")), { once: true });
      for (const w of this.waiters.splice(0)) w(record);
      if (this.answer) {
        void Promise.resolve(this.answer(message, signal)).then(resolve, reject);
      }
    });
  }

  /** Resolves with the next ask made from now on (or the latest unanswered one if it is already waiting). */
  next(): Promise<AskRecord> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

export interface Harness {
  readonly dir: string;
  readonly model: ScriptedModel;
  readonly task: Task;
  readonly config: TaskConfig;
  readonly executor: ToolExecutor;
  readonly asks: ScriptedAskChannel;
  readonly deltas: MessageDelta[];
  readonly view: TaskMessage[];
  readonly settings: { current: ToolgateSettings };
  setSettings(flat: Record<string, unknown>): Promise<void>;
  read(rel: string): string;
  exists(rel: string): boolean;
  close(): Promise<void>;
}

export function settingsFrom(flat: Record<string, unknown>): ToolgateSettings {
  const r = parseSettings(flat, "test settings");
  if (!r.ok) throw new Error(r.errors.join("; "));
  return r.value;
}

export function makeProvider(format: "openai" | "anthropic", model: ScriptedModel, name?: string): ModelProvider {
  const retry = { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 50 };
  return format === "openai"
    ? new OpenAiCompatibleProvider({ baseUrl: model.openAiBaseUrl, model: name ?? "gpt-4o", apiKey: "sk-test", retry })
    : new AnthropicProvider({
        baseUrl: model.anthropicBaseUrl,
        model: name ?? "claude-sonnet-4-5",
        apiKey: "ak-test",
        retry,
      });
}

export async function startHarness(o: HarnessOptions): Promise<Harness> {
  const dir = realpathSync(mkdtempSync(nodePath.join(o.parent ?? tmpdir(), "toolgate-agent-")));
  for (const [rel, text] of Object.entries(o.files ?? {})) {
    const abs = nodePath.join(dir, rel);
    mkdirSync(nodePath.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
  const model = await startScriptedModel(o.turns);
  const settings = { current: settingsFrom(o.settings ?? {}) };
  const executor = new ToolExecutor({
    createGate: realGateFactory({
      settings: () => settings.current,
      ...(o.trusted === false ? { trusted: () => false } : {}),
      ...(o.mcp || o.gate
        ? { extra: () => ({ ...o.gate?.(), ...(o.mcp ? { mcpTools: mcpToolLister(o.mcp) } : {}) }) }
        : {}),
    }),
    roots: () => [dir],
  });
  const config = await executor.asToolConfig("t1");
  const asks = new ScriptedAskChannel(o.answer);
  const fs = new NodeFs();
  const env: ToolEnv = {
    fs,
    runner: new NodeCommandRunner(),
    searcher: new JsSearcher(fs),
    ignoreRules: (roots) => IgnoreRules.load(roots, settings.current.ignoreFile),
    ...(o.diff ? { diff: o.diff } : {}),
    ...(o.mcp ? { mcp: o.mcp } : {}),
    ...o.env,
  };
  const task = Task.create(
    {
      provider: makeProvider(o.format ?? "openai", model, o.model),
      config,
      env,
      ask: asks,
      store: { flushMs: 5 },
      onEnd: () => executor.release("t1"),
      ...o.deps,
    },
    o.task ?? "do the thing",
  );
  asks.getMessage = (id) => task.store.get(id);
  const deltas: MessageDelta[] = [];
  const view: TaskMessage[] = [...task.store.messages];
  task.store.onDelta((d) => {
    deltas.push(d);
    applyDelta(view, d);
  });
  return {
    dir,
    model,
    task,
    config,
    executor,
    asks,
    deltas,
    view,
    settings,
    async setSettings(flat) {
      settings.current = settingsFrom(flat);
      await executor.settingsChanged();
    },
    read: (rel) => readFileSync(nodePath.join(dir, rel), "utf8"),
    exists: (rel) => existsSync(nodePath.join(dir, rel)),
    async close() {
      task.cancel();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The text of tool results the model received in request `i` (OpenAI or Anthropic shape). */
export function toolResultsIn(model: ScriptedModel, i: number): string[] {
  const req = model.requests[i];
  if (!req) return [];
  const messages = req.body.messages as { role: string; content: unknown; tool_call_id?: string }[];
  if (req.format === "openai") return messages.filter((m) => m.role === "tool").map((m) => String(m.content));
  const out: string[] = [];
  for (const m of messages) {
    if (!Array.isArray(m.content)) continue;
    for (const c of m.content as { type: string; content?: string }[])
      if (c.type === "tool_result") out.push(String(c.content));
  }
  return out;
}
