/**
 * Data loss is deletion (DESIGN step 3): programs that remove their input, a move out of the workspace, and git
 * subcommands that discard uncommitted work report `deletes`, so the gate asks in every mode — auto and
 * approve-all included — as it does for `rm`. Overwrites inside the workspace are not deletion.
 */
import { beforeAll, describe, expect, it, afterAll } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";
import { context, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});
const deletes = (line: string, allow: string[] = []) => a.analyze(line, context({ allow })).deletes;

describe("programs that remove their input", () => {
  it.each([
    "gzip f",
    "gzip -9 f",
    "gzip -r src",
    "gzip -d f.gz",
    "gunzip f.gz",
    "bzip2 f",
    "bzip2 -d f.bz2",
    "bunzip2 f.bz2",
    "xz f",
    "xz -T0 f",
    "unxz f.xz",
    "lzma f",
    "xz --files=list",
    "zstd --rm f",
    "zstd -q --rm f",
    "lz4 --rm f",
    "zip -m a.zip f",
    "zip -rm a.zip src",
    "zip --move a.zip f",
    "zip --mo a.zip f",
    "unlink f",
    "shred -u f",
    "shred -n 3 f",
    "shred --remove=wipe f",
  ])("%s deletes, allowed or not", (line) => {
    const program = line.split(" ")[0]!;
    expect(deletes(line)).toBe(true);
    expect(a.analyze(line, context({ allow: [program] }))).toMatchObject({ verdict: "unsafe", deletes: true });
  });

  it.each([
    ["gzip -k f", false],
    ["gzip --keep f", false],
    ["gzip --kee f", false],
    ["gzip -c f", true],
    ["gzip -dc f.gz", true],
    ["gzip --stdout f", true],
    ["gzip -t f.gz", true],
    ["gzip -l f.gz", true],
    ["gzip", true],
    ["zcat f.gz", true],
    ["bzip2 -k f", false],
    ["bzip2 -kv f", false],
    ["bzip2 -c f", true],
    ["bzcat f.bz2", true],
    ["xz -k f", false],
    ["xz -dc f.xz", true],
    ["xzcat f.xz", true],
    ["zstd f", false],
    ["zstd -d f.zst", false],
    ["zstd -o out.zst f", false],
    ["zstdcat f.zst", true],
    ["lz4 f", false],
    ["lz4 f out.lz4", false],
    ["zip a.zip f", false],
  ])("%s keeps its input (read-only: %s)", (line, readOnly) => {
    const program = line.split(" ")[0]!;
    const r = a.analyze(line, context({ allow: [program] }));
    expect(r).toMatchObject({ verdict: "safe", deletes: false, readOnly });
  });

  it("an option the grammar reads as a keep must be one the program reads as a keep", () => {
    // bzip2 reads long options by exact name: `--kee` is a bad flag there, not `--keep`.
    expect(a.analyze("bzip2 --kee f", context({ allow: ["bzip2"] })).verdict).toBe("unsafe");
    // zstd: a prefix of `--rm` counts as it.
    expect(deletes("zstd --r f", ["zstd"])).toBe(true);
  });

  it("a compressed file whose input is ignored or outside is still checked", () => {
    expect(a.analyze("gzip -c .env", context()).verdict).toBe("unsafe");
    expect(a.analyze("gzip -k ../x", context({ allow: ["gzip"] })).verdict).toBe("unsafe");
  });
});

describe("moves out of the workspace", () => {
  it.each(["mv a.txt /tmp/", "mv a.txt ../x", "mv -t /tmp a.txt", "mv --target-directory=/tmp a b", "mv src ~/old"])(
    "%s deletes",
    (line) => {
      expect(a.analyze(line, context({ allow: ["mv"] }))).toMatchObject({ verdict: "unsafe", deletes: true });
    },
  );
  it.each(["mv a.txt b.txt", "mv a.txt src/", "mv -t src a b", `mv ${WS}/a ${WS}/b`])("%s does not", (line) => {
    expect(a.analyze(line, context({ allow: ["mv"] }))).toMatchObject({ verdict: "safe", deletes: false });
  });
  it("after `cd` a relative destination is judged from every directory the line may be in", () => {
    expect(a.analyze("cd src && mv a.txt ../../b.txt", context({ allow: ["mv"] })).deletes).toBe(true);
  });
  it("rename computes its names (perl's rename runs its first argument): never vouched for", () => {
    expect(a.analyze("rename s/a/b/ *.txt", context({ allow: ["rename"] })).verdict).toBe("unparseable");
  });
});

describe("git discarding uncommitted work", () => {
  it.each([
    "git checkout -- src/a.ts",
    "git checkout -- .",
    "git checkout .",
    "git checkout src/a.ts",
    "git checkout Makefile",
    "git checkout HEAD~1 src/a.ts",
    "git checkout -f main",
    "git checkout --force main",
    "git checkout --for main",
    "git checkout -fb x",
    "git checkout --ours src/a.ts",
    "git checkout -p",
    "git restore src/a.ts",
    "git restore .",
    "git restore --worktree --staged src/a.ts",
    "git restore -SW src/a.ts",
    "git restore --source=HEAD~2 src",
    "git reset --hard",
    "git reset --hard HEAD~1",
    "git reset --har",
    "git reset --merge",
    "git clean -fd",
    "git clean -xfd",
    "git clean -f",
    "git stash drop",
    "git stash drop stash@{1}",
    "git stash clear",
    "git branch -D feature",
    "git branch -d -f feature",
    "git branch --delete --force feature",
    "git branch -M old new",
    "git switch -f main",
    "git switch --discard-changes main",
    "git switch --discard main",
    "git -C sub reset --hard",
  ])("%s deletes, even with git allowed", (line) => {
    expect(a.analyze(line, context({ allow: ["git"] }))).toMatchObject({ verdict: "unsafe", deletes: true });
  });

  it("a word computed at run time could be a path or `-f`", () => {
    expect(a.analyze("git checkout $x", context({ allow: ["git"] })).deletes).toBe(true);
    expect(a.analyze("git reset $x", context({ allow: ["git"] })).deletes).toBe(true);
  });

  it.each([
    "git checkout main",
    "git checkout -",
    "git checkout -b feature",
    "git checkout -b feature main",
    "git checkout HEAD~2",
    "git restore --staged src/a.ts",
    "git restore -S src/a.ts",
    "git reset",
    "git reset --soft HEAD~1",
    "git reset HEAD src/a.ts",
    "git clean -n",
    "git clean -nd",
    "git clean --dry-run",
    "git stash",
    "git stash pop",
    "git branch -d feature",
    "git branch feature",
    "git switch main",
    "git switch -c feature",
  ])("%s keeps the work", (line) => {
    expect(a.analyze(line, context({ allow: ["git"] })).deletes).toBe(false);
  });

  it("`git status && git diff` stays read-only", () => {
    expect(a.analyze("git status && git diff", context())).toMatchObject({ verdict: "safe", deletes: false });
  });
});

describe("the gate asks in auto mode and approve-all, as for rm", () => {
  const t = tempTree({ "w/a.txt": "x\n", "w/src/b.txt": "y\n", "outside/": "" });
  afterAll(() => t.cleanup());
  const lines = [
    "gzip a.txt",
    "git reset --hard",
    "git checkout -- a.txt",
    "tar -cf x.tar --remove-files a.txt",
    `mv a.txt ${t.path("outside")}/`,
  ];
  it.each([{ "toolgate.mode": "auto" }, { "toolgate.autoApprove.all": true }])("%j", async (settings) => {
    const g = await gateWith(
      { ...settings, "toolgate.commands.allow": ["gzip", "git", "tar", "mv"], "toolgate.autoApprove.enabled": true },
      [t.path("w")],
    );
    for (const line of lines) {
      const d = g.decide(call("execute_command", { command: line }));
      expect({ line, d: d.decision, rule: d.rule }).toEqual({ line, d: "ask", rule: "commands:deletes" });
    }
    // A rename inside the workspace is not a deletion.
    const inside = g.decide(call("execute_command", { command: "mv a.txt src/c.txt" }));
    expect(inside.decision).toBe("allow");
  });
});
