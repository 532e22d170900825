/**
 * What the gate's sandboxed tier (core/sandboxTier.ts) must know about this machine and these settings, built
 * the same way for every surface that runs commands (the VS Code host, `toolgate run`, `toolgate check`).
 */
import { parseCheckpointSettings } from "../../core/checkpointSettings";
import { FAIL_CLOSED_SANDBOX_SETTINGS, parseSandboxSettings } from "../../core/sandbox/sandboxSettings";
import type { Availability, SandboxAvailability } from "../../core/sandboxTier";
import { probeSandbox, type SandboxProbe } from "./sandboxProbe";

/**
 * Whether commands run in a working OS sandbox: the probe says it starts and `toolgate.sandbox.mode` is not
 * `off` (malformed sandbox settings read as `required`, which still needs a working sandbox).
 */
export function sandboxForGate(
  values: Readonly<Record<string, unknown>>,
  probe: () => SandboxProbe = () => probeSandbox(),
): SandboxAvailability {
  const parsed = parseSandboxSettings(values);
  const mode = parsed.ok ? parsed.value.mode : FAIL_CLOSED_SANDBOX_SETTINGS.mode;
  if (mode === "off") return { available: false, reason: "toolgate.sandbox.mode is off" };
  const p = probe();
  if (!p.available) return { available: false, reason: p.reason };
  // Bubblewrap binds the task's own directory at `/tmp` (Seatbelt denies the literal `/tmp` instead).
  return p.mechanism === "bubblewrap" ? { available: true, privateTmp: true } : { available: true };
}

/**
 * Whether a checkpoint is taken before calls that may change files, as far as the settings tell. Whether git can record one is found only when it is taken: the agent asks then.
 */
export function checkpointsForGate(values: Readonly<Record<string, unknown>>): Availability {
  // A malformed `enabled` already parses as off (checkpointSettings.ts fails closed).
  return parseCheckpointSettings(values).value.enabled
    ? { available: true }
    : { available: false, reason: "toolgate.checkpoints.enabled is off" };
}

/** `--assume-sandbox available|unavailable` (tests and CI): the probe's answer, given. */
export function assumedSandbox(text: string): SandboxAvailability | undefined {
  // On Linux the sandbox is bubblewrap's, with a private `/tmp`.
  if (text === "available")
    return process.platform === "linux" ? { available: true, privateTmp: true } : { available: true };
  if (text === "unavailable") return { available: false, reason: "--assume-sandbox unavailable" };
  return undefined;
}
