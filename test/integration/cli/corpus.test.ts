/**
 * One corpus, four surfaces: the same settings files (user settings.json at VS Code's path, the workspace's
 * .vscode/settings.json, the managed policy) and the same calls, decided by the VS Code host's gate
 * construction (HostGateSource over a fake `vscode`), `toolgate check`, `toolgate run` (a scripted model makes
 * exactly those calls in a scratch workspace) and `toolgate hook claude-code`. Compared as allow/ask/deny,
 * with the headless run seeing ask as deny. Any difference fails.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import packageJson from "../../../package.json";
import { realGateFactory } from "../../../src/agent/approvalGate";
import { claudeCodeAdapter } from "../../../src/cli/hooks/claudeCode";
import { decideHook } from "../../../src/cli/hooks/decide";
import { defaultAnalyzer } from "../../../src/core/commands/defaultAnalyzer";
import { parseJsonc } from "../../../src/core/jsonc";
import { buildCli } from "../../support/cli";
import { startScriptedModel } from "../../support/scriptedModel";
import { tempTree } from "../../support/workspace";
import { toolgate } from "../../unit/cli/cliProcess";
import { CORPUS, SETTINGS_FILES, toClaudeCode, WORKSPACE_FILES, type Verdict } from "./corpus";
import { toolgateAsync } from "./runProcess";

const fake = vi.hoisted(() => ({
  user: {} as Record<string, unknown>,
  workspace: {} as Record<string, unknown>,
  root: "",
}));

type Manifest = { contributes: { configuration: { properties: Record<string, { default: unknown }> } } };

vi.mock("vscode", () => {
  const props = (packageJson as Manifest).contributes.configuration.properties;
  const none = { dispose: () => undefined };
  class EventEmitter {
    event = () => none;
    fire(): void {}
    dispose(): void {}
  }
  return {
    EventEmitter,
    workspace: {
      isTrusted: true,
      get workspaceFolders() {
        return [{ uri: { scheme: "file", fsPath: fake.root } }];
      },
      getConfiguration: () => ({
        inspect: (key: string) => ({
          defaultValue: props[key]?.default,
          globalValue: fake.user[key],
          workspaceValue: fake.workspace[key],
        }),
      }),
      onDidChangeConfiguration: () => none,
      onDidGrantWorkspaceTrust: () => none,
      onDidChangeWorkspaceFolders: () => none,
      createFileSystemWatcher: () => ({
        onDidCreate: () => none,
        onDidChange: () => none,
        onDidDelete: () => none,
        dispose() {},
      }),
    },
  };
});

const t = tempTree({});
let cli = "";
const appData = t.path("appdata");
const managedFile = t.path("managed-settings.json");

function workspaceCopy(name: string): string {
  const dir = t.path(name);
  for (const [rel, text] of Object.entries({
    ...WORKSPACE_FILES,
    ".vscode/settings.json": JSON.stringify(SETTINGS_FILES.workspace, null, 2),
  })) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

beforeAll(async () => {
  mkdirSync(path.join(appData, "Code", "User"), { recursive: true });
  writeFileSync(
    path.join(appData, "Code", "User", "settings.json"),
    `// VS Code user settings\n${JSON.stringify(SETTINGS_FILES.user, null, 2).replace(/\n}$/, ",\n}")}`,
  );
  writeFileSync(managedFile, JSON.stringify(SETTINGS_FILES.managed));
  cli = await buildCli();
}, 60_000);
afterAll(() => t.cleanup());

const env = () => ({ VSCODE_APPDATA: appData, TOOLGATE_MANAGED_SETTINGS: managedFile });
const headless = (v: Verdict): Verdict => (v === "ask" ? "deny" : v);

/** The host: what it reads through inspect() — the same files, as VS Code would report them. */
async function hostDecisions(root: string): Promise<Verdict[]> {
  const { HostGateSource } = await import("../../../src/host/hostGateSource");
  fake.root = root;
  // What VS Code's inspect() reports is what it parsed from these same files.
  fake.user = parseJsonc(readFileSync(path.join(appData, "Code", "User", "settings.json"), "utf8")) as Record<
    string,
    unknown
  >;
  fake.workspace = parseJsonc(readFileSync(path.join(root, ".vscode", "settings.json"), "utf8")) as Record<
    string,
    unknown
  >;
  const saved = process.env.TOOLGATE_MANAGED_SETTINGS;
  process.env.TOOLGATE_MANAGED_SETTINGS = managedFile;
  try {
    const none = { commandsAllow: [], commandsDeny: [], permissionsAllow: [], permissionsDeny: [] };
    const source = new HostGateSource(defaultAnalyzer(), () => none);
    const settings = source.readSettings();
    expect(settings.errors).toEqual([]);
    expect(settings.ignoredWorkspaceKeys).toEqual(["toolgate.mode", "toolgate.commands.allow"]);
    const gate = await realGateFactory(source.source())({ roots: [root] });
    return CORPUS.map((e) => gate.decide(e.call).decision);
  } finally {
    if (saved === undefined) delete process.env.TOOLGATE_MANAGED_SETTINGS;
    else process.env.TOOLGATE_MANAGED_SETTINGS = saved;
  }
}

function checkDecisions(root: string): Verdict[] {
  const r = toolgate(cli, ["check", "--workspace", root], { input: CORPUS.map((e) => e.call), env: env() });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.lines.map((l) => l.decision as Verdict);
}

async function runDecisions(root: string): Promise<Verdict[]> {
  const model = await startScriptedModel([
    { steps: CORPUS.map((e, i) => ({ tool: e.call.tool, args: e.call.params, id: `call_${i}` })) },
    { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
  ]);
  try {
    const r = await toolgateAsync(
      cli,
      ["run", "-p", "make exactly these calls", "--workspace", root, "--base-url", model.openAiBaseUrl, "--json"],
      { env: { ...env(), TOOLGATE_API_KEY: "sk-test" } },
    );
    expect(r.status, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const decisions = events.filter((e) => e.type === "decision" && e.tool !== "attempt_completion");
    expect(decisions).toHaveLength(CORPUS.length);
    return decisions.map((d) => d.decision as Verdict);
  } finally {
    await model.close();
  }
}

async function hookDecisions(root: string): Promise<(Verdict | undefined)[]> {
  const out: (Verdict | undefined)[] = [];
  for (const e of CORPUS) {
    const cc = toClaudeCode(e.call, root);
    if (!cc) {
      out.push(undefined);
      continue;
    }
    // One session per call: the corpus compares single decisions, and a session that fetched would taint the rest.
    const session_id = `corpus-${process.pid}-${out.length}`;
    const input = {
      session_id,
      transcript_path: "/t",
      cwd: root,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      ...cc,
    };
    const state = { XDG_STATE_HOME: path.join(appData, "state"), CLAUDE_PROJECT_DIR: root };
    const r = await decideHook(claudeCodeAdapter, JSON.stringify(input), [], { ...process.env, ...env(), ...state });
    out.push(r.decision);
  }
  return out;
}

describe("one corpus, four surfaces", () => {
  it("the host, check, run and hook decide every call of the corpus alike", async () => {
    const host = await hostDecisions(workspaceCopy("ws-host"));
    // The hand-written entries say what a person expects; a surface that denied (or allowed) everything fails here.
    CORPUS.forEach((e, i) => {
      if (e.expect) expect(host[i], JSON.stringify(e.call)).toBe(e.expect);
    });
    const check = checkDecisions(workspaceCopy("ws-check"));
    const run = await runDecisions(workspaceCopy("ws-run"));
    const hook = await hookDecisions(workspaceCopy("ws-hook"));
    const differences: string[] = [];
    CORPUS.forEach((e, i) => {
      const want = host[i]!;
      const what = JSON.stringify(e.call);
      if (check[i] !== want) differences.push(`check: ${what}: ${check[i]} (host: ${want})`);
      if (run[i] !== headless(want)) differences.push(`run: ${what}: ${run[i]} (host: ${want} → ${headless(want)})`);
      if (hook[i] !== undefined && hook[i] !== want) differences.push(`hook: ${what}: ${hook[i]} (host: ${want})`);
    });
    expect(differences).toEqual([]);
    const skipped = hook.filter((h) => h === undefined).length;
    console.log(
      `corpus: ${CORPUS.length} calls on 4 surfaces; ${skipped} without a Claude Code equivalent skipped for the hook only`,
    );
    expect(skipped).toBe(2);
    expect(new Set(host)).toEqual(new Set(["allow", "ask", "deny"]));
  }, 120_000);
});
