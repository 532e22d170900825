/**
 * Activation benchmark: the built host bundle (dist/extension.js, as `npm run build` makes it) loaded and
 * activated against the fake `vscode` of the unit tests. One cold activation (first load of the file in this
 * process), then warm ones (the file re-read and re-evaluated, with V8's caches warm).
 * Prints the times, every module the bundle required while activating (node built-ins, `vscode`, other dist
 * files) and the source modules the bundle holds (from its source map). Target: cold activation ≤ 50 ms with
 * no agent runtime loaded; the figures are printed, never asserted.
 */
import Module, { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { makeFakeVscode } from "../test/unit/host/fakeVscode";

const dist = process.env.TOOLGATE_DIST ?? join(process.cwd(), "dist");
const bundle = join(dist, "extension.js");
const WARM_RUNS = 20;

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;
const internals = Module as unknown as { _load: Loader };
const originalLoad = internals._load;
let fakeApi: unknown;
let required: string[] = [];
internals._load = function (request, parent, isMain) {
  required.push(request);
  if (request === "vscode") return fakeApi;
  return originalLoad.call(this, request, parent, isMain);
};

function context() {
  const state = new Map<string, unknown>();
  const folder = { scheme: "file", path: dist, fsPath: dist, toString: () => `file://${dist}` };
  return {
    subscriptions: [] as Array<{ dispose(): void }>,
    extensionUri: { scheme: "file", path: join(dist, ".."), fsPath: join(dist, ".."), toString: () => "" },
    globalStorageUri: folder,
    workspaceState: { get: (k: string) => state.get(k), update: (k: string, v: unknown) => void state.set(k, v) },
    secrets: {
      get: () => Promise.resolve(undefined),
      store: () => Promise.resolve(),
      delete: () => Promise.resolve(),
      onDidChange: () => ({ dispose() {} }),
    },
  };
}

interface Ext {
  activate(ctx: unknown): Promise<unknown>;
}

async function activateOnce(): Promise<{ ms: number; required: string[] }> {
  const fake = makeFakeVscode();
  fakeApi = fake.api;
  required = [];
  const req = createRequire(bundle);
  delete req.cache[bundle];
  const ctx = context();
  const t0 = process.hrtime.bigint();
  const ext = req(bundle) as Ext;
  const api = await ext.activate(ctx);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!api) throw new Error(`activation failed: ${fake.errors.join("; ")}`);
  for (const d of ctx.subscriptions) d.dispose();
  return { ms, required: required.filter((r) => r !== bundle) };
}

function bundledSources(): string[] {
  const map = `${bundle}.map`;
  if (!existsSync(map)) return [];
  const { sources } = JSON.parse(readFileSync(map, "utf8")) as { sources: string[] };
  return sources.map((s) => s.replace(/^(\.\.\/)+/, ""));
}

async function main(): Promise<void> {
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run npm run build`);
  const size = readFileSync(bundle).length;
  const cold = await activateOnce();
  const warm: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) warm.push((await activateOnce()).ms);
  warm.sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)]!;

  console.log(`dist/extension.js: ${(size / 1024).toFixed(1)} KiB`);
  console.log(`activate, cold (first load + activate): ${cold.ms.toFixed(1)} ms   (target ≤ 50 ms)`);
  console.log(
    `activate, warm: median ${median.toFixed(1)} ms, max ${warm.at(-1)!.toFixed(1)} ms over ${WARM_RUNS} runs`,
  );
  const unique = [...new Set(cold.required)].sort();
  console.log(`modules required during activation (${unique.length}): ${unique.join(", ")}`);
  const runtime = unique.filter((r) => r.endsWith(".js"));
  console.log(`other bundles loaded during activation: ${runtime.length ? runtime.join(", ") : "none"}`);
  const sources = bundledSources();
  const deps = [...new Set(sources.filter((s) => s.includes("node_modules/")).map(packageOf))];
  const own = sources.filter((s) => !s.includes("node_modules/"));
  console.log(`source modules in the bundle: ${own.length} of ours, npm packages: ${deps.join(", ") || "none"}`);
  console.log(`  ${own.join(", ")}`);
}

function packageOf(source: string): string {
  const rest = source.slice(source.lastIndexOf("node_modules/") + "node_modules/".length).split("/");
  return rest[0]!.startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
