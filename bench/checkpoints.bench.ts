/**
 * Checkpoints on a generated 10,000-file workspace (100 folders × 100 files, 0.5–4 KB of text each):
 * - the first checkpoint (new store: every file hashed), three fresh stores, beside git's own first
 *   `git add -A && git write-tree` into a new repository;
 * - incremental checkpoints over 100 steps that each edit a few files (before + after per step, and their sum:
 *   what one step costs), and one with nothing changed; beside git's floor on the same tree with the same kind
 *   of edits (`git add -A && git write-tree`, warm index, 30 runs);
 * - the store's size on disk as the steps accumulate, and after compaction (prune → gc);
 * - planning and carrying out a restore to the first step;
 * - deleting the 100-step task from the history (`forget`: record gone, store compacted) while another
 *   task's checkpoint stays.
 */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { GitCheckpointService } from "../src/agent/checkpoints/checkpointService";
import { DEFAULT_CHECKPOINT_SETTINGS } from "../src/core/checkpointSettings";
import { IgnoreRules } from "../src/core/ignoreFile";
import { fmt, percentiles, rng } from "./stats";

const DIRS = 100;
const PER_DIR = 100;
const STEPS = 100;

function diskBytes(dir: string): { apparent: number; blocks: number } {
  let apparent = 0;
  let blocks = 0;
  const visit = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = path.join(d, n);
      const st = lstatSync(p);
      if (st.isDirectory()) visit(p);
      else {
        apparent += st.size;
        blocks += st.blocks * 512;
      }
    }
  };
  visit(dir);
  return { apparent, blocks };
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(2) + " MB";
const ms = (ns: number) => fmt(ns / 1e6) + " ms";

function makeWorkspace(base: string, rand: () => number): string {
  const root = path.join(base, "ws");
  for (let d = 0; d < DIRS; d++) {
    mkdirSync(path.join(root, `pkg${d}`, "src"), { recursive: true });
    for (let f = 0; f < PER_DIR; f++) {
      const lines = 10 + Math.floor(rand() * 90);
      let text = "";
      for (let l = 0; l < lines; l++) text += `export const v${l} = ${Math.floor(rand() * 1e9)}; // pkg${d} file${f}\n`;
      writeFileSync(path.join(root, `pkg${d}`, "src", `file${f}.ts`), text);
    }
  }
  return root;
}

const services: GitCheckpointService[] = [];

function service(store: string, root: string): GitCheckpointService {
  const s = new GitCheckpointService({
    storageDir: store,
    roots: [root],
    trusted: () => true,
    settings: () => DEFAULT_CHECKPOINT_SETTINGS,
    ignore: () => IgnoreRules.empty(".toolgateignore"),
    pruneEvery: 1_000_000,
  });
  services.push(s);
  return s;
}

/** `git add -A && git write-tree` with a repository outside the tree (so the walk never sees it): nanoseconds. */
function gitFloor(gitDir: string, root: string): number {
  const env = { ...process.env, GIT_DIR: gitDir, GIT_WORK_TREE: root, GIT_INDEX_FILE: path.join(gitDir, "index") };
  const t = process.hrtime.bigint();
  for (const args of [["add", "-A"], ["write-tree"]]) {
    const r = spawnSync("git", args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
    if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  }
  return Number(process.hrtime.bigint() - t);
}

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = process.hrtime.bigint();
  const r = await f();
  return [r, Number(process.hrtime.bigint() - t)];
}

async function main(): Promise<void> {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), "toolgate-bench-ckpt-")));
  try {
    const rand = rng(7);
    const root = makeWorkspace(base, rand);
    const ws = diskBytes(root);
    console.log(`workspace: ${DIRS * PER_DIR} files, ${mb(ws.apparent)} (on disk ${mb(ws.blocks)})`);

    const firsts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const store = path.join(base, `first${i}`);
      const s = service(store, root);
      const [r, ns] = await timed(() => s.before({ taskId: "t", stepId: "s", tool: "x", mayChange: true }));
      if (!r.recorded) throw new Error(r.reason);
      firsts.push(ns);
      if (i > 0) rmSync(store, { recursive: true, force: true });
    }
    const fp = percentiles(firsts);
    const floorDir = path.join(base, "floor.git");
    spawnSync("git", ["init", "-q", "--bare", floorDir]);
    const gitFirst = gitFloor(floorDir, root);
    console.log(
      `first checkpoint (new store, 3 runs): p50 ${ms(fp.p50 * 1000)}, max ${ms(fp.max * 1000)}; git add -A && git write-tree into a new repository: ${ms(gitFirst)}`,
    );

    const store = path.join(base, "first0");
    const s = service(store, root);
    const [, same] = await timed(() => s.before({ taskId: "t", stepId: "same", tool: "x", mayChange: true }));
    console.log(`checkpoint with nothing changed: ${ms(same)}`);

    const befores: number[] = [];
    const afters: number[] = [];
    const perStep: number[] = [];
    const sizes: string[] = [];
    const size0 = diskBytes(store);
    for (let step = 1; step <= STEPS; step++) {
      const stepId = `step${step}`;
      const [b, bns] = await timed(() => s.before({ taskId: "t", stepId, tool: "x", mayChange: true }));
      if (!b.recorded) throw new Error(b.reason);
      befores.push(bns);
      const edits = 1 + Math.floor(rand() * 5);
      for (let e = 0; e < edits; e++) {
        const p = path.join(root, `pkg${Math.floor(rand() * DIRS)}`, "src", `file${Math.floor(rand() * PER_DIR)}.ts`);
        writeFileSync(p, `export const edited = ${step}_${e}; // ${"x".repeat(Math.floor(rand() * 2000))}\n`);
      }
      if (step % 10 === 0) writeFileSync(path.join(root, `new${step}.ts`), `export const n = ${step};\n`);
      const [, ans] = await timed(() => s.after({ taskId: "t", stepId }));
      afters.push(ans);
      perStep.push(bns + ans);
      if ([1, 10, 25, 50, 100].includes(step)) {
        const d = diskBytes(store);
        sizes.push(`  after ${String(step).padStart(3)} steps: ${mb(d.blocks)} on disk (${mb(d.apparent)} apparent)`);
      }
    }
    const bp = percentiles(befores);
    const ap = percentiles(afters);
    console.log(
      `incremental checkpoint (before, 1–5 files edited per step, ${STEPS} steps): p50 ${ms(bp.p50 * 1000)}, p99 ${ms(bp.p99 * 1000)}`,
    );
    console.log(`after-step checkpoint: p50 ${ms(ap.p50 * 1000)}, p99 ${ms(ap.p99 * 1000)}`);
    console.log(`store size growth (first checkpoint: ${mb(size0.blocks)} on disk, ${mb(size0.apparent)} apparent):`);
    for (const l of sizes) console.log(l);

    const [plan, planNs] = await timed(() => s.plan("t", "step1"));
    console.log(`restore plan to step 1 (${plan.files.length} files, ${STEPS} steps to classify): ${ms(planNs)}`);
    const [done, restoreNs] = await timed(() => s.restore("t", "step1"));
    console.log(`restore to step 1 (${done.changed.length} files written or deleted): ${ms(restoreNs)}`);

    const [pr, pruneNs] = await timed(() => s.prune());
    console.log(`prune: ${ms(pruneNs)}, compacted: ${pr.gc} (${mb(pr.sizeBytes)} by git's count)`);
    const after = diskBytes(store);
    console.log(`store after compaction: ${mb(after.blocks)} on disk (${mb(after.apparent)} apparent)`);

    await s.before({ taskId: "other", stepId: "o1", tool: "x", mayChange: true });
    writeFileSync(path.join(root, "other.ts"), "export const other = 1;\n");
    await s.after({ taskId: "other", stepId: "o1" });
    const [, forgetNs] = await timed(() => s.forget("t"));
    const gone = diskBytes(store);
    console.log(
      `forget the ${STEPS}-step task (another task kept): ${ms(forgetNs)}; store ${mb(gone.blocks)} on disk (${mb(gone.apparent)} apparent)`,
    );
    const sp = percentiles(perStep);
    // git's floor last, so its edits do not count as the person's in the restore figures above.
    const floors: number[] = [];
    for (let i = 0; i < 30; i++) {
      const edits = 1 + Math.floor(rand() * 5);
      for (let e = 0; e < edits; e++) {
        const p = path.join(root, `pkg${Math.floor(rand() * DIRS)}`, "src", `file${Math.floor(rand() * PER_DIR)}.ts`);
        writeFileSync(p, `export const floor = ${i}_${e};\n`);
      }
      floors.push(gitFloor(floorDir, root));
    }
    const gp = percentiles(floors);
    console.log(
      `one step (before + after): p50 ${ms(sp.p50 * 1000)}, p99 ${ms(sp.p99 * 1000)}; git add -A && git write-tree (warm index, 30 runs): p50 ${ms(gp.p50 * 1000)}, p99 ${ms(gp.p99 * 1000)}`,
    );
  } finally {
    for (const sv of services) sv.dispose();
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
