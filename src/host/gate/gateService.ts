import * as vscode from "vscode";
import { readFileSync } from "node:fs";
import type { CommandAnalyzer } from "../../core/commands/types";
import { IgnoreRules } from "../../core/ignoreFile";
import { parseJsonc } from "../../core/jsonc";
import { settingsFromInspect, type HostSettings } from "../../core/settingsLayers";
import { TaskGate, type GateInputs } from "../../core/taskGate";

/** Where an administrator's policy lives; its keys override the user's (see settingsLayers.ts). */
const MANAGED_SETTINGS_FILE = process.env.TOOLGATE_MANAGED_SETTINGS ?? (process.platform === "win32" ? "C:\\ProgramData\\Toolgate\\managed-settings.json" : "/etc/toolgate/managed-settings.json");

function readManaged(): { flat: Record<string, unknown> } | { error: string } | undefined {
  let text: string;
  try {
    text = readFileSync(MANAGED_SETTINGS_FILE, "utf8");
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT" ? undefined : { error: `cannot read ${MANAGED_SETTINGS_FILE}: ${(e as Error).message}` };
  }
  try {
    const v = parseJsonc(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return { flat: v as Record<string, unknown> };
    return { error: `${MANAGED_SETTINGS_FILE} must hold a JSON object` };
  } catch (e) {
    return { error: `${MANAGED_SETTINGS_FILE} is not valid JSON: ${(e as Error).message}` };
  }
}

/** Local workspace roots. Non-file folders (remote, virtual) are not roots, so their paths count as external. */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}

/**
 * Builds task gates from the editor: settings through `inspect()` (loosening keys from user scope only),
 * Workspace Trust, the ignore file of each root, and the managed policy file. Any change to those refreshes
 * every live task gate, so a block still streaming is re-decided against the new state.
 */
export class GateService implements vscode.Disposable {
  private readonly live = new Set<TaskGate>();
  private readonly disposables: vscode.Disposable[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  private readonly changed = new vscode.EventEmitter<HostSettings>();
  readonly onDidChangeSettings = this.changed.event;

  constructor(private readonly analyzer: CommandAnalyzer) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration("toolgate")) return;
        if (e.affectsConfiguration("toolgate.ignoreFile")) this.watchIgnoreFile();
        this.refreshAll();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.refreshAll()),
    );
    this.watchIgnoreFile();
  }

  /** The current settings with their errors, as the panel shows them. */
  readSettings(): HostSettings {
    const config = vscode.workspace.getConfiguration();
    const managed = readManaged();
    const r = settingsFromInspect((key) => config.inspect(key), managed && "flat" in managed ? managed : undefined);
    return managed && "error" in managed ? { ...r, errors: [...r.errors, managed.error] } : r;
  }

  inputs(): GateInputs {
    const { settings, errors } = this.readSettings();
    const roots = workspaceRoots();
    let ignore: IgnoreRules;
    const extraErrors: string[] = [];
    try {
      ignore = IgnoreRules.load(roots, settings.ignoreFile);
    } catch (e) {
      // An unreadable ignore file must not expose what it protects: nothing is auto-approved until it reads.
      extraErrors.push((e as Error).message);
      ignore = IgnoreRules.empty(settings.ignoreFile);
    }
    return { settings, ignore, trusted: vscode.workspace.isTrusted, analyzer: this.analyzer, settingsErrors: [...errors, ...extraErrors] };
  }

  /** A gate for a new task tree; roots are read now and kept for the task's life. */
  async startTask(): Promise<TaskGate> {
    const gate = await TaskGate.start(workspaceRoots(), this.inputs());
    this.live.add(gate);
    return gate;
  }

  endTask(gate: TaskGate): void {
    this.live.delete(gate);
  }

  private refreshAll(): void {
    const inputs = this.inputs();
    this.changed.fire(this.readSettings());
    for (const g of this.live) void g.refresh(inputs);
  }

  private watchIgnoreFile(): void {
    this.watcher?.dispose();
    const name = this.readSettings().settings.ignoreFile;
    this.watcher = vscode.workspace.createFileSystemWatcher(`**/${name}`);
    const reload = () => this.refreshAll();
    this.watcher.onDidCreate(reload);
    this.watcher.onDidChange(reload);
    this.watcher.onDidDelete(reload);
  }

  dispose(): void {
    this.watcher?.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
