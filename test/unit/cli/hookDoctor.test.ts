/**
 * `toolgate hook doctor` against real installs: a clean install reports nothing that fails open, and each
 * listed problem, set up on disk or in the environment, is found with its code and level.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgentName } from "../../../src/cli/hooks/agentConfigs";
import { runDoctor } from "../../../src/cli/hooks/doctor";
import type { DoctorContext, Finding } from "../../../src/cli/hooks/doctorCommon";
import { applyPlan, planInstall, type InstallOptions } from "../../../src/cli/hooks/install";
import { buildCli } from "../../support/cli";
import { tempTree } from "../../support/workspace";
import { toolgate } from "./cliProcess";

const trees: { cleanup(): void }[] = [];
afterAll(() => trees.forEach((t) => t.cleanup()));

function installed(agent: AgentName, over: Partial<InstallOptions> = {}, files: Record<string, string> = {}) {
  const t = tempTree({ "cli/dist/cli.js": "// cli\n", "proj/.keep": "", ...files });
  trees.push(t);
  const env: NodeJS.ProcessEnv = { HOME: t.path("home"), PATH: process.env.PATH ?? "/usr/bin:/bin" };
  const o: InstallOptions = {
    agent,
    scope: "user",
    dir: t.path("proj"),
    env,
    node: process.execPath,
    cli: t.path("cli/dist/cli.js"),
    hookArgs: [],
    ...over,
  };
  applyPlan(planInstall(o));
  const ctx = (more: Partial<DoctorContext> = {}): DoctorContext => ({
    env,
    dir: t.path("proj"),
    managedFile: t.path("managed.json"),
    cli: o.cli,
    version: { "claude-code": "2.1.332", "gemini-cli": "0.61.0", cline: "3.0.65", codex: "0.171.0", cursor: "1.0.0" }[
      agent
    ],
    ...more,
  });
  const doctor = (more: Partial<DoctorContext> = {}) => runDoctor(agent, ctx(more));
  const wrapper = path.join(t.path("home"), ".local/share/toolgate/hooks", `${agent}.sh`);
  return {
    t,
    env,
    doctor,
    wrapper,
    write: (rel: string, text: string) => {
      mkdirSync(path.dirname(t.path(rel)), { recursive: true });
      writeFileSync(t.path(rel), text);
    },
  };
}

const codes = (fs: readonly Finding[], level: Finding["level"]) =>
  fs.filter((f) => f.level === level).map((f) => f.code);

describe("doctor claude-code", () => {
  it("a fresh user install fails open nowhere and recommends the managed install", () => {
    const r = installed("claude-code").doctor();
    expect(codes(r.findings, "fails-open")).toEqual([]);
    expect(r.failsOpen).toBe(false);
    expect(codes(r.findings, "info")).toContain("managed-recommended");
  });

  it("finds nothing installed", () => {
    const s = installed("cline");
    expect(runDoctor("claude-code", { env: s.env, dir: s.t.path("proj") }).findings[0]?.code).toBe("not-installed");
  });

  it("a project's disableAllHooks turns the hook off", () => {
    const s = installed("claude-code", {}, { "proj/.claude/settings.local.json": '{ "disableAllHooks": true }' });
    const r = s.doctor();
    expect(r.failsOpen).toBe(true);
    expect(r.findings.find((f) => f.code === "hooks-disabled")?.message).toContain("settings.local.json");
  });

  it("but not a managed hook", () => {
    const s = installed("claude-code", {}, { "proj/.claude/settings.json": '{ "disableAllHooks": true }' });
    const user = readFileSync(path.join(s.t.path("home"), ".claude/settings.json"), "utf8");
    s.write("managed.json", user);
    const r = s.doctor();
    expect(codes(r.findings, "fails-open")).toEqual([]);
    expect(codes(r.findings, "info")).toContain("hooks-disabled");
  });

  it("CLAUDE_CODE_SIMPLE (bare mode) runs no settings hooks", () => {
    const s = installed("claude-code");
    expect(codes(s.doctor({ env: { ...s.env, CLAUDE_CODE_SIMPLE: "1" } }).findings, "fails-open")).toEqual([
      "bare-mode",
    ]);
    expect(codes(s.doctor({ env: { ...s.env, CLAUDE_CODE_SIMPLE: "0" } }).findings, "fails-open")).toEqual([]);
  });

  it("managed allowManagedHooksOnly drops a user hook", () => {
    const s = installed("claude-code", {}, { "managed.json": '{ "allowManagedHooksOnly": true }' });
    expect(codes(s.doctor().findings, "fails-open")).toEqual(["managed-only"]);
  });

  it("the README's bare `toolgate hook claude-code` fails open: not found, or no wrapper", () => {
    const s = installed(
      "cline",
      {},
      {
        "home/.claude/settings.json": JSON.stringify({
          hooks: { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: "toolgate hook claude-code" }] }] },
        }),
      },
    );
    const r = runDoctor("claude-code", {
      env: { ...s.env, PATH: "/nonexistent" },
      dir: s.t.path("proj"),
      version: "2.1.332",
    });
    expect(codes(r.findings, "fails-open")).toEqual(["command-missing"]);
    const bin = s.t.path("bin/toolgate");
    s.write("bin/toolgate", "#!/bin/sh\n");
    chmodSync(bin, 0o755);
    const r2 = runDoctor("claude-code", {
      env: { ...s.env, PATH: path.dirname(bin) },
      dir: s.t.path("proj"),
      version: "2.1.332",
    });
    expect(codes(r2.findings, "fails-open")).toEqual(["no-wrapper"]);
  });

  it("a missing wrapper behind `|| exit 2` and onFailure is a warning (every call refused), not a fail-open", () => {
    const s = installed("claude-code");
    rmSync(s.wrapper);
    const r = s.doctor();
    expect(r.failsOpen).toBe(false);
    expect(codes(r.findings, "warn")).toContain("command-not-executable");
  });

  it("a timeout the wrapper can outlast, a narrow matcher, no onFailure", () => {
    const s = installed("claude-code");
    const file = path.join(s.t.path("home"), ".claude/settings.json");
    const v = JSON.parse(readFileSync(file, "utf8")) as {
      hooks: { PreToolUse: { matcher: string; hooks: Record<string, unknown>[] }[] };
    };
    const group = v.hooks.PreToolUse[0]!;
    group.matcher = "Bash";
    group.hooks[0]!.timeout = 10;
    delete group.hooks[0]!.onFailure;
    writeFileSync(file, JSON.stringify(v));
    const r = s.doctor();
    expect(codes(r.findings, "fails-open").sort()).toEqual(["matcher-narrow", "timeout-too-short"]);
    expect(codes(r.findings, "warn")).toContain("on-failure-missing");
  });

  it("a stale or hand-edited wrapper, and a wrapper whose Node or dist/cli.js is gone", () => {
    const s = installed("claude-code");
    writeFileSync(s.wrapper, readFileSync(s.wrapper, "utf8").replace("exit 2\n}", "exit 0\n}"));
    expect(codes(s.doctor().findings, "warn")).toContain("wrapper-stale");
    const gone = installed("claude-code", { node: "/nonexistent/node", cli: "/nonexistent/cli.js" });
    expect(codes(gone.doctor().findings, "warn")).toEqual(
      expect.arrayContaining(["wrapper-node-missing", "wrapper-cli-missing"]),
    );
  });

  it("an agent version whose protocol differs, or that predates onFailure", () => {
    const s = installed("claude-code");
    expect(codes(s.doctor({ version: "3.0.1" }).findings, "warn")).toContain("agent-version");
    expect(codes(s.doctor({ version: "2.1.100" }).findings, "warn")).toContain("on-failure-unsupported");
  });

  it("each agent's protocol line: Claude Code's major version, Cline's and the 0.x agents' minor one", () => {
    const cases: [AgentName, string, "warn" | "info"][] = [
      ["claude-code", "2.2.0", "info"],
      ["claude-code", "3.0.0", "warn"],
      ["gemini-cli", "0.61.4", "info"],
      ["gemini-cli", "0.62.0", "warn"],
      ["cline", "3.0.70", "info"],
      ["cline", "3.1.0", "warn"],
      ["codex", "0.172.0", "warn"],
    ];
    for (const [agent, version, level] of cases) {
      const found = installed(agent)
        .doctor({ version })
        .findings.filter((f) => f.code.startsWith("agent-version"));
      expect(
        found.map((f) => [f.level, f.code]),
        `${agent} ${version}`,
      ).toEqual([[level, level === "warn" ? "agent-version" : "agent-version-newer"]]);
    }
  });
});

describe("doctor gemini-cli", () => {
  it("clean, then a project's hooksConfig.enabled: false, then the hook listed in hooksConfig.disabled", () => {
    const s = installed("gemini-cli");
    expect(s.doctor().failsOpen).toBe(false);
    s.write("proj/.gemini/settings.json", '{ "hooksConfig": { "enabled": false } }');
    expect(codes(s.doctor().findings, "fails-open")).toEqual(["hooks-disabled"]);
    s.write("proj/.gemini/settings.json", '{ "hooksConfig": { "disabled": ["toolgate"] } }');
    expect(codes(s.doctor().findings, "fails-open")).toEqual(["hook-disabled"]);
    // The system layer wins over the project.
    s.write("managed.json", '{ "hooksConfig": { "enabled": true } }');
    s.write("proj/.gemini/settings.json", '{ "hooksConfig": { "enabled": false } }');
    expect(s.doctor().failsOpen).toBe(false);
  });

  it("a timeout in ms shorter than the wrapper's limit", () => {
    const s = installed("gemini-cli");
    const file = path.join(s.t.path("home"), ".gemini/settings.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"timeout": 30000', '"timeout": 5000'));
    expect(codes(s.doctor().findings, "fails-open")).toEqual(["timeout-too-short"]);
  });
});

describe("doctor cline, codex, cursor", () => {
  it("cline: clean, another PreToolUse hook, and a wrapper gone (the hook file still cancels)", () => {
    const s = installed("cline", { scope: "project" });
    expect(s.doctor().failsOpen).toBe(false);
    s.write("proj/.clinerules/hooks/PreToolUse.py", "print('{}')\n");
    expect(codes(s.doctor().findings, "warn")).toContain("other-hook");
    rmSync(s.wrapper);
    const r = s.doctor();
    expect(r.failsOpen).toBe(false);
    expect(codes(r.findings, "warn")).toContain("command-not-executable");
  });

  it("codex: clean (with the trust warning), then [features] hooks = false", () => {
    const s = installed("codex");
    const r = s.doctor();
    expect(r.failsOpen).toBe(false);
    expect(codes(r.findings, "warn")).toContain("codex-trust");
    const file = path.join(s.t.path("home"), ".codex/config.toml");
    writeFileSync(file, `[features]\nhooks = false\n\n${readFileSync(file, "utf8")}`);
    expect(codes(s.doctor().findings, "fails-open")).toEqual(["hooks-disabled"]);
  });

  it("codex: what Codex lists decides: untrusted, disabled and not loaded fail open; trusted passes", () => {
    const s = installed("codex");
    const command = `'${s.wrapper}' || exit 2`;
    const listed = (trustStatus: string, enabled = true) => [
      { command, enabled, trustStatus, sourcePath: "config.toml", isManaged: false },
    ];
    expect(codes(s.doctor({ codexHooks: listed("untrusted") }).findings, "fails-open")).toEqual(["codex-untrusted"]);
    expect(codes(s.doctor({ codexHooks: listed("trusted", false) }).findings, "fails-open")).toEqual([
      "codex-hook-disabled",
    ]);
    expect(codes(s.doctor({ codexHooks: [] }).findings, "fails-open")).toEqual(["codex-not-loaded"]);
    const ok = s.doctor({ codexHooks: listed("trusted") });
    expect(ok.failsOpen).toBe(false);
    expect(codes(ok.findings, "warn")).not.toContain("codex-trust");
  });

  it("cursor: every event covered after install; an event left out fails open", () => {
    const s = installed("cursor", { scope: "project" });
    expect(s.doctor().failsOpen).toBe(false);
    const file = s.t.path("proj/.cursor/hooks.json");
    const v = JSON.parse(readFileSync(file, "utf8")) as { hooks: Record<string, unknown> };
    delete v.hooks.beforeReadFile;
    writeFileSync(file, JSON.stringify(v));
    const r = s.doctor();
    expect(codes(r.findings, "fails-open")).toEqual(["not-installed"]);
    expect(r.findings.find((f) => f.code === "not-installed")?.message).toContain("beforeReadFile");
  });
});

describe("the toolgate hook install / doctor commands", () => {
  let cli = "";
  beforeAll(async () => {
    cli = await buildCli();
  });

  it("install --dry-run writes nothing; install then doctor --json exits 0; a project disableAllHooks exits 1", () => {
    const t = tempTree({ "proj/.keep": "" });
    trees.push(t);
    const env = { HOME: t.path("home"), PATH: process.env.PATH ?? "" };
    const dry = toolgate(cli, ["hook", "install", "claude-code", "--dry-run", "--agent-bin", "/nonexistent"], { env });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain("would write");
    expect(() => readFileSync(t.path("home/.claude/settings.json"))).toThrow();
    expect(toolgate(cli, ["hook", "install", "claude-code"], { env }).status).toBe(0);
    const doctor = [
      "hook",
      "doctor",
      "claude-code",
      "--project",
      t.path("proj"),
      "--managed",
      t.path("none"),
      "--json",
    ];
    const ok = toolgate(cli, doctor, { env });
    expect(ok.status).toBe(0);
    expect(ok.lines[0]).toMatchObject({ agent: "claude-code", failsOpen: false });
    const claudeDir = path.join(t.path("proj"), ".claude");
    expect(toolgate(cli, ["hook", "install", "claude-code", "--project", t.path("proj")], { env }).status).toBe(0);
    writeFileSync(path.join(claudeDir, "settings.local.json"), '{"disableAllHooks": true}');
    const bad = toolgate(cli, doctor.slice(0, -1), { env });
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/FAILS OPEN: .*disableAllHooks/);
  });

  it("usage errors exit 2", () => {
    expect(toolgate(cli, ["hook", "install", "nope"]).status).toBe(2);
    expect(toolgate(cli, ["hook", "doctor", "claude-code", "--bogus"]).status).toBe(2);
  });
});
