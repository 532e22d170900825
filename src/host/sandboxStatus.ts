/**
 * The status bar's one line about the OS sandbox: present only when the sandbox is wanted (mode `auto` or
 * `required`, or malformed settings, read as `required`) and this machine cannot start one.
 */
import { unavailableNotice } from "../core/sandbox/sandboxPlan";
import { FAIL_CLOSED_SANDBOX_SETTINGS, parseSandboxSettings } from "../core/sandbox/sandboxSettings";
import { availabilityOf, probeSandbox } from "../agent/sandbox/sandboxProbe";
import type { SandboxView } from "../shared/protocol";

export function sandboxStatusNotice(values: Readonly<Record<string, unknown>>): string | undefined {
  const parsed = parseSandboxSettings(values);
  const mode = parsed.ok ? parsed.value.mode : FAIL_CLOSED_SANDBOX_SETTINGS.mode;
  if (mode === "off") return undefined;
  return unavailableNotice(mode, availabilityOf(probeSandbox()));
}

/** What the auto-approve dropdown shows about the sandbox (the probe runs once per host session). */
export function sandboxView(values: Readonly<Record<string, unknown>>): SandboxView {
  const parsed = parseSandboxSettings(values);
  const settings = parsed.ok ? parsed.value : FAIL_CLOSED_SANDBOX_SETTINGS;
  const a = availabilityOf(probeSandbox());
  return {
    available: a.available,
    mechanism: a.mechanism,
    reason: a.reason,
    mode: settings.mode,
    network: settings.network.kind,
    ...(parsed.ok ? {} : { error: parsed.error }),
  };
}
