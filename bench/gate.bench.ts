/**
 * File-tool decisions: 10,000 calls over 5 roots, 200 permission rules and a 100-line ignore file.
 * Target on this machine: p50 ≤ 10 µs, p99 ≤ 50 µs per decision. Realpaths are resolved afresh for every decision (a path may have become a link since the last one), so each decision pays its realpath system calls.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { Gate } from "../src/core/gate";
import { DEFAULT_SETTINGS } from "../src/core/settingsModel";
import { fmt, percentiles, rng } from "./stats";

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-")));
  const roots = [0, 1, 2, 3, 4].map((i) => path.join(base, `root${i}`));
  const ignoreLines: string[] = [];
  for (let i = 0; i < 100; i++)
    ignoreLines.push(i % 10 === 0 ? `!keep${i}.txt` : i % 3 === 0 ? `gen${i}/` : `*.tmp${i}`);
  const rand = rng(42);
  const rels: string[] = [];
  for (const r of roots) {
    for (let d = 0; d < 10; d++) {
      for (let f = 0; f < 10; f++) {
        const rel = `pkg${d}/src/mod${f}/file${f}.ts`;
        mkdirSync(path.join(r, path.dirname(rel)), { recursive: true });
        writeFileSync(path.join(r, rel), "x");
        rels.push(path.join(r, rel));
      }
    }
    writeFileSync(path.join(r, ".toolgateignore"), ignoreLines.join("\n"));
  }
  const rules = { allow: [] as string[], ask: [] as string[], deny: [] as string[] };
  for (let i = 0; i < 200; i++) {
    const kind = i % 4 === 0 ? "deny" : i % 4 === 1 ? "ask" : "allow";
    const tool = ["Read", "Edit", "read_file", "Write"][i % 4];
    rules[kind].push(`${tool}(pkg${i % 10}/**/secret${i}*.ts)`);
  }
  const settings = {
    ...DEFAULT_SETTINGS,
    permissions: rules,
    autoApprove: {
      ...DEFAULT_SETTINGS.autoApprove,
      actions: { ...DEFAULT_SETTINGS.autoApprove.actions, editFiles: true },
    },
  };
  const gate = await Gate.create({ settings, roots });

  const calls = [];
  for (let i = 0; i < 10_000; i++) {
    const r = rand();
    const existing = rels[Math.floor(rand() * rels.length)]!;
    const p =
      r < 0.6
        ? existing
        : r < 0.8
          ? existing.replace("file", "new")
          : r < 0.9
            ? path.relative(roots[0]!, existing)
            : `/tmp/outside/x${Math.floor(rand() * 50)}.ts`;
    const tool = ["read_file", "write_to_file", "list_files", "replace_in_file"][Math.floor(rand() * 4)]!;
    calls.push({ tool, params: { path: p, content: "c", diff: "d" } });
  }
  const samples: number[] = [];
  const counts = { allow: 0, ask: 0, deny: 0 };
  for (const c of calls) {
    const t0 = process.hrtime.bigint();
    const d = gate.decide(c);
    samples.push(Number(process.hrtime.bigint() - t0));
    counts[d.decision]++;
  }
  const p = percentiles(samples);
  console.log(`file-tool decisions: ${calls.length} calls, 5 roots, 200 rules, 100-line ignore file`);
  console.log(
    `  p50 ${fmt(p.p50)} µs   p99 ${fmt(p.p99)} µs   mean ${fmt(p.mean)} µs   max ${fmt(p.max)} µs   (target p50 ≤ 10, p99 ≤ 50)`,
  );
  console.log(`  decisions: ${counts.allow} allow, ${counts.ask} ask, ${counts.deny} deny`);
  rmSync(base, { recursive: true, force: true });
}

void main();
