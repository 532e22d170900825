/**
 * Per-program argument checks of the built-in catalogue, including when the program is allow-listed: an
 * allow rule is never a licence for a flag that runs another program, and writing flags are file effects.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { sedScriptProblem } from "../../../src/core/commands/catalogue/sed";
import { awkProgramProblem } from "../../../src/core/commands/catalogue/awk";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

function verdict(command: string, allow: string[] = []): string {
  return a.analyze(command, context({ allow })).verdict;
}

describe("sed scripts", () => {
  it.each([
    ["s/a/b/g", undefined],
    ["1,5d; /x/p", undefined],
    ["s|a|b|;s#x#y#", undefined],
    ["/^#/d", undefined],
    ["$!N;s/\\n/ /", undefined],
    ["y/abc/xyz/", undefined],
    ["/start/,/stop/{ s/a/b/; p }", undefined],
    ["a\\\nappended text", undefined],
    [":a;N;$!ba;s/\\n/,/g", undefined],
    ["s/test/best/g", undefined],
    ["s/foo/hello world/", undefined],
    ["w out.txt", "the sed script may use `w`, which writes a file Toolgate does not check"],
    ["s/a/b/w out.txt", "the sed script may use `w`, which writes a file Toolgate does not check"],
    ["1r header.txt", "the sed script may use `r`, which reads a file Toolgate does not check"],
    ["e id", "the sed script may use `e` (or `s///e`), which runs a shell command"],
    ["s/a/b/e", "the sed script may use `e` (or `s///e`), which runs a shell command"],
    ["s/a/b/ge", "the sed script may use `e` (or `s///e`), which runs a shell command"],
    ["1e", "the sed script may use `e` (or `s///e`), which runs a shell command"],
    ["/x/!e rm", "the sed script may use `e` (or `s///e`), which runs a shell command"],
  ] as [string, string | undefined][])("%j", (script, problem) => {
    expect(sedScriptProblem(script)).toBe(problem);
  });

  it("an allowed sed still may not run commands, and -i/w are writes through the path gate", () => {
    expect(verdict("sed 's/a/b/e' f", ["sed"])).toBe("unparseable");
    expect(verdict("sed -i s/a/b/ src/a.ts")).toBe("unsafe");
    expect(a.analyze("sed -i s/a/b/ src/a.ts", context({ allow: ["sed"] }))).toMatchObject({
      verdict: "safe",
      readOnly: false,
    });
    expect(verdict("sed -i s/a/b/ .git/config", ["sed"])).toBe("unsafe");
    expect(verdict("sed -ie s/a/b/ f")).toBe("unsafe");
    expect(verdict("sed -n 'w out.txt' f", ["sed"])).toBe("unparseable");
    expect(verdict("sed -n 'w /tmp/out' f", ["sed"])).toBe("unparseable");
    expect(verdict("sed '1r .env' f")).toBe("unparseable");
    expect(verdict("sed --sandbox -n p f")).toBe("safe");
  });
});

describe("awk programs", () => {
  it.each([
    ["{print $1}", undefined],
    ["$3 > 100 {print $1}", undefined],
    ["{ if ($1 > 5) print $2 }", undefined],
    ["NR % 2 == 0", undefined],
    ["/a|b/ { n++ } END { print n }", undefined],
    ["{ s += $1 } END { print s / NR }", undefined],
    ['$1 >= 3 || $2 == "x|y"', undefined],
    ['BEGIN { FS = ":" } { print $1 }', undefined],
    ['BEGIN{system("id")}', "the awk program calls `system`, which runs commands"],
    ['{print | "sh"}', "the awk program may pipe output to a command with `|`"],
    ['{ "date" | getline d }', "the awk program uses `getline`, which reads files or the output of commands"],
    ['{print > "/tmp/x"}', "the awk program may redirect output to a file with `>`"],
    ['{printf "%s", $1 >> "f"}', "the awk program may redirect output to a file with `>`"],
    [
      'BEGIN { while ((getline line < "/etc/passwd") > 0) print line }',
      "the awk program uses `getline`, which reads files or the output of commands",
    ],
    ['@load "filefuncs"', "the awk program uses a gawk directive or indirect call (`@load`, `@include`, `@f()`)"],
    ['BEGIN { x = 4; x++ / 2; system("id") }', "the awk program calls `system`, which runs commands"],
  ])("%j", (program, problem) => {
    expect(awkProgramProblem(program)).toBe(problem);
  });

  it("file operands are reads; assignments are not", () => {
    expect(verdict("awk '{print}' x=1 src/a.ts")).toBe("safe");
    expect(verdict("awk '{print}' .env")).toBe("unsafe");
    expect(verdict("awk -v n=3 -F, '{print $n}' data.csv")).toBe("safe");
    expect(verdict("gawk -e 'BEGIN{system(\"x\")}'")).toBe("unparseable");
  });
});

describe("git", () => {
  it.each([
    ["git status", "safe"],
    ["git -C packages/a log -3", "safe"],
    ["git --no-pager diff --stat", "safe"],
    ["git log --format=%h --output-indicator-new=+", "safe"],
    ["git diff --no-ext-diff --no-textconv", "safe"],
    ["git branch -vv", "safe"],
    ["git branch feature", "unsafe"],
    ["git branch -m old new", "unsafe"],
    ["git tag", "safe"],
    ["git tag v1.0", "unsafe"],
    ["git remote -v", "safe"],
    ["git remote add evil https://x", "unsafe"],
    ["git config --get user.name", "safe"],
    ["git config user.name x", "unsafe"],
    ["git stash show -p", "safe"],
    ["git stash pop", "unsafe"],
    ["git commit -m x", "unsafe"],
    ["git -c color.ui=always log", "safe"],
    ["git -c core.pager=cat log", "safe"],
    ["git -c core.pager=less log", "unparseable"],
    ["git -c core.fsmonitor=x status", "unparseable"],
    ["git --git-dir=/etc/.git log", "unparseable"],
    ["git -C /tmp log", "unsafe"],
    ["git show HEAD:secrets/key", "unsafe"],
    ["git cat-file -p HEAD:a", "safe"],
    ["git cat-file --filters HEAD:a", "unparseable"],
    ["git blame --contents .env a", "unsafe"],
    ["git grep -n TODO -- src", "safe"],
    ["git help log", "unsafe"],
    ["git lg", "unsafe"],
  ])("%j → %s", (command, expected) => {
    expect(a.analyze(command, context()).verdict).toBe(expected);
  });

  it("an allow rule licenses the subcommand, never configuration or dangerous options (a program they run: a hard ask)", () => {
    expect(verdict("git commit -m 'fix: x'", ["git commit"])).toBe("safe");
    expect(verdict("git -c core.hooksPath=/tmp commit -m x", ["git commit"])).toBe("unparseable");
    expect(verdict("git log --output=/tmp/x", ["git log"])).toBe("unsafe");
    expect(verdict("git push --receive-pack=x", ["git push"])).toBe("unparseable");
    expect(verdict("git fetch --upload-pack='sh -c id'", ["git fetch"])).toBe("unparseable");
    expect(verdict("git clone --template=/tmp/t https://x", ["git clone"])).toBe("unparseable");
  });

  it("git rm and git clean delete", () => {
    expect(a.analyze("git rm x", context({ allow: ["git rm"] }))).toMatchObject({ verdict: "unsafe", deletes: true });
    expect(a.analyze("git rm --cached x", context({ allow: ["git rm"] }))).toMatchObject({
      verdict: "safe",
      deletes: false,
    });
    expect(a.analyze("git clean -fd", context({ allow: ["git clean"] }))).toMatchObject({
      verdict: "unsafe",
      deletes: true,
    });
  });
});

describe("find", () => {
  it.each([
    ["find . -name '*.ts' -type f", "safe"],
    ["find src -newer package.json -print0", "safe"],
    ["find . -maxdepth 2 -name x -o -name y", "safe"],
    // The workspace root holds `.env` and `secrets/`: find reads them; `src` holds no ignored file.
    ["find . -exec grep -l x {} +", "unsafe"],
    ["find . -exec cat {} \\;", "unsafe"],
    ["find src -exec grep -l x {} +", "safe"],
    ["find src -exec cat {} \\;", "safe"],
    ["find secrets -exec cat {} \\;", "unsafe"],
    ["find / -name x", "unsafe"],
    ["find . -delete", "unsafe"],
    ["find . -fls out", "safe"],
    ["find . -fprint /tmp/x", "unsafe"],
    ["find . -exec sh -c 'echo {}' \\;", "unparseable"],
    ["find . -exec sh -c 'wget {}' \\;", "unparseable"],
    ["find . -exec", "unsafe"],
    ["find . -regextype posix-egrep -regex '.*'", "safe"],
    ["find * -name x", "unsafe"],
    ["find . -frobnicate", "unsafe"],
  ])("%j → %s", (command, expected) => {
    expect(a.analyze(command, context({ allow: ["find"] })).verdict).toBe(expected);
  });
});

describe("other programs", () => {
  it.each([
    ["rg -n TODO", "unsafe"],
    ["rg -n TODO src", "safe"],
    ["rg --files -g '*.ts'", "safe"],
    ["rg -z x src", "safe"],
    ["rg --pre=cat x", "unparseable"],
    ["rg --pr=cat x", "unparseable"],
    ["rg x --ignore-file .env", "unsafe"],
    ["grep -E 'a|b' -r src", "safe"],
    // The working directory holds `.env` and `secrets/`: a recursive read of it asks; `src` holds neither.
    ["grep -rn x", "unsafe"],
    ["grep -rn x src", "safe"],
    ["grep x /etc/passwd", "unsafe"],
    ["sort -k2 -t, data.csv", "safe"],
    ["sort -o sorted.txt data.csv", "safe"],
    ["sort -o ../sorted.txt data.csv", "unsafe"],
    ["sort --outp=x f", "safe"],
    ["sort --compress-prog=x f", "unparseable"],
    ["uniq in.txt out.txt", "safe"],
    ["uniq in.txt ~/out.txt", "unsafe"],
    ["tar -tvf x.tar", "safe"],
    ["tar --list --file=x.tar", "safe"],
    ["tar -czf out.tar.gz src", "unsafe"],
    ["tar -tf x.tar --use-compress-prog=sh", "unparseable"],
    ["tar -tf x.tar --force-local --file=a:b", "safe"],
    ["jq . package.json", "safe"],
    ["jq -n --arg x y '$x'", "safe"],
    ["jq . --slurpfile s .env", "unsafe"],
    ["head -c 100 /dev/urandom", "safe"],
    ["cat /dev/stdin", "safe"],
    ["echo x > /dev/null", "safe"],
    ["echo x > /dev/sda", "unsafe"],
    ["printf '%s' x", "safe"],
    ["printf -- '%s' x", "safe"],
    ['printf "$fmt" x', "unsafe"],
    ["date -u +%s", "safe"],
    ["date 0101", "unsafe"],
    ["hostname", "safe"],
    ["hostname evil", "unsafe"],
    ["uname -a", "safe"],
    ["cd src && ls", "safe"],
    ["cd && ls", "unsafe"],
    ["cd - && ls x", "unsafe"],
    ["pushd src && ls && popd", "safe"],
    ["export PATH=/tmp:$PATH", "unparseable"],
    ["export NODE_ENV=test", "safe"],
    ["declare -a arr", "safe"],
    ["declare -n ref=x", "unparseable"],
    ["local x=1", "safe"],
    ["read -r line", "safe"],
    ["read -a arr", "safe"],
    ["unset 'a[$(id)]'", "unparseable"],
    ["set -euo pipefail", "safe"],
    ["set -o vi", "unsafe"],
    ["set -k", "unsafe"],
    ["cp a.txt b.txt", "unsafe"],
    ["mkdir -p build", "unsafe"],
    ["ls --hyperlink=auto", "safe"],
    ["ls -l --frobnicate", "unsafe"],
    ["wc -l *.ts", "unsafe"],
    // wc reads each file's content: the pattern gate finds no ignored file `*.ts` can match; `secrets/*` can.
    ["wc -l -- *.ts", "safe"],
    ["wc -l -- secrets/*", "unsafe"],
    ["ls *", "safe"],
    ["tee out.txt < in.txt", "safe"],
    ["xargs -a list.txt echo", "safe"],
    ["xargs -a .env echo", "unsafe"],
    ["env -u HOME ls", "safe"],
    ["command -v git", "safe"],
    ["timeout 10 ls", "safe"],
    ["nohup ls", "safe"],
    ["time -o /tmp/t ls", "unsafe"],
    ["nice ls", "safe"],
    ["busybox ls", "safe"],
    ["watch -n 1 ls", "safe"],
    ["watch -n 1 'ls; wget x'", "unsafe"],
  ])("%j → %s", (command, expected) => {
    const r = a.analyze(command, context());
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe(expected);
  });

  it("writers need an allow rule, and their paths still pass the path gate", () => {
    expect(verdict("cp a.txt b.txt", ["cp"])).toBe("safe");
    expect(verdict("cp a.txt ~/.bashrc", ["cp"])).toBe("unsafe");
    expect(verdict("cp .env public.txt", ["cp"])).toBe("unsafe");
    expect(verdict("mv a b", ["mv"])).toBe("safe");
    expect(verdict("mv .git/hooks/x y", ["mv"])).toBe("unsafe");
    expect(verdict("chmod +x .husky/pre-commit", ["chmod"])).toBe("unsafe");
    expect(a.analyze("rm -rf build", context({ allow: ["rm"] }))).toMatchObject({
      verdict: "unsafe",
      deletes: true,
      reason: "`rm` deletes files",
    });
  });

  it("sudo needs its own allow rule that reaches into the command", () => {
    expect(verdict("sudo ls")).toBe("unsafe");
    expect(verdict("sudo apt update", ["sudo apt update"])).toBe("safe");
    expect(verdict("sudo apt install x", ["sudo apt update"])).toBe("unsafe");
    expect(verdict("sudo curl x", ["sudo"])).toBe("unsafe");
  });
});
