import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_SANDBOX_SETTINGS,
  FAIL_CLOSED_SANDBOX_SETTINGS,
  parseSandboxSettings,
} from "../../../src/core/sandbox/sandboxSettings";
import {
  planAfterStartFailure,
  sandboxLabel,
  sandboxPlan,
  unavailableNotice,
  type SandboxAvailability,
} from "../../../src/core/sandbox/sandboxPlan";

describe("sandbox settings", () => {
  it("defaults to auto with no network", () => {
    expect(parseSandboxSettings({})).toEqual({ ok: true, value: DEFAULT_SANDBOX_SETTINGS });
    expect(parseSandboxSettings(undefined)).toEqual({ ok: true, value: { mode: "auto", network: { kind: "off" } } });
  });

  it("reads the modes and a host list", () => {
    const r = parseSandboxSettings({
      "toolgate.sandbox.mode": "required",
      "toolgate.sandbox.network": ["Registry.npmjs.org", "*.example.com", "host:443", "registry.npmjs.org"],
    });
    expect(r).toEqual({
      ok: true,
      value: {
        mode: "required",
        network: { kind: "hosts", hosts: ["registry.npmjs.org", "*.example.com", "host:443"] },
      },
    });
    expect(parseSandboxSettings({ "toolgate.sandbox.network": [] })).toMatchObject({
      ok: true,
      value: { network: { kind: "off" } },
    });
  });

  it.each([
    [{ "toolgate.sandbox.mode": "on" }],
    [{ "toolgate.sandbox.mode": true }],
    [{ "toolgate.sandbox.network": "on" }],
    [{ "toolgate.sandbox.network": "*" }],
    [{ "toolgate.sandbox.network": ["*"] }],
    [{ "toolgate.sandbox.network": ["http://example.com"] }],
    [{ "toolgate.sandbox.network": ["a b"] }],
    [{ "toolgate.sandbox.network": ["host:99999"] }],
    [{ "toolgate.sandbox.network": [3] }],
    [[]],
    ["x"],
  ])("a malformed value is an error, never a looser reading: %j", (flat) => {
    const r = parseSandboxSettings(flat);
    expect(r.ok).toBe(false);
    expect(FAIL_CLOSED_SANDBOX_SETTINGS).toEqual({ mode: "required", network: { kind: "off" } });
  });
});

describe("sandbox settings in the manifest", () => {
  it("are application-scoped and default to what the parser defaults to", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
      contributes: { configuration: { properties: Record<string, { default: unknown; scope: string }> } };
    };
    const props = pkg.contributes.configuration.properties;
    const flat = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.default]));
    expect(parseSandboxSettings(flat)).toEqual({ ok: true, value: DEFAULT_SANDBOX_SETTINGS });
    for (const k of ["toolgate.sandbox.mode", "toolgate.sandbox.network"])
      expect(props[k]?.scope, k).toBe("application");
  });
});

describe("sandbox plan", () => {
  const up: SandboxAvailability = { available: true, mechanism: "bubblewrap", reason: "" };
  const down: SandboxAvailability = { available: false, mechanism: "none", reason: "no bwrap" };

  it("runs sandboxed whenever a sandbox is available, clicked or not", () => {
    for (const mode of ["auto", "required"] as const) {
      expect(sandboxPlan(mode, up, true)).toBe("sandbox");
      expect(sandboxPlan(mode, up, false)).toBe("sandbox");
    }
  });

  it("required without a sandbox: auto-approved commands ask; a click runs (the card said unsandboxed)", () => {
    expect(sandboxPlan("required", down, true)).toBe("ask");
    expect(sandboxPlan("required", down, false)).toBe("unsandboxed");
  });

  it("auto without a sandbox leaves the decision to the gate; off never sandboxes", () => {
    expect(sandboxPlan("auto", down, true)).toBe("unsandboxed");
    expect(sandboxPlan("off", up, true)).toBe("unsandboxed");
  });

  it("a failed start of an available sandbox asks", () => {
    expect(planAfterStartFailure()).toBe("ask");
  });

  it("tells the person once why there is no sandbox, and what the mode does about it", () => {
    expect(unavailableNotice("auto", up)).toBeUndefined();
    expect(unavailableNotice("off", down)).toBeUndefined();
    expect(unavailableNotice("auto", down)).toMatch(/no bwrap.*unsandboxed/);
    expect(unavailableNotice("required", down)).toMatch(/no bwrap.*ask/);
    expect(sandboxLabel("sandbox")).toBe("sandboxed");
    expect(sandboxLabel("ask")).toBe("unsandboxed");
  });
});
