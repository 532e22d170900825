/**
 * The OS sandbox as the command runner applies it, per command: read the sandbox settings (malformed → the
 * strictest reading), plan with `sandboxPlan`, wrap the spawn, and after the run turn the sandbox's report into
 * what the model reads. Invariant: a command that should run sandboxed and cannot is never run unsandboxed
 * here; it comes back as `notRun` and only a person's click (`unsandboxed`) runs it outside.
 */
import type { SandboxAvailability } from "../../core/sandbox/sandboxPlan";
import { sandboxPlan } from "../../core/sandbox/sandboxPlan";
import { FAIL_CLOSED_SANDBOX_SETTINGS, parseSandboxSettings } from "../../core/sandbox/sandboxSettings";
import type { SandboxSettings } from "../../core/sandbox/sandboxSettings";
import type { CommandRunOptions, CommandSandboxReport } from "../env";
import { availabilityOf, probeSandbox } from "../sandbox/sandboxProbe";
import { revertChange } from "../sandbox/protectedSnapshot";
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
    const prepared = prepareSandboxedSpawn(
      { roots, ignoreFileName: source.ignoreFileName(), network: settings.network },
      { file: spec.file, args: spec.args, env: spec.env, cwd: spec.cwd },
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
 * After a sandboxed run: bubblewrap's own start failure means the command did not run; a block becomes the
 * model's message; protected paths the command created or changed are removed (restored) unless the person
 * approved this command by a click, and listed either way. Always releases the per-command resources.
 */
export function finishSandboxed(
  prepared: PreparedSpawn,
  run: { readonly exitCode: number | undefined; readonly output: string; readonly spawnError?: string },
  o: CommandRunOptions,
  notice: string | undefined,
): CommandSandboxReport {
  try {
    const report = prepared.afterRun({ exitCode: run.exitCode, output: run.output });
    const n = notice !== undefined ? { notice } : {};
    const startFailure = run.spawnError ?? report.startFailure;
    const changes = report.protectedChanges.map((c) => {
      if (o.autoApproved !== true) return `${c.kind}: ${c.path} (${c.what}) — kept, the person approved this command`;
      let removed = false;
      try {
        removed = revertChange(c, report.before);
      } catch {
        removed = false;
      }
      return removed
        ? `${c.kind}: ${c.path} (${c.what}) — undone (${c.kind === "added" ? "removed" : "restored"})`
        : `${c.kind}: ${c.path} (${c.what}) — could NOT be undone`;
    });
    return {
      sandboxed: true,
      ...(startFailure !== undefined ? { notRun: `the OS sandbox did not start: ${startFailure}` } : {}),
      ...(report.blocked ? { blocked: report.blocked.message } : {}),
      ...(changes.length > 0 ? { protectedChanges: changes } : {}),
      ...n,
    };
  } finally {
    prepared.cleanup();
  }
}
