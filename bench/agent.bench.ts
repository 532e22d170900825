/**
 * Streams a 1 MB write_to_file in ~8,000 chunks through the whole runtime: real HTTP from the scripted model
 * server (in a child process, so its CPU is not counted) → SSE + provider parsing → incremental JSON →
 * task runtime and gate → a fake webview channel (deltas serialised as the host would post them) and the
 * task history on disk. Prints bytes posted vs content (target ≤ 1.2×), host CPU time, disk writes (target:
 * a handful). Also times the JSON parser alone at 1 MB and 4 MB to show it is linear.
 */
import { fork } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { startScriptedModel } from "../test/support/scriptedModel";
import { PartialJsonParser } from "../src/agent/streaming/partialJson";
import { IgnoreRules } from "../src/core/ignoreFile";
import { parseSettings } from "../src/core/settingsModel";
import { realGateFactory } from "../src/agent/approvalGate";
import { ToolExecutor } from "../src/agent/executor/toolExecutor";
import { NodeFs } from "../src/agent/node/nodeFs";
import { NodeCommandRunner } from "../src/agent/node/nodeCommandRunner";
import { JsSearcher } from "../src/agent/node/jsSearcher";
import { OpenAiCompatibleProvider } from "../src/agent/providers/openai";
import { AnthropicProvider } from "../src/agent/providers/anthropic";
import { Task } from "../src/agent/task/task";
import { TaskHistory } from "../src/agent/history/taskHistory";

const CHUNKS = 8000;

function content(bytes: number): string {
  const line = 'export const value_%n = { name: "item %n", tags: ["a", "b"], path: "src\\\\x" };\n';
  const out: string[] = [];
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const l = line.replace(/%n/g, String(n));
    out.push(l);
    size += l.length;
  }
  return out.join("").slice(0, bytes);
}

async function serverMode(): Promise<void> {
  const text = content(1 << 20);
  const turn = (format: string) => ({
    steps: [
      { text: `Writing (${format}).` },
      { tool: "write_to_file", args: { path: "big.ts", content: text }, chunks: CHUNKS },
    ],
  });
  const done = { steps: [{ tool: "attempt_completion", args: { result: "done" } }] };
  const model = await startScriptedModel([turn("openai"), done, turn("anthropic"), done]);
  process.send!({ url: model.url });
}

function cpuMs(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1000;
}

async function runOnce(format: "openai" | "anthropic", url: string): Promise<void> {
  const dir = realpathSync(mkdtempSync(nodePath.join(tmpdir(), "toolgate-bench-ws-")));
  const histDir = mkdtempSync(nodePath.join(tmpdir(), "toolgate-bench-hist-"));
  try {
    const parsed = parseSettings({ "toolgate.autoApprove.actions": { editFiles: true } });
    if (!parsed.ok) throw new Error(parsed.errors.join("; "));
    const settings = parsed.value;
    const executor = new ToolExecutor({
      createGate: realGateFactory({ settings: () => settings }),
      roots: () => [dir],
    });
    const config = await executor.asToolConfig(`bench-${format}`);
    const fs = new NodeFs();
    const history = new TaskHistory(histDir);
    const provider =
      format === "openai"
        ? new OpenAiCompatibleProvider({ baseUrl: `${url}/v1`, model: "gpt-4o", apiKey: "x" })
        : new AnthropicProvider({ baseUrl: url, model: "claude-sonnet-4-5", apiKey: "x" });
    const task = Task.create(
      {
        provider,
        config,
        env: {
          fs,
          runner: new NodeCommandRunner(),
          searcher: new JsSearcher(fs),
          ignoreRules: (r) => IgnoreRules.load(r, ".toolgateignore"),
        },
        ask: { ask: () => Promise.resolve({ kind: "approve" }) },
        persistence: (snap) => history.writer(snap),
      },
      "write the big file",
    );
    // The fake webview channel: every delta is serialised as postMessage would.
    let posted = 0;
    let deltas = 0;
    task.store.onDelta((d) => {
      posted += Buffer.byteLength(JSON.stringify(d));
      deltas++;
    });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const state = await task.run();
    const wall = performance.now() - t0;
    const cpu = cpuMs(process.cpuUsage(cpu0));
    const written = readFileSync(nodePath.join(dir, "big.ts"), "utf8");
    const contentBytes = Buffer.byteLength(written);
    console.log(`${format.padEnd(9)} state=${state} content=${contentBytes} B in ${CHUNKS} chunks`);
    console.log(
      `  bytes posted to webview: ${posted} B = ${(posted / contentBytes).toFixed(3)} × content (target ≤ 1.2) in ${deltas} deltas`,
    );
    console.log(`  host CPU: ${cpu.toFixed(0)} ms (wall ${wall.toFixed(0)} ms)`);
    const perFile = Object.entries(history.counter.byFile)
      .map(([f, n]) => `${f.replace(/^[0-9a-f-]{36}/, "<task>")}: ${n}`)
      .join(", ");
    console.log(
      `  disk writes (history, atomic): ${history.counter.writes} (${perFile}; ${(history.counter.bytes / 1e6).toFixed(2)} MB) — target: a handful`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(histDir, { recursive: true, force: true });
  }
}

function parserOnly(bytes: number): number {
  const text = JSON.stringify({ path: "big.ts", content: content(bytes) });
  const size = Math.ceil(text.length / (CHUNKS * (bytes / (1 << 20))));
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  let best = Infinity;
  for (let rep = 0; rep < 5; rep++) {
    const t0 = performance.now();
    const p = new PartialJsonParser({ onStringDelta: () => undefined });
    for (const c of chunks) {
      p.feed(c);
      void p.value; // a snapshot per chunk, as the runtime may take
    }
    p.end();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

async function main(): Promise<void> {
  if (process.argv.includes("--server")) return serverMode();
  const p1 = parserOnly(1 << 20);
  const p4 = parserOnly(4 << 20);
  console.log(
    `JSON parser alone: 1 MB / 8,000 chunks ${p1.toFixed(1)} ms; 4 MB / 32,000 chunks ${p4.toFixed(1)} ms (ratio ${(p4 / p1).toFixed(1)}, linear ≈ 4)`,
  );
  const child = fork(process.argv[1]!, ["--server"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { url } = await new Promise<{ url: string }>((resolve) =>
    child.once("message", (m) => resolve(m as { url: string })),
  );
  try {
    await runOnce("openai", url);
    await runOnce("anthropic", url);
  } finally {
    child.kill();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
