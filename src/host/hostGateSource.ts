import * as vscode from "vscode";
import type { GateSettingsSource } from "../agent/approvalGate";
import type { CommandAnalyzer } from "../core/commands/types";
import { IgnoreRules } from "../core/ignoreFile";
import { allowListOf } from "../core/sandbox/sandboxSettings";
import { checkpointsForGate, sandboxForGate } from "../agent/sandbox/gateFacts";
import { managedLayers } from "../core/settingsFiles";
import type { ToolgateSettings } from "../core/settingsModel";
import { settingsFromInspect, type HostSettings } from "../core/settingsLayers";
import type { ExtraRules } from "./taskSession";
import { HostFsFacts } from "./adapters/hostFsFacts";

/** Local workspace roots. Non-file folders (remote, virtual) are not roots, so their paths count as external. */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}

/** Rules saved "for this task" or "for this workspace" join the user's lists (deny lists only ever add). */
export function withExtraRules(s: ToolgateSettings, extra: ExtraRules | undefined): ToolgateSettings {
  if (!extra) return s;
  return {
    ...s,
    commands: {
      allow: [...s.commands.allow, ...extra.commandsAllow],
      deny: [...s.commands.deny, ...extra.commandsDeny],
    },
    permissions: {
      ...s.permissions,
      allow: [...s.permissions.allow, ...extra.permissionsAllow],
      deny: [...s.permissions.deny, ...extra.permissionsDeny],
    },
  };
}

/**
 * What every gate is built from, read from the editor: settings through `inspect()` (loosening keys from
 * user scope only), the managed policy file, Workspace Trust, and the ignore file of each root. Fires
 * `onDidChange` when any of them changes, so the executor can rebuild live gates and re-decide.
 */
export class HostGateSource implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  /** The gates' file-system facts, kept across decisions and tasks while the watchers report no change. */
  private readonly facts = new HostFsFacts();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly analyzer: CommandAnalyzer,
    private readonly extraRules: (taskId: string) => ExtraRules,
  ) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration("toolgate")) return;
        if (e.affectsConfiguration("toolgate.ignoreFile")) this.watchIgnoreFile();
        this.changed.fire();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.changed.fire()),
    );
    this.watchIgnoreFile();
  }

  /**
   * The current settings with their errors, as the gate and the panel see them: user and workspace values
   * through `inspect()`, the managed policy files as on every other surface (settingsFiles.ts), combined by
   * the one layering function (settingsLayers.ts).
   */
  readSettings(): HostSettings {
    const config = vscode.workspace.getConfiguration();
    const managed = managedLayers();
    const r = settingsFromInspect((key) => config.inspect(key), managed.layers);
    return managed.errors.length > 0 ? { ...r, errors: [...managed.errors, ...r.errors] } : r;
  }

  /** The source the agent's gate factory reads each time it builds a gate (a new task or a refresh). */
  source(): GateSettingsSource {
    // Each part reads afresh: reading is a handful of inspect() calls and one small file.
    const current = () => this.readSettings();
    return {
      settings: (taskId) => withExtraRules(current().settings, taskId ? this.extraRules(taskId) : undefined),
      trusted: () => vscode.workspace.isTrusted,
      settingsErrors: () => {
        const { errors, settings } = current();
        const ignore = this.loadIgnore(settings.ignoreFile);
        return "error" in ignore ? [...errors, ignore.error] : errors;
      },
      extra: () => {
        const now = current();
        const name = now.settings.ignoreFile;
        const ignore = this.loadIgnore(name);
        return {
          analyzer: this.analyzer,
          ignore: "rules" in ignore ? ignore.rules : IgnoreRules.empty(name),
          // A command's sandbox grant draws its hosts from this list (core/sandbox/commandGrant.ts).
          sandboxNetwork: allowListOf(now.values),
          // What "Run other commands in the sandbox" needs: a working sandbox (probed once per session), and
          // checkpoints on (whether git records one is found when it is taken: the agent asks then).
          sandbox: sandboxForGate(now.values),
          checkpoints: checkpointsForGate(now.values),
          facts: this.facts.forRoots(workspaceRoots()),
        };
      },
    };
  }

  /** An unreadable ignore file must not expose what it protects: it is a settings error (nothing auto-approved). */
  private loadIgnore(fileName: string): { rules: IgnoreRules } | { error: string } {
    try {
      return { rules: IgnoreRules.load(workspaceRoots(), fileName) };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }

  private watchIgnoreFile(): void {
    this.watcher?.dispose();
    const name = this.readSettings().settings.ignoreFile;
    this.watcher = vscode.workspace.createFileSystemWatcher(`**/${name}`);
    const reload = () => this.changed.fire();
    this.watcher.onDidCreate(reload);
    this.watcher.onDidChange(reload);
    this.watcher.onDidDelete(reload);
  }

  dispose(): void {
    this.facts.dispose();
    this.watcher?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
