/**
 * One checkpoint per step: the state after step N is reused as the state before step N+1 while the directory
 * watcher saw nothing change, and only what changed is walked and handed to git. These tests drive the real
 * service with real git and real files, and check what a person relies on: a change made between two steps by
 * someone else (an editor in this process, a shell in another) is never taken for the agent's, so restoring
 * a step brings back exactly the files before it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DirectoryWatch } from "../../../src/agent/checkpoints/dirWatch";
import { bash, fileState, makeService, tempDir, write, type Fixture } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function workspace(): string {
  const dir = tempDir();
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (let d = 0; d < 5; d++) for (let f = 0; f < 5; f++) write(dir, `pkg${d}/f${f}.txt`, `pkg${d} f${f}\n`);
  write(dir, "a.txt", "original a\n");
  write(dir, "gone.txt", "will be deleted by the person\n");
  write(dir, "pkg1/.gitignore", "*.log\n");
  write(dir, "rebuilt/old/r.txt", "old folder\n");
  return dir;
}

/** A git wrapper that logs each run's subcommand, to see which checkpoints ran git at all. */
function countingGit(): { gitPath: string; runs(): string[] } {
  const dir = tempDir("toolgate-ckpt-git-");
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const log = path.join(dir, "runs.log");
  const real = spawnSync("bash", ["-c", "command -v git"], { encoding: "utf8" }).stdout.trim();
  const gitPath = path.join(dir, "git");
  writeFileSync(
    gitPath,
    `#!/bin/bash\nfor a in "$@"; do case "$a" in --*) ;; *) echo "$a" >> '${log}'; break;; esac; done\nexec '${real}' "$@"\n`,
  );
  chmodSync(gitPath, 0o755);
  return { gitPath, runs: () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean) : []) };
}

function fixture(roots: string[], opts: Parameters<typeof makeService>[1] = {}): Fixture {
  const fx = makeService(roots, opts);
  cleanups.push(fx.cleanup);
  return fx;
}

const step = (stepId: string) => ({ taskId: "t", stepId, tool: "write_to_file", mayChange: true });

const watched = DirectoryWatch.supported() ? describe : describe.skip;

watched("checkpoints: one per step", () => {
  it("a step with nothing changed since the last one runs no git at all; a change is walked and recorded", async () => {
    const root = workspace();
    const g = countingGit();
    const { service } = fixture([root], { gitPath: g.gitPath });
    expect((await service.before(step("s1"))).recorded).toBe(true);
    write(root, "a.txt", "agent 1\n");
    expect(await service.after({ taskId: "t", stepId: "s1" })).toEqual({ recorded: true, changedFiles: 1 });
    const before = g.runs().length;
    expect((await service.before(step("s2"))).recorded).toBe(true);
    expect(g.runs().slice(before)).toEqual([]);
    write(root, "pkg2/new.txt", "agent 2\n");
    expect(await service.after({ taskId: "t", stepId: "s2" })).toEqual({ recorded: true, changedFiles: 1 });
    expect(g.runs().slice(before)).toContain("update-index");
    const plan = await service.plan("t", "s2");
    expect(plan.files.map((f) => [f.path, f.action])).toEqual([["pkg2/new.txt", "delete"]]);
  });

  it("files changed between two steps outside the agent are the person's: restoring the step keeps them", async () => {
    const root = workspace();
    const { service } = fixture([root]);
    await service.before(step("s1"));
    write(root, "a.txt", "agent 1\n");
    await service.after({ taskId: "t", stepId: "s1" });

    // Between the steps: an editor in this process and a shell in another change, create and delete files,
    // make a folder, change a mode, and change a .gitignore so a file becomes covered.
    write(root, "pkg0/f0.txt", "person edit\n");
    unlinkSync(path.join(root, "gone.txt"));
    bash(root, "mkdir -p pkg3/fresh/deep && echo new > pkg3/fresh/deep/n.txt && printf x > pkg4/f4.txt");
    bash(root, "chmod +x pkg2/f2.txt && echo 'log text' > pkg1/keep.log && echo '' > pkg1/.gitignore");
    // A folder removed and made again under the same name (a build output, `git checkout` of a tree).
    bash(root, "rm -rf rebuilt && mkdir -p rebuilt/old && echo z > rebuilt/old/z.txt");
    const betweenSteps = fileState(root);

    await service.before(step("s2"));
    write(root, "a.txt", "agent 2\n");
    write(root, "pkg3/fresh/deep/n.txt", "agent 2 too\n");
    write(root, "rebuilt/old/agent.txt", "agent 2 in the new folder\n");
    await service.after({ taskId: "t", stepId: "s2" });

    const plan = await service.plan("t", "s2");
    expect(plan.files.filter((f) => f.editedByPerson)).toEqual([]);
    expect(plan.files.map((f) => f.path).sort()).toEqual(["a.txt", "pkg3/fresh/deep/n.txt", "rebuilt/old/agent.txt"]);
    await service.restore("t", "s2");
    expect(fileState(root)).toEqual(betweenSteps);

    // Restoring to the first step goes back past the person's changes: they are kept, and named as theirs.
    const back = await service.plan("t", "s1");
    const theirs = back.files.filter((f) => f.editedByPerson).map((f) => f.path);
    expect(theirs).toEqual(expect.arrayContaining(["pkg0/f0.txt", "pkg4/f4.txt", "pkg3/fresh/deep/n.txt"]));
    expect(readFileSync(path.join(root, "pkg0/f0.txt"), "utf8")).toBe("person edit\n");
  });

  it("with the watcher off every checkpoint walks and runs git, with the same result", async () => {
    const root = workspace();
    const g = countingGit();
    const { service } = fixture([root], { gitPath: g.gitPath, watchChanges: false });
    await service.before(step("s1"));
    await service.after({ taskId: "t", stepId: "s1" });
    const n = g.runs().length;
    await service.before(step("s2"));
    expect(g.runs().slice(n)).toContain("write-tree");
    await service.after({ taskId: "t", stepId: "s2" });
    write(root, "pkg0/f1.txt", "person\n");
    await service.before(step("s3"));
    const plan = await service.plan("t", "s1");
    expect(plan.files.map((f) => [f.path, f.editedByPerson])).toEqual([["pkg0/f1.txt", true]]);
  });
});
