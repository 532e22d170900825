import { spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import Module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CommandId, PANEL_TYPE, VIEW_ID } from "../../../src/host/ids";
import { fakeWebview, makeFakeVscode } from "./fakeVscode";

// The real host bundles (built by esbuild.mjs exactly as a release builds them, into a temp dist/), loaded with
// a fake `vscode` module. `required` records every module the bundles load, to show what activation costs.
let extensionRoot = "";
let bundlePath = "";
let currentFake: ReturnType<typeof makeFakeVscode>["api"] | undefined;
let required: string[] = [];
type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const moduleInternals = Module as unknown as { _load: Loader };
const originalLoad = moduleInternals._load;

beforeAll(() => {
  extensionRoot = mkdtempSync(join(tmpdir(), "toolgate-ext-"));
  const dist = join(extensionRoot, "dist");
  const r = spawnSync(process.execPath, ["esbuild.mjs", "--only=host", `--outdir=${dist}`], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`esbuild.mjs failed: ${r.stderr}`);
  bundlePath = join(dist, "extension.js");
  moduleInternals._load = function (request, parent, isMain) {
    required.push(request);
    if (request === "vscode") return currentFake;
    return originalLoad.call(this, request, parent, isMain);
  };
}, 60_000);

afterAll(() => {
  moduleInternals._load = originalLoad;
});

const decodeEntities = (s: string) => s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

interface Ext {
  activate(
    ctx: unknown,
  ): Promise<{ decisions: { logDecision(c: unknown, d: unknown): void }; startRuntime(): Promise<void> } | undefined>;
}

function load(fake: ReturnType<typeof makeFakeVscode>): Ext {
  currentFake = fake.api;
  required = [];
  const req = createRequire(bundlePath);
  for (const file of ["extension.js", "runtime.js"]) delete req.cache[join(extensionRoot, "dist", file)];
  return req(bundlePath) as Ext;
}

const fileUri = (path: string) => ({ scheme: "file", path, fsPath: path, toString: () => `file://${path}` });

function context(extensionPath = extensionRoot) {
  const subscriptions: Array<{ dispose(): void }> = [];
  const state = new Map<string, unknown>();
  const global = new Map<string, unknown>();
  const storage = mkdtempSync(join(tmpdir(), "toolgate-storage-"));
  mkdirSync(join(storage, "tasks"));
  return {
    subscriptions,
    extensionUri: fileUri(extensionPath),
    globalStorageUri: fileUri(storage),
    workspaceState: {
      get: (k: string) => state.get(k),
      update: (k: string, v: unknown) => Promise.resolve(void state.set(k, v)),
    },
    globalState: {
      get: (k: string) => global.get(k),
      update: (k: string, v: unknown) => Promise.resolve(void global.set(k, v)),
    },
    secrets: {
      get: () => Promise.resolve(undefined),
      store: () => Promise.resolve(),
      delete: () => Promise.resolve(),
      onDidChange: () => ({ dispose() {} }),
    },
  };
}

describe("extension activation (real bundle, fake vscode)", () => {
  it("registers every command, the view, the panel serializer and a status bar item, all disposable", async () => {
    const fake = makeFakeVscode();
    const ctx = context();
    const api = await load(fake).activate(ctx);
    expect(api).toBeDefined();
    expect([...fake.commands.keys()].sort()).toEqual(Object.values(CommandId).sort());
    expect(fake.viewProviders.has(VIEW_ID)).toBe(true);
    expect(fake.serializers.has(PANEL_TYPE)).toBe(true);
    expect(fake.statusItems[0]).toMatchObject({
      text: "$(shield) Normal · auto-approve on",
      command: CommandId.showAutoApproveMenu,
    });
    expect(ctx.subscriptions.length).toBeGreaterThan(10);
    for (const d of ctx.subscriptions) d.dispose();
  });

  it("the view gets a strict CSP, a fresh nonce, assets from dist/ only, and state only after `ready`", async () => {
    const fake = makeFakeVscode();
    await load(fake).activate(context());
    const htmls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const webview = fakeWebview();
      fake.viewProviders.get(VIEW_ID)!.resolveWebviewView({
        webview,
        visible: true,
        onDidChangeVisibility: () => ({ dispose() {} }),
        onDidDispose: () => ({ dispose() {} }),
        show() {},
      });
      expect(webview.options.enableScripts).toBe(true);
      expect(webview.options.localResourceRoots!.map((u) => u.path)).toEqual([`${extensionRoot}/dist`]);
      const csp = decodeEntities(/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(webview.html)![1]!);
      expect(csp).toMatch(
        /^default-src 'none'; style-src https:\/\/webview\.test; font-src https:\/\/webview\.test; img-src https:\/\/webview\.test data:; script-src 'nonce-[^']+'$/,
      );
      expect(webview.html).toContain(`src="https://${extensionRoot}/dist/webview.js"`);
      htmls.push(webview.html);
      await Promise.resolve();
      expect(webview.posted).toEqual([]);
      webview.receive({ type: "ready" });
      await new Promise((r) => setTimeout(r, 0));
      expect((webview.posted[0] as { type: string }).type).toBe("state");
    }
    const nonce = (h: string) => /<script type="module" nonce="([^"]+)"/.exec(h)![1];
    expect(nonce(htmls[0]!)).not.toBe(nonce(htmls[1]!));
    expect(nonce(htmls[0]!)!.length).toBeGreaterThanOrEqual(16);
  });

  it("palette commands write user settings; the status bar follows", async () => {
    const fake = makeFakeVscode();
    await load(fake).activate(context());
    await fake.commands.get(CommandId.toggleAutoApprove)!();
    expect(fake.config.global.get("autoApprove.enabled")).toBe(false);
    expect(fake.statusItems[0]!.text).toContain("auto-approve off");
    await fake.commands.get(CommandId.cycleMode)!();
    expect(fake.config.global.get("mode")).toBe("plan");
    // YOLO needs the modal confirmation; declining (the fake answers undefined) falls back to normal.
    await fake.commands.get(CommandId.cycleMode)!();
    expect(fake.config.global.get("mode")).toBe("normal");
  });

  it("logs gate decisions to the Toolgate log channel through the returned API", async () => {
    const fake = makeFakeVscode();
    const api = await load(fake).activate(context());
    api!.decisions.logDecision(
      { tool: "read_file", params: { path: "a" } },
      { decision: "allow", reason: "inside the workspace", rule: "autoApprove.readFiles" },
    );
    expect(fake.logs.at(-1)).toBe(
      `info ALLOW read_file {"path":"a"} — inside the workspace (rule: autoApprove.readFiles)`,
    );
  });

  it("reports an activation failure to the person instead of failing silently", async () => {
    const fake = makeFakeVscode({ failOutputChannel: true });
    const api = await load(fake).activate(context());
    expect(api).toBeUndefined();
    expect(fake.errors).toEqual(["Toolgate failed to start: cannot create Toolgate"]);
  });
  it("activation loads the start-up bundle only: no runtime bundle, no npm package, no grammar", async () => {
    const fake = makeFakeVscode();
    await load(fake).activate(context());
    const loaded = [...new Set(required)].filter((r) => r !== bundlePath);
    expect(loaded.filter((r) => r !== "vscode" && !Module.isBuiltin(r))).toEqual([]);
    expect(fake.logs.some((l) => /runtime/.test(l))).toBe(false);
    expect(fake.errors).toEqual([]);
  });

  it("the agent runtime starts, without error, when the chat view opens", async () => {
    const fake = makeFakeVscode();
    const api = await load(fake).activate(context(extensionRoot));
    expect(required).not.toContain("./runtime.js");
    const webview = fakeWebview();
    fake.viewProviders.get(VIEW_ID)!.resolveWebviewView({
      webview,
      visible: true,
      onDidChangeVisibility: () => ({ dispose() {} }),
      onDidDispose: () => ({ dispose() {} }),
      show() {},
    });
    await api!.startRuntime(); // already started by the view: settles when it is connected
    expect(required).toContain("./runtime.js");
    expect(fake.errors).toEqual([]);
    expect(fake.logs.filter((l) => /runtime/.test(l))).toEqual([
      expect.stringMatching(/^info Toolgate agent runtime connected in \d+ ms\.$/),
    ]);
    webview.receive({ type: "ready" });
    await new Promise((r) => setTimeout(r, 0));
    expect(webview.posted[0]).toMatchObject({ type: "state", state: { agentAvailable: true } });
  });
});
