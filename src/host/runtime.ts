/**
 * Connects the agent runtime to the host: the gate service (settings, trust, ignore file, managed policy),
 * the ToolExecutor with the real gate factory, the editor adapters (file system, terminal, search, diff), the
 * MCP hub, the model provider and task history — and hands the panel a task factory and an MCP source.
 */
import * as vscode from "vscode";
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { ToolExecutor } from "../agent/executor/toolExecutor";
import { realGateFactory, type ApprovalGate, type CreateGate } from "../agent/approvalGate";
import { GitCheckpointService } from "../agent/checkpoints/checkpointService";
import { TaskHistory } from "../agent/history/taskHistory";
import { historyItems } from "../agent/history/historyItems";
import { deleteTask } from "../agent/history/taskDeletion";
import { McpHub } from "../agent/mcp/hub";
import { mcpToolLister } from "../agent/mcp/toolList";
import { AgentTaskSession, type AgentSessionDeps } from "../agent/session/agentTaskSession";
import type { TaskSnapshot } from "../agent/task/snapshot";
import type { ToolEnv } from "../agent/tools/types";
import { BashAnalyzer } from "../core/commands/analyzer";
import { grammarFilesIn } from "../core/commands/treeSitter";
import { parseCheckpointSettings } from "../core/checkpointSettings";
import { IgnoreRules } from "../core/ignoreFile";
import { publicDecision } from "../core/resolvedCall";
import type { McpServers } from "../core/settingsModel";
import type { ToolgateHostApi } from "./activate";
import { VscodeDiffReviewer } from "./adapters/diffReviewer";
import { vscodeSearcher } from "./adapters/ripgrep";
import { ApiKeyStore } from "./adapters/secrets";
import { VscodeTerminalRunner } from "./adapters/terminalRunner";
import { NodeCommandRunner } from "../agent/node/nodeCommandRunner";
import { disposeSandboxSessions } from "../agent/sandbox/sandboxedSpawn";
import { VscodeFs } from "./adapters/vscodeFs";
import { CheckpointActions } from "./checkpointActions";
import { CHECKPOINT_SCHEME, CheckpointDiffs } from "./diffView";
import { HostGateSource, workspaceRoots } from "./hostGateSource";
import { statusFromHub } from "./mcpPanel";
import { chooseProvider } from "./providerChoice";
import type { McpServerStatus, McpStatusSource, TaskSessionFactory } from "./taskSession";

/** Every decision a task's gate makes goes to the "Toolgate" log. */
function logged(create: CreateGate, log: ToolgateHostApi["decisions"]): CreateGate {
  return async (input) => {
    const gate = await create(input);
    const wrapped: ApprovalGate = {
      decide: (call, opts) => {
        const d = gate.decide(call, opts);
        if (!opts?.preview) log.logDecision(call, publicDecision(d), input.taskId, opts?.callId);
        return d;
      },
      recordCost: (usd) => gate.recordCost(usd),
      resetLimits: () => gate.resetLimits(),
      deniedTools: () => gate.deniedTools(),
      ran: (call) => gate.ran?.(call),
      ...(gate.limits ? { limits: gate.limits } : {}),
      ...(gate.ignore ? { ignore: gate.ignore } : {}),
    };
    return wrapped;
  };
}

class HubStatus implements McpStatusSource {
  private readonly emitter = new vscode.EventEmitter<void>();
  servers: readonly McpServerStatus[] = [];

  update(servers: readonly McpServerStatus[]): void {
    this.servers = servers;
    this.emitter.fire();
  }

  onDidChange(listener: () => void): vscode.Disposable {
    return this.emitter.event(listener);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export async function connectRuntime(context: vscode.ExtensionContext, api: ToolgateHostApi): Promise<void> {
  const sub = (...d: vscode.Disposable[]) => context.subscriptions.push(...d);
  const analyzer = new BashAnalyzer({
    grammarFiles: grammarFilesIn(vscode.Uri.joinPath(context.extensionUri, "dist").fsPath),
  });
  await analyzer.ready();

  const gates = new HostGateSource(analyzer, (taskId) => api.extraRules(taskId));
  sub(gates);
  api.useSettingsReader(() => gates.readSettings());

  const status = new HubStatus();
  sub(status);
  // In Restricted Mode no server starts on its own: a call to one asks (untrusted), and its approval starts it.
  const hub = new McpHub({
    cwd: workspaceRoots()[0],
    onChange: (servers) => status.update(statusFromHub(servers)),
    holdStart: () => !vscode.workspace.isTrusted,
  });
  sub({ dispose: () => void hub.dispose() });
  sub(vscode.workspace.onDidGrantWorkspaceTrust(() => void hub.startWaiting()));
  const source = gates.source();
  const mcpTools = mcpToolLister(hub);
  const executor = new ToolExecutor({
    createGate: logged(realGateFactory({ ...source, extra: () => ({ ...source.extra?.(), mcpTools }) }), api.decisions),
    roots: workspaceRoots,
  });
  sub(
    gates.onDidChange(
      () =>
        void executor
          .settingsChanged()
          .catch((e: unknown) =>
            api.decisions.logDecision(
              { tool: "settings", params: {} },
              { decision: "ask", reason: `could not rebuild the gate: ${String(e)}`, rule: "settings:rebuild" },
            ),
          ),
    ),
  );

  let mcpConfig = "";
  const syncMcp = (): void => {
    const servers: McpServers = gates.readSettings().settings.mcpServers;
    const key = JSON.stringify(servers);
    if (key === mcpConfig) return;
    mcpConfig = key;
    void hub.updateConfig(servers).then(() => status.update(statusFromHub(hub.servers())));
  };
  syncMcp();
  sub(gates.onDidChange(syncMcp));

  const fs = new VscodeFs();
  const diff = new VscodeDiffReviewer();
  sub(diff);
  // "Open diff" on an edit whose review is open shows that review (editable), not a second read-only view.
  api.setDiffOpener(async (m, fallback) => {
    const path = m.tool?.params.path;
    if (!(path && (await diff.reveal(path)))) await fallback();
  });
  // The runtime ends (window closes, extension stops): every sandbox session's proxies, mount targets and task
  // `/tmp` folders go with it.
  sub({ dispose: disposeSandboxSessions });
  const env: ToolEnv = {
    fs,
    // Every command the agent runs passes the OS sandbox's plan, with the settings as they are at that moment.
    runner: new VscodeTerminalRunner(
      new NodeCommandRunner(process.env, {
        values: () => gates.readSettings().values,
        ignoreFileName: () => gates.readSettings().settings.ignoreFile,
      }),
    ),
    searcher: vscodeSearcher(fs),
    diff,
    mcp: hub,
    ignoreRules: (roots) => IgnoreRules.load(roots, gates.readSettings().settings.ignoreFile),
    newTask: (context, taint) => {
      const id = api.handOver(context, taint);
      return id ? Promise.resolve(id) : Promise.reject(new Error("the agent runtime is not connected"));
    },
  };
  const keys = new ApiKeyStore(context.secrets);
  const history = new TaskHistory(join(context.globalStorageUri.fsPath, "tasks"));
  // Checkpoints: one service per set of roots (a task keeps the roots it started with), in global storage.
  // Trust is asked at every operation: in Restricted Mode nothing is recorded or restored.
  const checkpointServices = new Map<string, GitCheckpointService>();
  const taskCheckpoints = new Map<string, GitCheckpointService>();
  const checkpointStore = join(context.globalStorageUri.fsPath, "checkpoints");
  // Each service watches its roots' folders (so a step takes one checkpoint); the watchers go with the runtime.
  sub({ dispose: () => checkpointServices.forEach((s) => s.dispose()) });
  const checkpointsFor = (roots: readonly string[]): GitCheckpointService => {
    const key = JSON.stringify(roots);
    let service = checkpointServices.get(key);
    if (!service) {
      service = new GitCheckpointService({
        storageDir: checkpointStore,
        roots,
        trusted: () => vscode.workspace.isTrusted,
        settings: () => parseCheckpointSettings(gates.readSettings().values).value,
        ignore: () => IgnoreRules.load(roots, gates.readSettings().settings.ignoreFile),
      });
      checkpointServices.set(key, service);
    }
    return service;
  };
  const diffs = new CheckpointDiffs();
  sub(vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, diffs));
  api.setCheckpoints(
    new CheckpointActions((taskId) => {
      const roots = workspaceRoots();
      return taskCheckpoints.get(taskId) ?? (roots.length > 0 ? checkpointsFor(roots) : undefined);
    }, diffs),
  );
  sub({ dispose: () => api.setCheckpoints(undefined) });

  const deps: AgentSessionDeps = {
    executor,
    provider: () => chooseProvider(keys),
    env,
    history,
    checkpoints: (taskId, roots) => {
      if (roots.length === 0) return undefined;
      const service = checkpointsFor(roots);
      taskCheckpoints.set(taskId, service);
      return service;
    },
  };

  // The last unfinished task comes back after a window reload, its pending ask still pending.
  const unfinished = (await history.list())
    .filter((t) => !t.parentId && (t.state === "running" || t.state === "waiting"))
    .sort((a, b) => b.updatedAt - a.updatedAt)[0];
  let restorable: TaskSnapshot | undefined = unfinished ? await history.load(unfinished.id) : undefined;

  const factory: TaskSessionFactory = {
    create: (o) => new AgentTaskSession(o.id ?? randomUUID(), deps, undefined, o.taint),
    restore: () => {
      if (!restorable) return undefined;
      const session = new AgentTaskSession(restorable.id, deps, restorable);
      restorable = undefined;
      session.resume();
      return session;
    },
    history: async () => historyItems(await history.list()),
    open: async (id) => {
      const snap = await history.load(id);
      if (!snap) return undefined;
      if (restorable?.id === id) restorable = undefined;
      const session = new AgentTaskSession(id, deps, snap);
      // A task left waiting on the person (or cut off mid-turn) picks up where it stopped, as after a reload.
      if (snap.state === "running" || snap.state === "waiting") session.resume();
      return session;
    },
    delete: async (id) => {
      if (restorable?.id === id) restorable = undefined;
      taskCheckpoints.delete(id);
      await deleteTask({ history, checkpointStore, checkpointsFor }, id);
    },
  };
  api.setMcpSource(status);
  api.setTaskFactory(factory);
}
