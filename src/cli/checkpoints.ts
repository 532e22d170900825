/**
 * `toolgate checkpoints TASK` lists a task's checkpoints; `toolgate restore TASK STEP` restores the files to
 * before a step (a dry run that prints the plan unless `--yes`). The store is the CLI's
 * (`$XDG_STATE_HOME/toolgate/checkpoints` or `~/.toolgate/checkpoints`) unless `--store DIR` names another,
 * such as the editor's global storage folder.
 */
import { readFileSync } from "node:fs";
import * as nodePath from "node:path";
import type { Writable } from "node:stream";
import { GitCheckpointService } from "../agent/checkpoints/checkpointService";
import { defaultCliStorageDir, workspacesWithTask, type WorkspaceInfo } from "../agent/checkpoints/storeLayout";
import { CheckpointError, type RestorePlan, type SkipSummary, type StepInfo } from "../agent/checkpoints/types";
import { parseCheckpointSettings, type CheckpointSettings } from "../core/checkpointSettings";
import { IgnoreRules } from "../core/ignoreFile";
import { parseJsonc } from "../core/jsonc";

export const CHECKPOINTS_USAGE = `usage: toolgate checkpoints TASK [--workspace DIR]... [--store DIR]
       toolgate restore TASK STEP [--yes] [--force] [--diff] [--workspace DIR]... [--store DIR] [--settings FILE]
  STEP is a step number from \`toolgate checkpoints\` or a step id. Without --yes, restore only prints what it
  would do. Files you changed after the agent are kept unless --force.`;

class UsageError extends Error {}

interface Args {
  readonly command: "checkpoints" | "restore";
  readonly taskId: string;
  readonly step?: string;
  readonly yes: boolean;
  readonly force: boolean;
  readonly showDiff: boolean;
  readonly workspaces: readonly string[];
  readonly store?: string;
  readonly settingsFile?: string;
}

function parse(argv: readonly string[]): Args {
  const [command, ...rest] = argv;
  if (command !== "checkpoints" && command !== "restore") throw new UsageError(`unknown command \`${command}\``);
  const positional: string[] = [];
  const workspaces: string[] = [];
  let store: string | undefined;
  let settingsFile: string | undefined;
  let yes = false;
  let force = false;
  let showDiff = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const eq = a.indexOf("=");
    const [flag, inline] = a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === "") throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--workspace") workspaces.push(nodePath.resolve(value()));
    else if (flag === "--store") store = nodePath.resolve(value());
    else if (flag === "--settings" && command === "restore") settingsFile = value();
    else if (flag === "--yes" && command === "restore") yes = true;
    else if (flag === "--force" && command === "restore") force = true;
    else if (flag === "--diff" && command === "restore") showDiff = true;
    else if (a.startsWith("-")) throw new UsageError(`unknown option \`${a}\``);
    else positional.push(a);
  }
  const want = command === "restore" ? 2 : 1;
  if (positional.length !== want)
    throw new UsageError(command === "restore" ? "restore needs TASK and STEP" : "checkpoints needs TASK");
  return {
    command,
    taskId: positional[0]!,
    ...(positional[1] !== undefined ? { step: positional[1] } : {}),
    yes,
    force,
    showDiff,
    workspaces,
    ...(store ? { store } : {}),
    ...(settingsFile ? { settingsFile } : {}),
  };
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9._/:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The line the headless `run` prints so the person can undo the task's changes: restoring to its first
 * step (or to `seq`) brings the files back to before it. `storageDir` is added when it is not the default.
 */
export function formatRestoreHint(taskId: string, seq = 1, storageDir?: string): string {
  const store = storageDir && storageDir !== defaultCliStorageDir() ? ` --store ${shellWord(storageDir)}` : "";
  return `To undo the changes: toolgate restore ${shellWord(taskId)} ${seq}${store} --yes   (list the steps: toolgate checkpoints ${shellWord(taskId)}${store})`;
}

function skippedText(s: SkipSummary): string {
  const names: Record<string, string> = {
    ignoreFile: "ignored by the ignore file",
    gitignored: "excluded by .gitignore",
    heavyFolder: "dependency/cache folders",
    tooLarge: "too large",
    fileCap: "past the file cap",
    special: "not regular files",
    unreadable: "unreadable",
  };
  const parts = Object.entries(s.counts).map(([k, n]) => `${n} ${names[k] ?? k}`);
  return parts.length ? `not recorded: ${parts.join(", ")}` : "";
}

function stepLine(s: StepInfo): string {
  const when = new Date(s.at).toISOString().replace("T", " ").slice(0, 19);
  const files = s.changedFiles === undefined ? "?" : String(s.changedFiles);
  return `${String(s.seq).padStart(4)}  ${when}  ${files.padStart(5)}  ${s.label}`;
}

function planText(plan: RestorePlan): string {
  const verbs = { revert: "restore", recreate: "recreate", delete: "delete" } as const;
  const reasons = {
    editedByPerson: "kept: changed by you after the agent (--force to overwrite)",
    notCovered: "kept: not covered by the checkpoint",
    excludedNow: "kept: excluded from checkpoints now",
    blocked: "kept: a folder or link is in the way",
  } as const;
  const lines = plan.files.map(
    (f) => `  ${verbs[f.action].padEnd(8)} ${f.abs}${f.kept ? `   (${reasons[f.kept]})` : ""}`,
  );
  return lines.length ? lines.join("\n") + "\n" : "  nothing to restore: the files are as they were before this step\n";
}

function readSettings(file: string | undefined, err: Writable): { settings: CheckpointSettings; ignoreFile: string } {
  let flat: Record<string, unknown> = {};
  if (file) {
    const v = parseJsonc(readFileSync(file, "utf8"));
    if (typeof v !== "object" || v === null || Array.isArray(v)) throw new UsageError(`${file}: expected an object`);
    flat = v as Record<string, unknown>;
  }
  const r = parseCheckpointSettings(flat, file ?? "settings");
  for (const e of r.errors) err.write(`toolgate: ${e}\n`);
  const ignoreFile = typeof flat["toolgate.ignoreFile"] === "string" ? flat["toolgate.ignoreFile"] : ".toolgateignore";
  return { settings: r.value, ignoreFile };
}

/**
 * The checkpoint service of a headless run: the CLI's store (or `storageDir`), the roots and ignore file name
 * the run's gate uses, and trust as the run was given it.
 */
export function cliCheckpointService(o: {
  readonly roots: readonly string[];
  readonly settings: CheckpointSettings;
  readonly ignoreFile: string;
  readonly trusted: boolean;
  readonly storageDir?: string;
}): GitCheckpointService {
  return new GitCheckpointService({
    storageDir: o.storageDir ?? defaultCliStorageDir(),
    roots: o.roots,
    trusted: () => o.trusted,
    settings: () => o.settings,
    ignore: () => IgnoreRules.load(o.roots, o.ignoreFile),
  });
}

async function findWorkspace(store: string, args: Args): Promise<WorkspaceInfo> {
  const found = await workspacesWithTask(store, args.taskId);
  const same = (w: WorkspaceInfo) =>
    args.workspaces.length === 0 ||
    (w.roots.length === args.workspaces.length && w.roots.every((r) => args.workspaces.includes(r)));
  const matches = found.filter(same);
  if (matches.length === 0)
    throw new CheckpointError(
      `No checkpoints of task ${args.taskId} in ${store}${args.workspaces.length ? " for that workspace" : ""}.`,
    );
  if (matches.length > 1)
    throw new UsageError(
      `task ${args.taskId} has checkpoints in several workspaces; name one with --workspace:\n` +
        matches.map((m) => "  " + m.roots.join(" ")).join("\n"),
    );
  return matches[0]!;
}

/** Runs `toolgate checkpoints …` or `toolgate restore …`; returns the exit code. */
export async function checkpointsCli(argv: readonly string[], out: Writable, err: Writable): Promise<number> {
  try {
    const args = parse(argv);
    const store = args.store ?? defaultCliStorageDir();
    const ws = await findWorkspace(store, args);
    const { settings, ignoreFile } = readSettings(args.settingsFile, err);
    const service = cliCheckpointService({ roots: ws.roots, settings, ignoreFile, trusted: true, storageDir: store });
    if (args.command === "checkpoints") {
      const list = await service.list(args.taskId);
      if (!list) throw new CheckpointError(`No checkpoints of task ${args.taskId}.`);
      out.write(`Task ${args.taskId} — ${ws.roots.join(", ")}\nSTEP  WHEN                 FILES  WHAT\n`);
      for (const s of list.steps) {
        out.write(stepLine(s) + "\n");
        const skipped = skippedText(s.skipped);
        if (skipped && s.seq === 1) out.write(`        ${skipped}\n`);
      }
      out.write(`Restore the files to before a step: toolgate restore ${shellWord(args.taskId)} STEP\n`);
      return 0;
    }
    const options = args.force ? { force: true } : {};
    if (!args.yes) {
      const plan = await service.plan(args.taskId, args.step!, options);
      out.write(`Restoring to before step ${plan.step.seq} (${plan.step.label}) would:\n${planText(plan)}`);
      if (args.showDiff) out.write(plan.patch);
      out.write("Nothing was changed: add --yes to restore.\n");
      return 0;
    }
    const r = await service.restore(args.taskId, args.step!, options);
    out.write(`Restored to before step ${r.plan.step.seq} (${r.plan.step.label}):\n${planText(r.plan)}`);
    if (args.showDiff) out.write(r.plan.patch);
    for (const k of r.kept.filter((k) => !r.plan.files.some((f) => f.abs === k.abs && f.kept)))
      out.write(`  kept ${k.abs} (${k.reason})\n`);
    if (r.undo) out.write(`To undo this restore: toolgate restore ${shellWord(args.taskId)} ${r.undo.seq} --yes\n`);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      err.write(`toolgate: ${e.message}\n${CHECKPOINTS_USAGE}\n`);
      return 2;
    }
    err.write(`toolgate: ${(e as Error).message}\n`);
    return 1;
  }
}
