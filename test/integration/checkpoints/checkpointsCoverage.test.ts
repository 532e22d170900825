/**
 * What a checkpoint covers: ignored files are never read into the shadow store, `.gitignore`d and heavy
 * folders and over-size files are left out and reported, nested repositories are recorded as plain files with
 * their `.git` untouched — and restore never deletes or replaces what a checkpoint did not cover.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bash, fileState, git, makeService, shadowDirs, shadowObjects, tempDir, write } from "./checkpointsFixture";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function dir(): string {
  const d = tempDir();
  cleanups.push(() => rmSync(d, { recursive: true, force: true }));
  return d;
}

function service(roots: string[], opts: Parameters<typeof makeService>[1] = {}) {
  const fx = makeService(roots, opts);
  cleanups.push(fx.cleanup);
  return fx;
}

const MARK = (s: string) => `UNIQUE-MARKER-${s}-${"q".repeat(8)}`;

describe("checkpoints: coverage", () => {
  it("never reads ignore-file matches into the store; leaves out gitignored, heavy and large files and says so", async () => {
    const root = dir();
    write(root, ".toolgateignore", "secret.env\nprivate/\n*.key\n!public.key\n");
    write(root, "secret.env", MARK("secret"));
    write(root, "private/deep/creds.json", MARK("private"));
    write(root, "id.key", MARK("idkey"));
    write(root, "public.key", "public key, recorded\n");
    write(root, ".gitignore", "build/\n*.log\n");
    write(root, "build/out.js", MARK("build"));
    write(root, "debug.log", MARK("log"));
    write(root, "node_modules/pkg/index.js", MARK("nodemodules"));
    write(root, "big.bin", Buffer.alloc(2 * 1024 * 1024, 7));
    write(root, "src/app.ts", "app\n");
    const { service: s, store } = service([root], { settings: { maxFileSizeMB: 1 } });
    const b = await s.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    if (!b.recorded) throw new Error(b.reason);
    expect(b.skipped.counts).toEqual({ ignoreFile: 3, gitignored: 2, heavyFolder: 1, tooLarge: 1 });
    expect(b.skipped.examples).toContainEqual({ path: "node_modules/", reason: "heavyFolder" });
    expect(b.skipped.examples).toContainEqual({ path: "private/", reason: "ignoreFile" });
    expect(b.skipped.examples).toContainEqual({ path: "big.bin", reason: "tooLarge" });

    // The agent changes ignored and skipped files too; restoring must leave them as they are now.
    bash(
      root,
      "printf changed > secret.env && printf changed > build/out.js && rm debug.log && printf app2 > src/app.ts",
    );
    await s.after({ taskId: "t", stepId: "s1" });
    const r = await s.restore("t", "s1");
    expect(readFileSync(path.join(root, "src/app.ts"), "utf8")).toBe("app\n");
    expect(readFileSync(path.join(root, "secret.env"), "utf8")).toBe("changed");
    expect(readFileSync(path.join(root, "build/out.js"), "utf8")).toBe("changed");
    expect(existsSync(path.join(root, "debug.log"))).toBe(false);
    expect(r.changed).toEqual([path.join(root, "src/app.ts")]);

    const [shadow] = shadowDirs(store);
    const objects = shadowObjects(shadow!).toString("latin1");
    expect(objects).toContain("public key, recorded");
    for (const m of ["secret", "private", "idkey", "build", "log", "nodemodules"])
      expect(objects).not.toContain(MARK(m));
    expect(objects).not.toContain("changed");
    // The store holds no blob of the size of the large file either.
    const sizes = spawnSync("git", ["cat-file", "--batch-all-objects", "--batch-check=%(objectsize)"], {
      env: { ...process.env, GIT_DIR: shadow },
      encoding: "utf8",
    }).stdout;
    expect(sizes.split("\n").map(Number)).not.toContain(2 * 1024 * 1024);
  });

  it("includeGitignored records gitignored files (still never the ignore file's)", async () => {
    const root = dir();
    write(root, ".toolgateignore", "secret.env\n");
    write(root, "secret.env", MARK("secret"));
    write(root, ".gitignore", "build/\n");
    write(root, "build/out.js", MARK("build"));
    const { service: s, store } = service([root], { settings: { includeGitignored: true } });
    const b = await s.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    expect(b).toMatchObject({ recorded: true, skipped: { counts: { ignoreFile: 1 } } });
    const objects = shadowObjects(shadowDirs(store)[0]!).toString("latin1");
    expect(objects).toContain(MARK("build"));
    expect(objects).not.toContain(MARK("secret"));
  });

  it("a file the checkpoint did not cover is never deleted by a restore", async () => {
    const root = dir();
    write(root, "a.txt", "a\n");
    write(root, "grows.bin", Buffer.alloc(2 * 1024 * 1024, 1));
    const { service: s } = service([root], { settings: { maxFileSizeMB: 1 } });
    await s.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    // The large file shrinks under the cap: now it is covered, but it was not at the checkpoint.
    writeFileSync(path.join(root, "grows.bin"), "small now\n");
    write(root, "a.txt", "a2\n");
    await s.after({ taskId: "t", stepId: "s1" });
    const plan = await s.plan("t", "s1");
    expect(plan.files.find((f) => f.path === "grows.bin")).toMatchObject({ action: "delete", kept: "notCovered" });
    await s.restore("t", "s1");
    expect(readFileSync(path.join(root, "grows.bin"), "utf8")).toBe("small now\n");
    expect(readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a\n");
  });

  it("records a nested repository's files as plain files and never touches its .git", async () => {
    const root = dir();
    write(root, "top.txt", "top\n");
    write(root, "vendor/lib/lib.c", "int lib;\n");
    git(path.join(root, "vendor/lib"), "init", "-q");
    git(path.join(root, "vendor/lib"), "add", ".");
    git(path.join(root, "vendor/lib"), "commit", "-qm", "init");
    // A submodule-style gitfile, pointing somewhere that must never be followed.
    write(root, "sub/.git", "gitdir: ../../elsewhere/modules/sub\n");
    write(root, "sub/s.txt", "s\n");
    const nestedGitBefore = fileState(path.join(root, "vendor/lib/.git"), { includeGit: true });
    const { service: s, store } = service([root]);
    await s.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    bash(root, "printf 'int lib2;\\n' > vendor/lib/lib.c && printf n > vendor/lib/new.c && rm sub/s.txt");
    await s.after({ taskId: "t", stepId: "s1" });
    await s.restore("t", "s1");
    expect(readFileSync(path.join(root, "vendor/lib/lib.c"), "utf8")).toBe("int lib;\n");
    expect(existsSync(path.join(root, "vendor/lib/new.c"))).toBe(false);
    expect(readFileSync(path.join(root, "sub/s.txt"), "utf8")).toBe("s\n");
    expect(readFileSync(path.join(root, "sub/.git"), "utf8")).toBe("gitdir: ../../elsewhere/modules/sub\n");
    expect(fileState(path.join(root, "vendor/lib/.git"), { includeGit: true })).toEqual(nestedGitBefore);
    expect(git(path.join(root, "vendor/lib"), "status", "--porcelain")).toBe("");

    const shadow = shadowDirs(store)[0]!;
    const entries = spawnSync(
      "bash",
      [
        "-c",
        'for t in $(git cat-file --batch-all-objects --batch-check="%(objectname) %(objecttype)" | awk \'$2=="tree"{print $1}\'); do git ls-tree -r $t; done',
      ],
      { env: { ...process.env, GIT_DIR: shadow }, encoding: "utf8" },
    ).stdout;
    expect(entries).toContain("100644 blob");
    expect(entries).toMatch(/\tvendor\/lib\/lib\.c\n/);
    expect(entries).not.toContain("160000");
    expect(entries).not.toMatch(/\t(\S+\/)?\.git(\/|\n)/);
  });

  it("never replaces a file that is excluded now, nor a folder holding files it does not cover", async () => {
    const root = dir();
    write(root, "x.txt", "x at the checkpoint\n");
    write(root, "p", "p was a file\n");
    const { service: s } = service([root]);
    await s.before({ taskId: "t", stepId: "s1", tool: "execute_command", mayChange: true });
    // The agent deletes x.txt and turns the file p into a folder holding an ignored file.
    bash(
      root,
      "rm x.txt p && mkdir p && printf secret > p/creds.env && printf 'p/creds.env\\nx.txt\\n' > .toolgateignore",
    );
    await s.after({ taskId: "t", stepId: "s1" });
    // x.txt comes back, now ignored.
    write(root, "x.txt", "ignored now\n");
    const plan = await s.plan("t", "s1", { force: true });
    const byPath = new Map(plan.files.map((f) => [f.path, f]));
    expect(byPath.get("x.txt")).toMatchObject({ action: "recreate", kept: "excludedNow" });
    expect(byPath.get("p")).toMatchObject({ action: "recreate", kept: "blocked" });
    const r = await s.restore("t", "s1", { force: true });
    expect(readFileSync(path.join(root, "x.txt"), "utf8")).toBe("ignored now\n");
    expect(readFileSync(path.join(root, "p/creds.env"), "utf8")).toBe("secret");
    expect(existsSync(path.join(root, ".toolgateignore"))).toBe(false);
    expect(r.kept.map((k) => k.reason).sort()).toEqual(["blocked", "excludedNow"]);
  });
});
