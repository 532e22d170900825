/**
 * Just enough of the `vscode` API to activate the extension in Node and drive its shell: it records
 * registrations, settings writes and messages so tests can check the wiring the unit tests cannot see.
 */
import { FakeConfigStore } from "./fakes";

type Listener<T> = (v: T) => void;

export class EventEmitter<T> {
  private readonly listeners = new Set<Listener<T>>();
  event = (l: Listener<T>) => {
    this.listeners.add(l);
    return { dispose: () => this.listeners.delete(l) };
  };
  fire(v: T): void {
    for (const l of this.listeners) l(v);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

interface FakeUri {
  readonly scheme: string;
  readonly path: string;
  readonly fsPath: string;
  toString(): string;
}

const uri = (path: string, scheme = "file"): FakeUri => ({
  scheme,
  path,
  fsPath: path,
  toString: () => `${scheme}://${path}`,
});

export interface FakeWebviewHandle {
  options: { enableScripts?: boolean; localResourceRoots?: FakeUri[] };
  html: string;
  readonly cspSource: string;
  readonly posted: unknown[];
  asWebviewUri(u: FakeUri): FakeUri;
  postMessage(m: unknown): Promise<boolean>;
  onDidReceiveMessage: (l: Listener<unknown>) => { dispose(): void };
  receive(m: unknown): void;
}

export function fakeWebview(): FakeWebviewHandle {
  const incoming = new EventEmitter<unknown>();
  const posted: unknown[] = [];
  return {
    options: {},
    html: "",
    cspSource: "https://webview.test",
    posted,
    asWebviewUri: (u) => uri(u.path, "https"),
    postMessage: (m) => {
      posted.push(m);
      return Promise.resolve(true);
    },
    onDidReceiveMessage: incoming.event,
    receive: (m) => incoming.fire(m),
  };
}

export function makeFakeVscode(opts: { failOutputChannel?: boolean } = {}) {
  const config = new FakeConfigStore();
  const commands = new Map<string, (...a: unknown[]) => unknown>();
  const executed: Array<[string, unknown[]]> = [];
  const errors: string[] = [];
  const logs: string[] = [];
  const viewProviders = new Map<string, { resolveWebviewView(v: unknown): void }>();
  const serializers = new Map<string, unknown>();
  const configChanged = new EventEmitter<{ affectsConfiguration(s: string): boolean }>();
  const statusItems: Array<{ text: string; tooltip: string; command: string; show(): void; dispose(): void }> = [];
  const dispose = { dispose() {} };

  const api = {
    EventEmitter,
    l10n: {
      t: (message: string, ...args: unknown[]) =>
        message.replace(/\{(\d+)\}/g, (m, i: string) => (args[Number(i)] === undefined ? m : String(args[Number(i)]))),
    },
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
    StatusBarAlignment: { Left: 1, Right: 2 },
    Disposable: class {
      constructor(private readonly fn: () => void) {}
      dispose(): void {
        this.fn();
      }
    },
    FileType: { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 },
    FileChangeType: { Changed: 1, Created: 2, Deleted: 3 },
    env: { appRoot: "/nonexistent-vscode-app-root" },
    ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
    ViewColumn: { Active: -1 },
    Uri: {
      joinPath: (base: FakeUri, ...parts: string[]) => uri([base.path, ...parts].join("/")),
      file: (p: string) => uri(p),
      from: (c: { scheme: string; path: string }) => uri(c.path, c.scheme),
    },
    window: {
      createOutputChannel: (name: string) => {
        if (opts.failOutputChannel) throw new Error(`cannot create ${name}`);
        return {
          info: (m: string) => logs.push(`info ${m}`),
          warn: (m: string) => logs.push(`warn ${m}`),
          error: (m: string) => logs.push(`error ${m}`),
          dispose() {},
        };
      },
      createStatusBarItem: () => {
        const item = { text: "", tooltip: "", command: "", name: "", show() {}, dispose() {} };
        statusItems.push(item);
        return item;
      },
      registerWebviewViewProvider: (id: string, p: { resolveWebviewView(v: unknown): void }) => {
        viewProviders.set(id, p);
        return dispose;
      },
      registerWebviewPanelSerializer: (id: string, s: unknown) => {
        serializers.set(id, s);
        return dispose;
      },
      showErrorMessage: (m: string) => {
        errors.push(m);
        return Promise.resolve(undefined);
      },
      showInformationMessage: () => Promise.resolve(undefined),
      showWarningMessage: () => Promise.resolve(undefined),
      showQuickPick: () => Promise.resolve(undefined),
      onDidChangeTerminalShellIntegration: () => dispose,
      onDidEndTerminalShellExecution: () => dispose,
      showInputBox: () => Promise.resolve(undefined),
      onDidCloseTerminal: () => dispose,
      createTerminal: () => ({ show() {}, dispose() {} }),
    },
    workspace: {
      isTrusted: true,
      workspaceFolders: undefined,
      // `getConfiguration()` names keys in full (`toolgate.mode`), `getConfiguration("toolgate")` relative to it.
      getConfiguration: (section?: string) => ({
        inspect: (key: string) =>
          section === undefined && !key.startsWith("toolgate.")
            ? undefined
            : config.inspect(key.replace(/^toolgate\./, "") as never),
        update: async (key: string, value: unknown) => {
          await config.updateGlobal(key as never, value);
          configChanged.fire({ affectsConfiguration: (s: string) => `toolgate.${key}`.startsWith(s) });
        },
      }),
      onDidChangeConfiguration: configChanged.event,
      onDidGrantWorkspaceTrust: () => dispose,
      onDidChangeWorkspaceFolders: () => dispose,
      registerFileSystemProvider: () => dispose,
      createFileSystemWatcher: () => ({
        onDidCreate: () => dispose,
        onDidChange: () => dispose,
        onDidDelete: () => dispose,
        dispose() {},
      }),
      registerTextDocumentContentProvider: () => dispose,
    },
    lm: {
      selectChatModels: () => Promise.resolve([]),
      onDidChangeChatModels: () => dispose,
    },
    commands: {
      registerCommand: (id: string, fn: (...a: unknown[]) => unknown) => {
        commands.set(id, fn);
        return dispose;
      },
      executeCommand: (id: string, ...args: unknown[]) => {
        executed.push([id, args]);
        return Promise.resolve(undefined);
      },
    },
  };
  return { api, config, commands, executed, errors, logs, viewProviders, serializers, statusItems };
}
