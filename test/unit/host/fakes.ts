/**
 * Fakes of the host's interfaces for Node tests: a scripted task session, an in-memory VS Code settings store
 * seeded with package.json's real defaults, a memento, a manual timer and a fake webview.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AskResponse, MessageDelta, TaskMessage, ToolInfo } from "../../../src/shared/messages";
import type { HostToWebview, TaskState } from "../../../src/shared/protocol";
import type { Timer } from "../../../src/host/deltaBatcher";
import type { ConfigInspection, ConfigStore, SettingKey } from "../../../src/host/settingsBridge";
import type {
  Disposable,
  Listener,
  TaskSession,
  TaskSessionFactory,
  TaskSessionOptions,
} from "../../../src/host/taskSession";
import type { StateStore } from "../../../src/host/rememberedRules";

function listeners<T>() {
  const set = new Set<Listener<T>>();
  return {
    add(l: Listener<T>): Disposable {
      set.add(l);
      return { dispose: () => set.delete(l) };
    },
    emit(v: T) {
      for (const l of set) l(v);
    },
    get size() {
      return set.size;
    },
  };
}

let sessionCounter = 0;

export class FakeTaskSession implements TaskSession {
  readonly id = `task-${++sessionCounter}`;
  state: TaskState = "running";
  private messages: TaskMessage[] = [];
  private nextId = 1;
  private readonly deltas = listeners<MessageDelta>();
  private readonly states = listeners<TaskState>();
  readonly answers: Array<{ messageId: number; response: AskResponse }> = [];
  cancelled = 0;
  startedWith: string | undefined;

  /** Like the agent's MessageStore: appends change the list at once but are emitted later (flush/snapshot). */
  bufferAppends = false;
  private buffered: { id: number; text: string } | undefined;
  readonly sent: string[] = [];

  constructor(readonly options?: TaskSessionOptions) {}

  start(text: string): void {
    this.startedWith = text;
    this.add({ role: "say", kind: "user", text });
  }

  sendMessage(text: string): void {
    this.sent.push(text);
    this.add({ role: "say", kind: "user", text });
    this.setState("running");
  }

  /** Emits buffered appends (the runtime's own coalescing). */
  flushBuffer(): void {
    const b = this.buffered;
    this.buffered = undefined;
    if (b) this.deltas.emit({ type: "append", id: b.id, text: b.text });
  }

  onDelta(l: Listener<MessageDelta>): Disposable {
    return this.deltas.add(l);
  }

  onStateChange(l: Listener<TaskState>): Disposable {
    return this.states.add(l);
  }

  private sources: readonly string[] = [];
  private readonly taintListeners = listeners<readonly string[]>();

  untrustedSources(): readonly string[] {
    return this.sources;
  }

  onTaintChange(l: Listener<readonly string[]>): Disposable {
    return this.taintListeners.add(l);
  }

  /** The task read (or the person trusted) something: its counting sources are now `sources`. */
  setTaint(sources: readonly string[]): void {
    this.sources = sources;
    this.taintListeners.emit(sources);
  }

  get listenerCount(): number {
    return this.deltas.size;
  }

  /** Order of gate rebuilds ("rules") and answers ("answer"), as the task would see them. */
  readonly events: string[] = [];

  rulesChanged(): Promise<void> {
    this.events.push("rules");
    return Promise.resolve();
  }

  answerAsk(messageId: number, response: AskResponse): boolean {
    const m = this.messages.find((x) => x.id === messageId);
    if (!m || m.role !== "ask" || m.askState !== "pending") return false;
    this.events.push("answer");
    this.answers.push({ messageId, response });
    this.emit({ type: "patch", id: messageId, patch: { askState: "answered" } });
    this.setState("running");
    return true;
  }

  cancel(): void {
    this.cancelled++;
    this.setState("cancelled");
  }

  snapshot(): readonly TaskMessage[] {
    this.flushBuffer();
    return this.messages.slice();
  }

  // ----- scripting --------------------------------------------------------------------------------------

  add(m: Omit<TaskMessage, "id" | "ts" | "partial"> & { partial?: boolean }): number {
    const message: TaskMessage = { partial: false, ...m, id: this.nextId++, ts: 1_700_000_000_000 };
    this.emit({ type: "add", message });
    return message.id;
  }

  ask(tool: ToolInfo, text = ""): number {
    const id = this.add({ role: "ask", kind: "tool", text, tool, askState: "pending" });
    this.setState("waiting");
    return id;
  }

  append(id: number, text: string): void {
    if (!this.bufferAppends) return this.emit({ type: "append", id, text });
    const i = this.messages.findIndex((m) => m.id === id);
    this.messages[i] = { ...this.messages[i]!, text: this.messages[i]!.text + text };
    if (this.buffered && this.buffered.id !== id) this.flushBuffer();
    this.buffered = { id, text: (this.buffered?.text ?? "") + text };
  }

  setState(s: TaskState): void {
    this.state = s;
    this.states.emit(s);
  }

  private emit(d: MessageDelta): void {
    this.flushBuffer();
    if (d.type === "add") this.messages.push(d.message);
    else {
      const i = this.messages.findIndex((m) => m.id === d.id);
      const old = this.messages[i]!;
      this.messages[i] = d.type === "append" ? { ...old, text: old.text + d.text } : { ...old, ...d.patch };
    }
    this.deltas.emit(d);
  }
}

export class FakeFactory implements TaskSessionFactory {
  readonly created: FakeTaskSession[] = [];
  restorable: FakeTaskSession | undefined;

  create(options: TaskSessionOptions): FakeTaskSession {
    const s = new FakeTaskSession(options);
    this.created.push(s);
    return s;
  }

  restore(): FakeTaskSession | undefined {
    return this.restorable;
  }
}

interface PackageJson {
  contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
}

// Bundled copies of this file (benchmarks) run from a temp folder: they find the manifest from the repo root.
const manifestPath = [join(__dirname, "../../../package.json"), join(process.cwd(), "package.json")].find((p) =>
  existsSync(p),
)!;
export const packageJson = JSON.parse(readFileSync(manifestPath, "utf8")) as PackageJson & Record<string, unknown>;

/** VS Code settings in memory, with package.json's defaults; `updateGlobal` writes user scope like the host. */
export class FakeConfigStore implements ConfigStore {
  readonly global = new Map<string, unknown>();
  readonly workspace = new Map<string, unknown>();
  readonly folder = new Map<string, unknown>();
  writes: Array<[string, unknown]> = [];
  failNextWrite: string | undefined;

  inspect(key: SettingKey): ConfigInspection | undefined {
    const def = packageJson.contributes.configuration.properties[`toolgate.${key}`];
    if (!def) return undefined;
    return {
      defaultValue: def.default,
      globalValue: this.global.get(key),
      workspaceValue: this.workspace.get(key),
      workspaceFolderValue: this.folder.get(key),
    };
  }

  async updateGlobal(key: SettingKey, value: unknown): Promise<void> {
    if (this.failNextWrite) {
      const e = this.failNextWrite;
      this.failNextWrite = undefined;
      throw new Error(e);
    }
    this.writes.push([key, value]);
    this.global.set(key, structuredClone(value));
  }
}

export class FakeMemento implements StateStore {
  readonly data = new Map<string, unknown>();
  get(key: string): unknown {
    return this.data.get(key);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, structuredClone(value));
  }
}

/** A timer that runs only when told to. */
export class ManualTimer implements Timer {
  private next = 1;
  private readonly tasks = new Map<number, () => void>();
  set(fn: () => void): unknown {
    const id = this.next++;
    this.tasks.set(id, fn);
    return id;
  }
  clear(h: unknown): void {
    this.tasks.delete(h as number);
  }
  get pending(): number {
    return this.tasks.size;
  }
  runAll(): void {
    for (const [id, fn] of [...this.tasks]) {
      this.tasks.delete(id);
      fn();
    }
  }
}

/** A webview as the host sees it: records what was posted; `alive` false makes posts fail (reloading). */
export class FakeWebview {
  readonly posted: HostToWebview[] = [];
  alive = true;
  post = (m: HostToWebview): Promise<boolean> => {
    if (this.alive) this.posted.push(structuredClone(m));
    return Promise.resolve(this.alive);
  };
  ofType<T extends HostToWebview["type"]>(type: T): Array<Extract<HostToWebview, { type: T }>> {
    return this.posted.filter((m): m is Extract<HostToWebview, { type: T }> => m.type === type);
  }
  clear(): void {
    this.posted.length = 0;
  }
}

export const tick = () => new Promise<void>((r) => setTimeout(r, 0));
