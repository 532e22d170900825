/**
 * The whole command decision: `Gate.decide` for `execute_command` over the shared 5,000-line corpus
 * (commandCorpus.ts: adversarial, everyday and 1-2 KB lines), in a real workspace on disk (a git repository
 * with a few hundred files, `.gitignore`, `.toolgateignore`, `.vscode/settings.json`), with the gate built the
 * way the CLI builds it (`loadPolicy` + `gateFor`: every settings layer, the git-config reader). Beside it, in
 * the same process and over the same lines, a bare tree-sitter parse (`parser.parse(line)`, tree freed): the
 * floor no decision that parses with tree-sitter can beat. Then the process's RSS before and after 50,000 more
 * decisions. Targets (issue 25): p50 at or under the bare parse, mean ≤ 30 µs, p99 no worse than before the
 * file-system facts cache; RSS flat and ≤ 110 MB. Figures only, no pass/fail.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { watchedFacts } from "../src/agent/node/watchedFacts";
import { gateFor, loadPolicy } from "../src/cli/loadGate";
import { BashAnalyzer } from "../src/core/commands/analyzer";
import { grammarFilesIn, loadBashGrammar } from "../src/core/commands/treeSitter";
import type { ToolCall } from "../src/core/types";
import { COMMAND_ALLOW, COMMAND_DENY, dirs, files, lines } from "./commandCorpus";
import { fmt, percentiles } from "./stats";

const PASSES = 5;
const MEMORY_DECISIONS = 50_000;

/** A workspace like the ones the corpus talks about: the paths it names exist, plus a few hundred more. */
function makeWorkspace(base: string): string {
  const ws = path.join(base, "project");
  const put = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), text);
  };
  for (const f of files) put(f, `// ${f}\n`);
  for (const d of dirs)
    for (let i = 0; i < 50; i++)
      put(`${d}/mod${i % 7}/file${i}.${i % 3 === 0 ? "md" : "ts"}`, `export const x${i} = ${i};\n`);
  put("log.txt", "build log\n");
  put("notes.md", "# notes\n");
  put("release.tar.gz", "");
  put(".env", "TOKEN=secret\n");
  put("secrets/key.pem", "-----\n");
  put(".gitignore", "node_modules/\ndist/\n.env\n*.log\n");
  put(".toolgateignore", ".env\nsecrets/\n*.pem\n");
  put(".vscode/settings.json", JSON.stringify({ "toolgate.commands.deny": ["git push --force"] }, null, 2));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=bench", "-c", "user.email=bench@example.com", ...args], {
      cwd: ws,
      stdio: "ignore",
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-q", "-m", "initial");
  return ws;
}

function line(label: string, samplesNs: readonly number[], note = ""): ReturnType<typeof percentiles> {
  const p = percentiles(samplesNs);
  console.log(
    `  ${label.padEnd(38)} p50 ${fmt(p.p50).padStart(6)} µs   mean ${fmt(p.mean).padStart(6)} µs   p99 ${fmt(p.p99).padStart(6)} µs   max ${fmt(p.max).padStart(7)} µs${note}`,
  );
  return p;
}

/** Each item's least timing over `k` whole passes (every other item runs in between: no warm repeat). */
function leastOf<T>(k: number, items: readonly T[], run: (x: T) => unknown): number[] {
  const best = items.map(() => Infinity);
  for (let r = 0; r < k; r++) {
    for (let i = 0; i < items.length; i++) {
      const t0 = process.hrtime.bigint();
      run(items[i]!);
      best[i] = Math.min(best[i]!, Number(process.hrtime.bigint() - t0));
    }
  }
  return best;
}

function onePass<T>(items: readonly T[], run: (x: T) => unknown): number[] {
  return leastOf(1, items, run);
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
function settle(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage();
}

async function main(): Promise<void> {
  const dist = process.env.TOOLGATE_DIST;
  if (!dist) throw new Error("TOOLGATE_DIST is not set (run through `npm run bench decide`)");
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-decide-")));
  try {
    const ws = makeWorkspace(base);
    const userSettings = path.join(base, "user-settings.json");
    writeFileSync(
      userSettings,
      JSON.stringify({ "toolgate.commands.allow": COMMAND_ALLOW, "toolgate.commands.deny": COMMAND_DENY }),
    );
    // An empty managed layer, so a managed policy on this machine cannot change the figures.
    const managed = path.join(base, "managed-settings.json");
    writeFileSync(managed, "{}");
    const policy = loadPolicy({
      workspaces: [ws],
      userSettingsFile: userSettings,
      managedFile: managed,
    });
    if (policy.loaded.errors.length > 0) throw new Error(policy.loaded.errors.join("\n"));
    const analyzer = new BashAnalyzer({ grammarDir: dist });
    // As `toolgate check` runs: the task's file-system facts kept true by fs.watch (TOOLGATE_BENCH_FRESH=1: none).
    const watched = process.env.TOOLGATE_BENCH_FRESH ? undefined : watchedFacts(policy.roots);
    const gate = await gateFor(policy, { headless: false, analyzer, ...(watched ? { facts: watched.facts } : {}) });
    const { parser } = await loadBashGrammar(grammarFilesIn(dist));
    const calls: ToolCall[] = lines.map((l) => ({ tool: "execute_command", params: { command: l.text } }));
    const decide = (c: ToolCall) => gate.decide(c);
    const parse = (c: ToolCall) => parser.parse(c.params.command as string)?.delete();

    const rss0 = settle().rss;
    console.log(watched ? "file-system facts: watched (fs.watch)" : "file-system facts: afresh every decision");
    console.log(
      `whole-gate command decisions: ${calls.length} lines (${lines.filter((l) => l.kind === "adversarial").length} adversarial, ${lines.filter((l) => l.kind === "everyday").length} everyday, ${lines.filter((l) => l.kind === "long").length} of 1-2 KB), workspace of ${files.length + dirs.length * 50 + 8} files in git`,
    );
    const counts = { allow: 0, ask: 0, deny: 0 };
    line(
      "first pass (cold JIT)",
      onePass(calls, (c) => counts[gate.decide(c).decision]++),
    );
    console.log(`  decisions: ${counts.allow} allow, ${counts.ask} ask, ${counts.deny} deny`);
    onePass(calls, parse);
    const parseOne = line("bare tree-sitter parse", onePass(calls, parse));
    const decideOne = line(
      "Gate.decide, one pass",
      onePass(calls, decide),
      `   (targets: p50 ≤ ${fmt(parseOne.p50)} (the parse), mean ≤ 30)`,
    );
    const parseBest = line(`bare parse, least of ${PASSES}`, leastOf(PASSES, calls, parse));
    const decideBest = line(
      `Gate.decide, least of ${PASSES}`,
      leastOf(PASSES, calls, decide),
      `   (targets: p50 ≤ ${fmt(parseBest.p50)}, mean ≤ 30)`,
    );
    // The same gate without the facts cache (every decision sees the file system afresh, as before issue 25),
    // timed in the same process, right after: this shared machine's load moves both figures alike.
    const afresh = await gateFor(policy, { headless: false, analyzer });
    line(
      `afresh (no facts cache), least of ${PASSES}`,
      leastOf(PASSES, calls, (c) => afresh.decide(c)),
    );
    for (const kind of ["everyday", "adversarial", "long"] as const) {
      const some = calls.filter((_, i) => lines[i]!.kind === kind);
      line(`  ${kind}, least of ${PASSES}`, leastOf(PASSES, some, decide));
    }
    const verdict = (d: { p50: number; mean: number }, parse: { p50: number }) =>
      `p50 ${d.p50 <= parse.p50 ? "at or under" : "above"} the bare parse, mean ${d.mean <= 30 ? "within" : "above"} 30 µs`;
    console.log(`  one pass: ${verdict(decideOne, parseOne)}; least of ${PASSES}: ${verdict(decideBest, parseBest)}`);

    const before = settle();
    let n = 0;
    const marks: string[] = [];
    while (n < MEMORY_DECISIONS) {
      for (const c of calls) gate.decide(c);
      n += calls.length;
      if (n % 10_000 === 0) marks.push(mb(settle().rss));
    }
    const after = settle();
    console.log(
      `memory: RSS at start ${mb(rss0)}, before ${mb(before.rss)} -> after ${MEMORY_DECISIONS.toLocaleString("en")} more decisions ${mb(after.rss)} (heap ${mb(before.heapUsed)} -> ${mb(after.heapUsed)}, array buffers and wasm ${mb(before.arrayBuffers)} -> ${mb(after.arrayBuffers)}); every 10,000: ${marks.join(", ")}   (target: flat, ≤ 110 MB)`,
    );
    watched?.close();
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
