/**
 * The OS sandbox as the command runner applies it, per command: read the sandbox settings (malformed → the
 * strictest reading), plan with `sandboxPlan`, wrap the spawn, and after the run turn the sandbox's report into
 * what the model reads. Invariant: a command that should run sandboxed and cannot is never run unsandboxed
 * here; it comes back as `notRun` and only a person's click (`unsandboxed`) runs it outside.
 */
import type { SandboxAvailability } from "../../core/sandbox/sandboxPlan";
import { sandboxPlan } from "../../core/sandbox/sandboxPlan";
import { WORKSPACE_WRITE_GRANT, type SandboxGrant } from "../../core/sandbox/grant";
import { suggestedHosts } from "../../core/sandbox/namedHosts";
import { FAIL_CLOSED_SANDBOX_SETTINGS, parseSandboxSettings } from "../../core/sandbox/sandboxSettings";
import type { SandboxNetwork, SandboxSettings } from "../../core/sandbox/sandboxSettings";
import type { SandboxOutlook } from "../../shared/messages";
import type { CommandRunOptions, CommandSandboxReport, FoundProtectedChange } from "../env";
import { availabilityOf, probeSandbox } from "../sandbox/sandboxProbe";
import { readSmallText, textPreview } from "../sandbox/smallText";
import {
  describeProtected,
  notableInside,
  type ProtectedChange,
  type ProtectedSnapshot,
} from "../sandbox/protectedSnapshot";
import { lineDiff } from "../../core/lineDiff";
import { undoData } from "../sandbox/protectedUndo";
import { prepareSandboxedSpawn, SandboxUnavailableError, type PreparedSpawn } from "../sandbox/sandboxedSpawn";

/** Where the runner reads the sandbox configuration, each command (settings can change mid-task). */
export interface CommandSandboxSource {
  /** The effective flat settings the gate reads (`toolgate.sandbox.*` are looked at). */
  values(): Readonly<Record<string, unknown>>;
  ignoreFileName(): string;
  /** What the probe found; default: the process's own probe (once per process). */
  availability?(): SandboxAvailability;
}

interface Spec {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

export type SandboxStep =
  | { readonly kind: "plain"; readonly spec: Spec; readonly notice?: string }
  | { readonly kind: "sandboxed"; readonly spec: Spec; readonly prepared: PreparedSpawn; readonly notice?: string }
  | { readonly kind: "notRun"; readonly reason: string; readonly notice?: string };

function readSettings(source: CommandSandboxSource): { settings: SandboxSettings; notice?: string } {
  const parsed = parseSandboxSettings(source.values());
  if (parsed.ok) return { settings: parsed.value };
  return {
    settings: FAIL_CLOSED_SANDBOX_SETTINGS,
    notice: `${parsed.error}: until it is fixed the sandbox is required and has no network.`,
  };
}

/** Decides how one command starts: unsandboxed, inside the sandbox (the wrapped spec), or not at all. */
export function planCommandSpawn(source: CommandSandboxSource, o: CommandRunOptions, spec: Spec): SandboxStep {
  const { settings, notice } = readSettings(source);
  const n = notice !== undefined ? { notice } : {};
  if (o.unsandboxed === true) return { kind: "plain", spec, ...n };
  const availability = source.availability?.() ?? availabilityOf(probeSandbox());
  const plan = sandboxPlan(settings.mode, availability, o.autoApproved === true);
  if (plan === "unsandboxed") return { kind: "plain", spec, ...n };
  if (plan === "ask")
    return {
      kind: "notRun",
      reason: `there is no OS sandbox here (${availability.reason}) and \`toolgate.sandbox.mode\` is "required"`,
      ...n,
    };
  const roots = o.roots ?? [];
  if (roots.length === 0) return { kind: "notRun", reason: "the sandbox needs the workspace roots", ...n };
  try {
    const grant = o.grant ?? WORKSPACE_WRITE_GRANT;
    const hint = networkHint(o.command, grant, settings.network);
    const prepared = prepareSandboxedSpawn(
      { roots, ignoreFileName: source.ignoreFileName(), network: settings.network },
      { file: spec.file, args: spec.args, env: spec.env, cwd: spec.cwd },
      {
        grant,
        ...(o.taskKey !== undefined ? { taskKey: o.taskKey } : {}),
        ...(hint !== undefined ? { networkHint: hint } : {}),
      },
    );
    const joined = [notice, prepared.notice].filter((t) => t !== undefined).join(" ");
    return {
      kind: "sandboxed",
      spec: { file: prepared.file, args: prepared.args, env: prepared.env, cwd: prepared.cwd },
      prepared,
      ...(joined ? { notice: joined } : {}),
    };
  } catch (e) {
    // Anything that stops the sandbox from being set up stops the command: never a silent unsandboxed run.
    const msg = e instanceof SandboxUnavailableError ? e.message : `the sandbox could not be set up: ${String(e)}`;
    return { kind: "notRun", reason: msg, ...n };
  }
}

/**
 * What the model and the person are told when a command failed for want of network: the hosts to list. The
 * grant's hosts are the line's hosts in the list, so a host named here is one the list lacks.
 */
function networkHint(line: string, grant: SandboxGrant, network: SandboxNetwork): string | undefined {
  const listed = network.kind === "hosts" ? network.hosts : [];
  const missing = suggestedHosts(line).filter((h) => !grant.hosts.includes(h) && !listed.includes(h));
  if (missing.length === 0) return undefined;
  return `no network: list ${missing.slice(0, 4).join(", ")} in \`toolgate.sandbox.network\` (user settings) to let it reach ${missing.length === 1 ? "it" : "them"}`;
}

const KIND_WORD = { added: "appeared", changed: "changed", removed: "vanished" } as const;

/**
 * The protected changes as the person's ask lists them, each with its undo data. Below an appeared directory
 * the files the command left there (a planted hook, a git config) are listed too, with their first lines.
 */
function foundChanges(
  changes: readonly ProtectedChange[],
  before: ProtectedSnapshot,
  after: ProtectedSnapshot,
): FoundProtectedChange[] {
  if (changes.length === 0) return [];
  const out: FoundProtectedChange[] = [];
  for (const c of changes) {
    const diff = c.kind === "changed" ? changeDiff(c.path, before) : undefined;
    const preview = c.kind === "removed" || diff !== undefined ? undefined : textPreview(c.path);
    out.push({
      view: {
        path: c.path,
        kind: KIND_WORD[c.kind],
        what: c.what,
        ...(c.runsCode ? { runsCode: true } : {}),
        ...(preview !== undefined ? { preview } : {}),
        ...(diff !== undefined ? { diff } : {}),
      },
      undo: undoData(c, before),
    });
    if (c.kind !== "added") continue;
    for (const inner of notableInside(c.path, after)) {
      const p = textPreview(inner);
      out.push({
        view: {
          path: inner,
          kind: "appeared",
          what: describeProtected(inner),
          within: c.path,
          ...(p !== undefined ? { preview: p } : {}),
        },
      });
    }
  }
  return out;
}

/** A changed small text file's diff against its content before the command (kept by the snapshot). */
function changeDiff(path: string, before: ProtectedSnapshot): string | undefined {
  const was = before.entries.get(path)?.content;
  if (was === undefined || was.includes(0)) return undefined;
  const now = readSmallText(path);
  if (now === undefined) return undefined;
  const diff = lineDiff(was.toString("utf8"), now);
  return diff === "" ? undefined : diff;
}
/**
 * After a sandboxed run: bubblewrap's own start failure means the command did not run; a block becomes the
 * model's message; protected paths the command created or changed are reported as they are, for the caller
 * to ask the person (keep or remove) before the agent goes on. Always releases the per-command resources.
 */
export function finishSandboxed(
  prepared: PreparedSpawn,
  run: { readonly exitCode: number | undefined; readonly output: string; readonly spawnError?: string },
  notice: string | undefined,
): CommandSandboxReport {
  try {
    const report = prepared.afterRun({ exitCode: run.exitCode, output: run.output });
    const n = notice !== undefined ? { notice } : {};
    const startFailure = run.spawnError ?? report.startFailure;
    const changes = foundChanges(report.protectedChanges, report.before, report.after);
    return {
      sandboxed: true,
      grant: prepared.grant,
      ...(prepared.taskTmp !== undefined ? { privateTmp: true } : {}),
      ...(startFailure !== undefined ? { notRun: `the OS sandbox did not start: ${startFailure}` } : {}),
      ...(report.blocked ? { blocked: report.blocked.message, blockedCause: report.blocked.cause } : {}),
      ...(changes.length > 0 ? { protectedChanges: changes } : {}),
      ...n,
    };
  } finally {
    prepared.cleanup();
  }
}

/** How a command would run now, for the approval card (the same plan `planCommandSpawn` applies). */
export function sandboxOutlook(
  source: CommandSandboxSource,
  autoApproved: boolean,
  grant: SandboxGrant = WORKSPACE_WRITE_GRANT,
): SandboxOutlook {
  const { settings } = readSettings(source);
  if (process.platform === "win32") return { sandboxed: false, reason: "there is no OS sandbox on Windows yet" };
  const availability = source.availability?.() ?? availabilityOf(probeSandbox());
  const plan = sandboxPlan(settings.mode, availability, autoApproved);
  if (plan === "sandbox") {
    // The same narrowing the session applies: the grant's hosts still in the list.
    const listed = settings.network.kind === "hosts" ? settings.network.hosts : [];
    const hosts = grant.hosts.filter((h) => listed.includes(h));
    const reads = grant.readPaths ?? [];
    return {
      sandboxed: true,
      network: hosts.length > 0 ? "hosts" : "off",
      grant: grant.kind,
      hosts,
      ...(reads.length > 0 ? { readPaths: reads } : {}),
    };
  }
  if (settings.mode === "off") return { sandboxed: false, reason: "toolgate.sandbox.mode is off" };
  return { sandboxed: false, reason: `no OS sandbox here: ${availability.reason}` };
}
