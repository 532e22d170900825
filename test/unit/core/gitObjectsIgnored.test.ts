/**
 * Ignored files and git's objects, with real git: staging copies an ignored file into the objects (from
 * where `push` or `bundle` carry it on), so `git add .`, `-A`, `stash -u` ask when git would take one — and
 * the gate agrees with git's own dry run on which files it would take. Every subcommand that puts history
 * contents somewhere readable (`archive`, `bundle`, `format-patch`, `reflog -p`, `checkout-index`...) asks
 * once the repository tracks an ignored file, even under an allow rule for git.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const cmd = (command: string) => call("execute_command", { command });
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, stdio: "pipe" }).toString();
const allowGit = { "toolgate.commands.allow": ["git"] };

/** A repository with `a.ts` and the ignore file committed, and an untracked ignored `.env`. */
function committedRepo(): string {
  const t = tempTree({ "w/a.ts": "a", "w/.env": "SECRET=1", "w/.toolgateignore": ".env\n" });
  afterAll(() => t.cleanup());
  const w = t.path("w");
  git(w, "init", "-q", ".");
  git(w, "add", "a.ts", ".toolgateignore");
  git(w, "commit", "-qm", "init");
  return w;
}

describe("staging ignored files", () => {
  const t = tempTree({
    "w/src/a.ts": "a",
    "w/src/sub/b.ts": "b",
    "w/.env": "SECRET=1",
    "w/.toolgateignore": ".env\nsecrets/\n",
    "w/.gitignore": "node_modules/\n",
  });
  afterAll(() => t.cleanup());
  const w = t.path("w");
  git(w, "init", "-q", ".");

  const staging = ["git add .", "git add -A", "cd src && git add -A", "git -C src add --all", "git add '*.env'"];

  it("asks while git would stage the ignored .env, and agrees with git's dry run", async () => {
    expect(git(w, "add", "-n", ".")).toContain("add '.env'");
    const g = await gateWith(allowGit, [w]);
    for (const line of [...staging, "git stash -u", "git stash push --include-untracked"]) {
      const d = g.decide(cmd(line));
      expect({ line, d: d.decision }).toEqual({ line, d: "ask" });
      expect(d.reason).toContain(".env");
    }
    // Only tracked files, or a directory without ignored files: nothing ignored goes in.
    for (const line of ["git add -u", "git add src", "git add src/a.ts", "git commit -a -m x"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });

  it("runs once .gitignore excludes it too, unless forced", async () => {
    writeFileSync(t.path("w/.gitignore"), "node_modules/\n.env\n");
    try {
      expect(git(w, "add", "-n", ".")).not.toContain(".env");
      const g = await gateWith(allowGit, [w]);
      for (const line of [...staging.slice(0, 4), "git stash -u"])
        expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
      expect(git(w, "add", "-n", "-f", ".")).toContain("add '.env'");
      for (const line of ["git add -f .", "git add -fA", "git stash -a", "git stash push --all"])
        expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "ask" });
    } finally {
      writeFileSync(t.path("w/.gitignore"), "node_modules/\n");
    }
  });

  it("follows a nested .gitignore that takes an exclusion back, as git does", async () => {
    writeFileSync(t.path("w/.gitignore"), "node_modules/\n.env\n");
    writeFileSync(t.path("w/src/sub/.env"), "NESTED=1");
    writeFileSync(t.path("w/src/.gitignore"), "!.env\n");
    try {
      expect(git(w, "add", "-n", ".")).toContain("add 'src/sub/.env'");
      const g = await gateWith(allowGit, [w]);
      const d = g.decide(cmd("git add src"));
      expect(d.decision).toBe("ask");
      expect(d.reason).toContain("src/sub/.env");
    } finally {
      rmSync(t.path("w/src/.gitignore"));
      rmSync(t.path("w/src/sub/.env"));
      writeFileSync(t.path("w/.gitignore"), "node_modules/\n");
    }
  });

  it("does not look inside what git skips: an ignored-looking file in node_modules does not make it ask", async () => {
    writeFileSync(t.path("w/.gitignore"), "node_modules/\n.env\n");
    mkdirSync(t.path("w/node_modules/pkg"), { recursive: true });
    writeFileSync(t.path("w/node_modules/pkg/.env"), "PKG=1");
    try {
      expect(git(w, "add", "-n", ".")).not.toContain("node_modules");
      const g = await gateWith(allowGit, [w]);
      expect(g.decide(cmd("git add .")).decision).toBe("allow");
      expect(g.decide(cmd("git add -f .")).decision).toBe("ask");
    } finally {
      rmSync(t.path("w/node_modules"), { recursive: true });
      writeFileSync(t.path("w/.gitignore"), "node_modules/\n");
    }
  });
});

describe("history contents put where the agent can read them", () => {
  const w = committedRepo();

  const lines = [
    "git archive HEAD",
    "git archive -o out.tar HEAD",
    "git bundle create all.bundle HEAD",
    "git format-patch -1 --stdout",
    "git fast-export HEAD",
    "git checkout-index -a --prefix=copy/",
    "git reflog -p",
    "git notes show",
    "git worktree add wt",
    "git clone . copy",
    "git commit -v -m x",
  ];

  // Writing the copies (`wt`, `copy`) inside the workspace is auto-approved here, so only the contents decide.
  const settings = { ...allowGit, "toolgate.autoApprove.actions": { editFiles: true } };

  it("each runs under an allow rule for git while nothing ignored is tracked, and asks once .env is", async () => {
    const before = await gateWith(settings, [w]);
    for (const line of lines) expect({ line, d: before.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
    git(w, "add", "-f", ".env");
    git(w, "commit", "-qm", "secret");
    const g = await gateWith(settings, [w]);
    for (const line of lines) {
      const d = g.decide(cmd(line));
      expect({ line, d: d.decision }).toEqual({ line, d: "ask" });
      expect(d.reason).toContain("`.env`");
    }
    // Recording and sending: nothing of the file comes out where the agent reads.
    for (const line of ["git commit -m x", "git tag v1", "git branch b"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });
});

describe("a message read from a file goes into history", () => {
  const t = tempTree({ "w/a.ts": "a", "w/msg.txt": "fix: x", "w/.env": "SECRET=1", "w/.toolgateignore": ".env\n" });
  afterAll(() => t.cleanup());
  const w = t.path("w");
  git(w, "init", "-q", ".");

  it("`commit -F`, `--file`, `-t`, `merge -F` of an ignored file are refused; of another file they run", async () => {
    const g = await gateWith(allowGit, [w]);
    const forms = [
      "git commit -F FILE",
      "git commit --file=FILE",
      "git commit --file FILE",
      "git commit -aF FILE",
      "git commit -aFFILE",
      "git commit -t FILE",
      "git merge -F FILE b",
    ];
    for (const form of forms) {
      const secret = form.replace("FILE", ".env");
      const d = g.decide(cmd(secret));
      expect({ secret, d: d.decision }).toEqual({ secret, d: "deny" });
      expect(d.reason).toContain(".env");
      const plain = form.replace("FILE", "msg.txt");
      expect({ plain, d: g.decide(cmd(plain)).decision }).toEqual({ plain, d: "allow" });
    }
    for (const line of ["git commit --template=.env", "git tag -F .env v1"])
      expect({ line, d: g.decide(cmd(line)).decision }).not.toEqual({ line, d: "allow" });
    // A message given inline, or on stdin, is not a file.
    for (const line of ["git commit -m .env", "git commit -F - <<< 'fix'", "git commit -mF -a"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });
});

describe("git grep of the working tree", () => {
  const w = committedRepo();

  it("`--untracked` and `--no-index` print untracked ignored files, so they ask; plain `git grep` runs", async () => {
    // What git really prints: the ignored file's content, which plain `git grep` does not show.
    expect(git(w, "grep", "--untracked", "SECRET")).toContain(".env:SECRET=1");
    expect(git(w, "grep", "--no-index", "SECRET")).toContain(".env:SECRET=1");
    const g = await gateWith(allowGit, [w]);
    for (const line of [
      "git grep --untracked SECRET",
      "git grep --no-index SECRET",
      "git grep --no-index -e SECRET -- .",
    ]) {
      const d = g.decide(cmd(line));
      expect({ line, d: d.decision }).toEqual({ line, d: "ask" });
      expect(d.reason).toContain(".env");
    }
    for (const line of ["git grep SECRET", "git grep --untracked SECRET a.ts"])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });

  it("`git stash push -- .env` stores and resets the ignored file: refused", async () => {
    const g = await gateWith(allowGit, [w]);
    expect(g.decide(cmd("git stash push -- .env")).decision).toBe("deny");
    expect(g.decide(cmd("git stash push -m wip -- a.ts")).decision).toBe("allow");
  });
});

describe("git writes and reads outside the workspace under an allow rule for git", () => {
  const t = tempTree({ "w/a.ts": "a" });
  afterAll(() => t.cleanup());
  const w = t.path("w");
  git(w, "init", "-q", ".");
  git(w, "add", "a.ts");
  git(w, "commit", "-qm", "init");
  const settings = { ...allowGit, "toolgate.autoApprove.actions": { editFiles: true } };

  it("a path outside, as an argument or an option's value, asks like a file tool's write or read there", async () => {
    const g = await gateWith(settings, [w]);
    const outside = t.path("out");
    for (const line of [
      `git bundle create ${outside}/all.bundle HEAD`,
      `git format-patch -o ${outside} -1`,
      `git format-patch --output-directory=${outside} -1`,
      `git read-tree --index-output=${outside}/index HEAD`,
      `git checkout-index -a --prefix=${outside}/`,
      `git fast-export --export-marks=${outside}/marks HEAD`,
      `git archive -o ${outside}/x.tar HEAD`,
      "git hash-object -w ../../etc/passwd",
      "git fetch ../other",
    ]) {
      const d = g.decide(cmd(line));
      expect({ line, d: d.decision }).toEqual({ line, d: "ask" });
      expect(d.reason).toMatch(/outside the workspace/);
    }
    // Inside the workspace, and messages or revisions that only look like paths, still run.
    for (const line of [
      "git bundle create all.bundle HEAD",
      "git format-patch -o patches -1",
      "git commit -m /tmp --allow-empty",
      "git checkout -b feat",
      // (`git reset --hard` discards uncommitted work: a deletion, which always asks; see catalogueDataLoss.)
      "git reset --soft HEAD",
    ])
      expect({ line, d: g.decide(cmd(line)).decision }).toEqual({ line, d: "allow" });
  });
});
