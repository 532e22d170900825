/**
 * Builds the host: settings bridge, rules, decision log, chat controller, webviews, status bar, commands.
 * Loaded by `extension.ts`. Returns the API through which runtime.ts connects the agent runtime.
 *
 * Start-up invariant: activation reads settings and registers things, nothing more. The agent runtime (the
 * grammar, the gate service, MCP servers, task history) starts once, when the first chat webview is set up
 * (sidebar view, editor tab, or a tab restored after a reload), or when `startRuntime()` is called.
 */
import * as nodePath from "node:path";
import * as vscode from "vscode";
import { refreshInstalledWrappers } from "../agent/hooks/wrapperFile";
import type { HostSettings } from "../core/settingsLayers";
import type { TaskMessage } from "../shared/messages";
import { AskNotifier } from "./askNotifier";
import { PresetOfferState } from "./presetOffer";
import type { CheckpointHost } from "./checkpointHost";
import { ChatController } from "./chatController";
import { ChatWebviews } from "./chatViewProvider";
import { openToolgateSettings, registerCommands } from "./commands";
import { CommandId, PANEL_TYPE, VIEW_ID, WALKTHROUGH_ID } from "./ids";
import { ApiKeyStore } from "./adapters/secrets";
import { describeModel } from "./modelSetup";
import { DecisionLog } from "./decisionLog";
import { openDefaultDiff, PROPOSED_SCHEME, ProposedContent } from "./diffView";
import { RuleStore } from "./rememberedRules";
import { SECTION, SettingKey, SettingsBridge } from "./settingsBridge";
import { StatusBar } from "./statusBar";
import { sandboxStatusNotice } from "./sandboxStatus";
import type { ExtraRules, McpStatusSource, TaskSessionFactory } from "./taskSession";
import { toggleShortcutLabel, VscodeConfigStore } from "./vscodeSettings";
import type { TaintState } from "../core/taint";

export interface ToolgateHostApi {
  /** Log one gate decision to the "Toolgate" output channel. */
  readonly decisions: DecisionLog;
  /** Settings as the gate reads them (user scope loosens, workspace only tightens), with their errors. */
  hostSettings(): HostSettings;
  /** Let the panel read settings through the gate service (so it also shows the managed policy). */
  useSettingsReader(read: (() => HostSettings) | undefined): void;
  isWorkspaceTrusted(): boolean;
  /** Task- and workspace-scoped "always" rules for a task. */
  extraRules(taskId: string): ExtraRules;
  setTaskFactory(factory: TaskSessionFactory | undefined): void;
  /** new_task: start a new task with this context once the running one ends; its id, or undefined without a runtime. */
  handOver(context: string, taint?: TaintState): string | undefined;
  setMcpSource(source: McpStatusSource | undefined): void;
  /** What "Restore files to before this step" and "Show all changes of this task" reach. */
  setCheckpoints(host: CheckpointHost | undefined): void;
  /** Replace the default "open diff" (the agent's editable diff); `fallback` opens the default one. */
  setDiffOpener(
    open: (message: TaskMessage, fallback: () => PromiseLike<void> | void) => PromiseLike<void> | void,
  ): void;
  /** Fires when any toolgate.* setting or the workspace trust changed. */
  readonly onDidChangeSettings: vscode.Event<void>;
  readonly secrets: vscode.SecretStorage;
  /** Starts the agent runtime unless it started already; settles when it is connected (or failed, reported). */
  startRuntime(): Promise<void>;
}

/** Connects the agent runtime (runtime.ts, its own bundle) to this host. */
export type RuntimeStarter = (api: ToolgateHostApi) => Promise<void>;

export function activateHost(context: vscode.ExtensionContext, connectRuntime?: RuntimeStarter): ToolgateHostApi {
  const sub = (...d: vscode.Disposable[]) => context.subscriptions.push(...d);

  const output = vscode.window.createOutputChannel("Toolgate", { log: true });
  const decisions = new DecisionLog(output);
  const settings = new SettingsBridge(new VscodeConfigStore(), () => vscode.workspace.isTrusted, toggleShortcutLabel());
  const rules = new RuleStore(context.workspaceState, settings);
  const proposed = new ProposedContent();
  const defaultDiff = (m: TaskMessage): PromiseLike<void> => openDefaultDiff(m, proposed);
  let diffOpener: (m: TaskMessage) => PromiseLike<void> | void = defaultDiff;

  const statusBar = new StatusBar(CommandId.showAutoApproveMenu, CommandId.showPendingAsk);
  statusBar.update(settings.view());
  // The probe starts bubblewrap once per session: after activation, not during it.
  const showSandbox = (): void => statusBar.setSandboxNotice(sandboxStatusNotice(settings.hostSettings().values));
  const probeTimer = setTimeout(showSandbox, 0);
  // Installed hook wrappers (toolgate hook install) name this extension's dist/cli.js: an update moves it, so
  // they are rewritten after activation, each only when its content differs.
  const wrapperTimer = setTimeout(() => {
    try {
      const written = refreshInstalledWrappers(nodePath.join(context.extensionPath, "dist", "cli.js"), process.env);
      if (written.length > 0) output.info(`Hook wrappers refreshed: ${written.join(", ")}`);
    } catch (e) {
      output.warn(`Could not refresh the hook wrappers: ${String(e)}`);
    }
  }, 0);
  // The notifier reaches the webviews, which need the controller, which reports to the notifier.
  const notifier = new AskNotifier(() => webviews, statusBar);
  const controller = new ChatController({
    settings,
    presets: new PresetOfferState(context.globalState, settings),
    rules,
    openDiff: (m) => diffOpener(m),
    decidedCall: (taskId, callId) => decisions.decidedCall(taskId, callId),
    openSettings: (query) => openToolgateSettings(query),
    addMcpServer: () => openToolgateSettings(`${SECTION}.${SettingKey.mcpServers}`),
    manageTrust: () => vscode.commands.executeCommand("workbench.trust.manage"),
    chatFocused: async (focused) => {
      await vscode.commands.executeCommand("setContext", "toolgate.chatFocused", focused);
    },
    log: (level, text) => output[level](text),
    attention: (a) => notifier.update(a),
    firstRun: async (action) => {
      if (action === "chooseProvider") await vscode.commands.executeCommand(CommandId.chooseProvider);
      else if (action === "setApiKey") await vscode.commands.executeCommand(CommandId.setApiKey);
      else if (action === "openSettings") await openToolgateSettings("@ext:toolgate.toolgate provider");
      else await vscode.commands.executeCommand("workbench.action.openWalkthrough", WALKTHROUGH_ID, false);
    },
  });
  // The panel's model line: re-read whenever provider settings, keys or the installed chat models change.
  const keys = new ApiKeyStore(context.secrets);
  let modelSeq = 0;
  const refreshModel = (): void => {
    const seq = ++modelSeq;
    void describeModel(keys).then(
      (m) => seq === modelSeq && controller.setModel(m),
      (e: unknown) => output.warn(`Could not describe the model: ${String(e)}`),
    );
  };
  refreshModel();
  let runtime: Promise<void> | undefined;
  const startRuntime = (): Promise<void> => {
    runtime ??= startOnce();
    return runtime;
  };
  const webviews = new ChatWebviews(context.extensionUri, controller, () => void startRuntime());
  const changed = new vscode.EventEmitter<void>();

  const onSettings = (): void => {
    controller.settingsChanged();
    refreshModel();
    statusBar.update(settings.view());
    showSandbox();
    changed.fire();
  };

  sub(
    { dispose: () => clearTimeout(probeTimer) },
    { dispose: () => clearTimeout(wrapperTimer) },
    output,
    statusBar,
    changed,
    webviews,
    { dispose: () => controller.dispose() },
    vscode.window.registerWebviewViewProvider(VIEW_ID, webviews),
    vscode.window.registerWebviewPanelSerializer(PANEL_TYPE, webviews),
    vscode.workspace.registerTextDocumentContentProvider(PROPOSED_SCHEME, proposed),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SECTION)) onSettings();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(onSettings),
    keys.onDidChange(refreshModel),
    vscode.lm.onDidChangeChatModels(refreshModel),
    ...registerCommands({ controller, webviews, settings, secrets: context.secrets }),
  );

  output.info(
    `Toolgate host ready (workspace ${vscode.workspace.isTrusted ? "trusted" : "in Restricted Mode: nothing is auto-approved"}).`,
  );

  // The panel works without the runtime (settings, MCP config); a runtime failure is reported, not fatal.
  async function startOnce(): Promise<void> {
    if (!connectRuntime) return;
    const t0 = Date.now();
    try {
      await connectRuntime(api);
      output.info(`Toolgate agent runtime connected in ${Date.now() - t0} ms.`);
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      output.error(`Toolgate could not start its agent runtime: ${detail}`);
      void vscode.window.showErrorMessage(vscode.l10n.t("Toolgate could not start its agent runtime: {0}", detail));
    }
  }

  const api: ToolgateHostApi = {
    decisions,
    hostSettings: () => settings.hostSettings(),
    useSettingsReader: (read) => {
      settings.useReader(read);
      onSettings();
    },
    isWorkspaceTrusted: () => vscode.workspace.isTrusted,
    extraRules: (taskId) => rules.extraRules(taskId),
    setTaskFactory: (f) => controller.setTaskFactory(f),
    handOver: (context, taint) => controller.handOver(context, taint),
    setMcpSource: (s) => controller.setMcpSource(s),
    setCheckpoints: (c) => controller.setCheckpoints(c),
    setDiffOpener: (fn) => {
      diffOpener = (m) => fn(m, () => defaultDiff(m));
    },
    onDidChangeSettings: changed.event,
    secrets: context.secrets,
    startRuntime,
  };
  return api;
}
