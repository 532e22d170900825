/**
 * Everyday commands must still be auto-approved (safe) when their programs are allowed or catalogued,
 * with the right read-only flag: a person should not be asked before `ls` or `git status`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const ALLOW = ["npm test", "npm run build", "npm run lint"];

/** [command, readOnly] */
const benign: [string, boolean][] = [
  ["git status && git diff", true],
  ["ls | wc -l", true],
  ["grep -rn x src 2>/dev/null", true],
  ['echo "$HOME"', true],
  ['echo "${HOME}"', true],
  ["echo 'a;b'", true],
  ["wc -l < README.md", true],
  ["cd packages/a && npm test 2>&1 | tee log.txt", false],
  ["git log --oneline -5", true],
  ["npm run build -- --watch", false],
  ["ls -la src | grep ts", true],
  ["find . -name '*.ts' -not -path './node_modules/*'", true],
  ["find src -type f -exec grep -l TODO {} +", true],
  ["cat package.json | jq .scripts", true],
  ["jq -r '.dependencies | keys[]' package.json", true],
  ["git diff --stat HEAD~1", true],
  ["git branch -a", true],
  ["git branch --list 'feat/*'", true],
  ["git tag -l", true],
  ["git show HEAD:src/a.ts", true],
  ["git log --format='%h %s' -n 10", true],
  ["git -C packages/a status", true],
  ["git --no-pager log -3", true],
  ["GIT_PAGER=cat git log -5", true],
  ["GIT_AUTHOR_NAME=x GIT_COMMITTER_NAME=x git log -1", true],
  ["PAGER=cat git diff", true],
  ["git -c color.ui=always log -1", true],
  ["git remote -v", true],
  ["git rev-parse --show-toplevel", true],
  ["git stash list", true],
  ["git blame -L 10,20 src/a.ts", true],
  ["git ls-files | grep test", true],
  ["head -n 20 src/a.ts", true],
  ["tail -50 log.txt", true],
  ["sed -n '1,20p' src/a.ts", true],
  ["sed -e 's/foo/bar/g' -e '/^$/d' src/a.ts", true],
  ["sed 's|a|b|; s/x/y/' f.txt", true],
  ["awk '{print $1}' file.txt", true],
  ["awk -F: '$3 > 100 {print $1}' passwd.txt", true],
  ["awk 'NR % 2 == 0 { print }' f", true],
  ["awk '{ if ($1 > 5) print $2 }' f", true],
  ["sort -u names.txt | uniq -c | sort -rn | head", true],
  ["tar -tzf archive.tar.gz", true],
  ["tar tvf archive.tar", true],
  ["rg -n TODO src", true],
  ["rg --files", true],
  ["diff -u a.txt b.txt", true],
  ["du -sh src", true],
  ["df -h", true],
  ["stat src/a.ts", true],
  ["file package.json", true],
  ["which node", true],
  ["type -a npm", true],
  ["command -v node", true],
  ["pwd", true],
  ["date +%Y-%m-%d", true],
  ["uname -a", true],
  ["whoami", true],
  ["echo $PATH", true],
  ["test -f package.json && echo yes", true],
  ["[ -d node_modules ] || echo missing", true],
  ['[ "$x" = "y" ] && echo same', true],
  ["[[ -f x && $y == z ]] && echo ok", true],
  ["printf '%s\\n' a b", true],
  ["cat README.md | head -5", true],
  ["env", true],
  ["printenv HOME", true],
  ["FOO=bar", true],
  ["CI=1 npm test", false],
  ["NODE_ENV=production npm run build", false],
  ["time npm test", false],
  ["timeout 60 npm test", false],
  ["npm test > /dev/null 2>&1", false],
  ["npm test &> test.log", false],
  ["git status --porcelain | wc -l", true],
  ["echo done # a comment", true],
  ["ls src/*.ts", true],
  ["wc -l -- src/a.ts src/b.ts", true],
  ["ls -d */", true],
  ["cat -- a.txt", true],
  ["basename $PWD", true],
  ['dirname "$(pwd)"', true],
  ["ls ~", false],
  ["cat <<'EOF'\n`rm x` $(rm y)\nEOF", true],
  ["cat <<EOF\nhello $USER\nEOF", true],
  ["mkdir -p build && npm run build", false],
  ["for f in a b c; do echo $f; done", true],
  ["if [ -f x ]; then cat x; else echo none; fi", true],
  ['while read -r line; do echo "$line"; done < list.txt', true],
  ["(cd src && ls)", true],
  ["{ ls; pwd; } 2>&1", true],
  ["echo hello > out.txt", false],
  ["echo a >> notes/log.md", false],
  ["ls -la | tee listing.txt", false],
  ["sort names.txt -o sorted.txt", false],
  ["xargs echo < list.txt", true],
  ["find . -name node_modules -prune -o -name '*.ts' -print", true],
  ["bash -c 'ls -la && git status'", true],
  ['sh -c "echo hi"', true],
  ["nice -n 10 npm test", false],
  ['echo "hello!"', true],
  ['[ "$a" != "$b" ] && echo differ', true],
  ["seq 1 10 | paste -sd+ | bc -l 2>/dev/null || true", false],
  ["ls -la ./.vscode", true],
  ["cat .vscode/settings.json", true],
  ["cat .git/HEAD", true],
  ["git diff -- src/a.ts", true],
  ["git log -p --follow -- src/a.ts", true],
  ["export CI=true && npm test", false],
  ["set -euo pipefail; npm test", false],
  [`cd ${WS}/src && ls`, true],
  ["tr a-z A-Z < in.txt", true],
  ["cut -d: -f1 passwd.txt", true],
  // `.env` and `secrets/key.pem` lie below `.`, and no file they select is one of them (recursiveSelection.test.ts).
  ["rg -l 'foo|bar' -g '*.ts'", true],
  ["grep -rn --include='*.ts' foo .", true],
  ["md5sum package.json", true],
  ["true", true],
  ["bash <<'EOF'\nls -la\ngit status\nEOF", true],
  ["bash -s <<< 'git log -1'", true],
];

describe("benign commands stay auto-approvable", () => {
  it.each(benign)("%j", (command, readOnly) => {
    // `bc` is not catalogued: the line with it asks unless allowed.
    const ctx = context({
      allow: [
        ...ALLOW,
        ...(command.includes("bc -l") ? ["bc"] : []),
        ...(command.startsWith("mkdir") ? ["mkdir"] : []),
      ],
    });
    const r = a.analyze(command, ctx);
    if (command === "ls ~") {
      // Listing the home directory reads outside the workspace: asks.
      expect(r.verdict).toBe("unsafe");
      return;
    }
    expect(r.verdict, `${r.reason} [${r.rule}]`).toBe("safe");
    expect(r.readOnly).toBe(readOnly);
    expect(r.deletes).toBe(false);
  });
});
