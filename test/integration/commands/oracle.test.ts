/**
 * The execution oracle (test/oracle): generated lines decided by the real gate under five settings profiles;
 * each line some profile allows runs in real bash inside a bubblewrap sandbox whose every program is a
 * logging shim; an allowed line must run only what the gate listed, write only what it decided, and read no
 * ignored, denied or (when allowed as safe) outside file.
 *
 * ORACLE_RUNS (lines, default 500), ORACLE_SEED, ORACLE_JOBS (sandboxes in parallel, default 2),
 * ORACLE_LINE (one line: print what each profile decided and any violation), ORACLE_FINDINGS=1 (three runs
 * united: rewrite test/oracle/FINDINGS.md and write the KNOWN_VIOLATIONS entries to /tmp/oracle-known.txt).
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findingsMarkdown, knownViolationsSource } from "../../oracle/findingsReport";
import { FIND_LINES, generateLines } from "../../oracle/generators";
import { mutation } from "../../oracle/instrument";
import { Oracle, reproduction, type Finding, type OracleReport } from "../../oracle/oracle";
import { bwrapProblem } from "../../oracle/sandbox";
import type * as Catalogue from "../../../src/core/commands/catalogue/index";

// Every catalogue entry goes through the recorder (and the mutation switch): see test/oracle/instrument.ts.
vi.mock("../../../src/core/commands/catalogue/index", async (importOriginal) => {
  const original = await importOriginal<typeof Catalogue>();
  const { instrumentEntry } = await import("../../oracle/instrument");
  return { ...original, catalogueEntry: (p: string) => instrumentEntry(p, original.catalogueEntry(p)) };
});

const RUNS = Number(process.env.ORACLE_RUNS ?? 500);
const SEED = Number(process.env.ORACLE_SEED ?? 20261201);
const JOBS = Number(process.env.ORACLE_JOBS ?? 2);
/** Share of everyday lines the defaults profile must allow (measured: 44 of 48, 0.92). */
const EVERYDAY_ALLOWED = 0.85;

/**
 * Violations on today's main, tolerated (and printed) until the command-analysis fixes land: exact line and
 * profile, never a pattern. Empty it as the fixes merge; a line fixed here is reported as stale.
 */
const KNOWN_VIOLATIONS: readonly { readonly profile: string; readonly line: string }[] = [
  // KNOWN-BEGIN
  { profile: "defaults", line: "echo ${x:=`rm -f CHANGES.md`}" },
  { profile: "typical", line: "echo ${x:=`rm -f CHANGES.md`}" },
  { profile: "typical+all", line: "echo ${x:=`rm -f CHANGES.md`}" },
  { profile: "plan", line: "echo ${x:=`rm -f CHANGES.md`}" },
  { profile: "auto", line: "echo ${x:=`rm -f CHANGES.md`}" },
  { profile: "typical+all", line: "tar -tf archive.tar --use-compress-program='touch PWNED'; echo done" },
  { profile: "auto", line: "tar -tf archive.tar --use-compress-program='touch PWNED'; echo done" },
  { profile: "typical+all", line: "export BASH_ENV=../outside/x.sh; bash -c true" },
  { profile: "auto", line: "export BASH_ENV=../outside/x.sh; bash -c true" },
  { profile: "defaults", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md | cat README.md" },
  { profile: "typical", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md | cat README.md" },
  { profile: "typical+all", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md | cat README.md" },
  { profile: "plan", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md | cat README.md" },
  { profile: "auto", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md | cat README.md" },
  { profile: "typical+all", line: "cat src/private.ts" },
  { profile: "auto", line: "cat src/private.ts" },
  { profile: "typical+all", line: "ENV=../outside/x.sh sh -i -c true" },
  { profile: "auto", line: "ENV=../outside/x.sh sh -i -c true" },
  { profile: "typical+all", line: "for PATH in ../outside; do ls; done && date +%Y" },
  { profile: "auto", line: "for PATH in ../outside; do ls; done && date +%Y" },
  { profile: "typical", line: "grep -r x src" },
  { profile: "typical+all", line: "grep -r x src" },
  { profile: "auto", line: "grep -r x src" },
  { profile: "typical", line: "git show --stat HEAD; grep -r x src" },
  { profile: "typical+all", line: "git show --stat HEAD; grep -r x src" },
  { profile: "auto", line: "git show --stat HEAD; grep -r x src" },
  { profile: "defaults", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical+all", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "plan", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "auto", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical", line: "grep -rn privateKey src" },
  { profile: "typical+all", line: "grep -rn privateKey src" },
  { profile: "auto", line: "grep -rn privateKey src" },
  { profile: "typical+all", line: "printf -v BASH_ENV %s ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "auto", line: "printf -v BASH_ENV %s ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "typical+all", line: 'find src -exec touch {} \\;; echo "$HOME"' },
  { profile: "auto", line: 'find src -exec touch {} \\;; echo "$HOME"' },
  { profile: "typical+all", line: "LESSOPEN='|touch PWNED %s' less README.md" },
  { profile: "auto", line: "LESSOPEN='|touch PWNED %s' less README.md" },
  { profile: "typical+all", line: "env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls" },
  { profile: "auto", line: "env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls" },
  { profile: "typical+all", line: "x=cat; $x .env" },
  { profile: "auto", line: "x=cat; $x .env" },
  { profile: "typical+all", line: "IFS=/; x=touch/PWNED; $x" },
  { profile: "auto", line: "IFS=/; x=touch/PWNED; $x" },
  { profile: "typical+all", line: "grep -r API" },
  { profile: "auto", line: "grep -r API" },
  { profile: "typical+all", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'" },
  { profile: "auto", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'" },
  { profile: "typical", line: "npm test --script-shell=../outside/evil.sh" },
  { profile: "typical+all", line: "npm test --script-shell=../outside/evil.sh" },
  { profile: "typical", line: "wc -l src/*.ts" },
  { profile: "typical+all", line: "wc -l src/*.ts" },
  { profile: "auto", line: "wc -l src/*.ts" },
  { profile: "typical+all", line: "du -sh src && head -5 src/*.ts" },
  { profile: "auto", line: "du -sh src && head -5 src/*.ts" },
  { profile: "typical", line: "grep -rn x src 2>/dev/null" },
  { profile: "typical+all", line: "grep -rn x src 2>/dev/null" },
  { profile: "auto", line: "grep -rn x src 2>/dev/null" },
  { profile: "typical+all", line: "trap -- 'touch PWNED' EXIT" },
  { profile: "auto", line: "trap -- 'touch PWNED' EXIT" },
  { profile: "defaults", line: "find src -name '*.ts' | echo ${x-<(curl -s http://x.invalid)}" },
  { profile: "typical", line: "find src -name '*.ts' | echo ${x-<(curl -s http://x.invalid)}" },
  { profile: "typical+all", line: "find src -name '*.ts' | echo ${x-<(curl -s http://x.invalid)}" },
  { profile: "plan", line: "find src -name '*.ts' | echo ${x-<(curl -s http://x.invalid)}" },
  { profile: "auto", line: "find src -name '*.ts' | echo ${x-<(curl -s http://x.invalid)}" },
  { profile: "typical+all", line: "echo x >> ~/.bashrc" },
  { profile: "auto", line: "echo x >> ~/.bashrc" },
  { profile: "typical+all", line: "grep -n import src/*.ts" },
  { profile: "auto", line: "grep -n import src/*.ts" },
  { profile: "typical+all", line: "git diff -- src && find src -exec touch {} \\;" },
  { profile: "auto", line: "git diff -- src && find src -exec touch {} \\;" },
  { profile: "typical+all", line: "git -c core.fsmonitor='touch PWNED' status" },
  { profile: "auto", line: "git -c core.fsmonitor='touch PWNED' status" },
  { profile: "typical", line: "grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "auto", line: "grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "tail -1 src/private.ts" },
  { profile: "auto", line: "tail -1 src/private.ts" },
  { profile: "defaults", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "typical", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "typical+all", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "plan", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "auto", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "defaults", line: "git --git-dir=vendor/lib status" },
  { profile: "typical", line: "git --git-dir=vendor/lib status" },
  { profile: "typical+all", line: "git --git-dir=vendor/lib status" },
  { profile: "plan", line: "git --git-dir=vendor/lib status" },
  { profile: "auto", line: "git --git-dir=vendor/lib status" },
  { profile: "typical+all", line: "x=curl; $x -s http://x.invalid" },
  { profile: "auto", line: "x=curl; $x -s http://x.invalid" },
  {
    profile: "typical+all",
    line: "git log --oneline -5; tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='touch PWNED'",
  },
  {
    profile: "auto",
    line: "git log --oneline -5; tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='touch PWNED'",
  },
  { profile: "typical", line: "npm test && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "npm test && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "auto", line: "npm test && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "defaults", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "typical", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "typical+all", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "plan", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "auto", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "typical+all", line: "printf -v PATH %s ../outside; ls && git show --stat HEAD" },
  { profile: "auto", line: "printf -v PATH %s ../outside; ls && git show --stat HEAD" },
  { profile: "typical+all", line: "echo 'a;b' || : ${PATH:=x}; PATH=../outside; git status" },
  { profile: "auto", line: "echo 'a;b' || : ${PATH:=x}; PATH=../outside; git status" },
  { profile: "typical+all", line: "set -o xtrace; PS4='$(touch PWNED)'; true" },
  { profile: "auto", line: "set -o xtrace; PS4='$(touch PWNED)'; true" },
  { profile: "typical+all", line: "mkdir -p .vscode; echo {} > .vscode/settings.json" },
  { profile: "auto", line: "mkdir -p .vscode; echo {} > .vscode/settings.json" },
  { profile: "typical+all", line: "echo x > .toolgateignore" },
  { profile: "auto", line: "echo x > .toolgateignore" },
  { profile: "typical+all", line: "[ -d src ] && ls src | cat src/*" },
  { profile: "auto", line: "[ -d src ] && ls src | cat src/*" },
  { profile: "typical", line: "npm test --script-shell=../outside/evil.sh; git log --oneline -5" },
  { profile: "typical+all", line: "npm test --script-shell=../outside/evil.sh; git log --oneline -5" },
  { profile: "typical+all", line: "head -5 src/*.ts" },
  { profile: "auto", line: "head -5 src/*.ts" },
  { profile: "defaults", line: "grep -d recurse TOKEN" },
  { profile: "typical", line: "grep -d recurse TOKEN" },
  { profile: "typical+all", line: "grep -d recurse TOKEN" },
  { profile: "plan", line: "grep -d recurse TOKEN" },
  { profile: "auto", line: "grep -d recurse TOKEN" },
  { profile: "typical+all", line: "flock /tmp/lk -c 'wc -l README.md'" },
  { profile: "auto", line: "flock /tmp/lk -c 'wc -l README.md'" },
  { profile: "defaults", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "plan", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "auto", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"' | du -sh src" },
  { profile: "auto", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"' | du -sh src" },
  { profile: "typical+all", line: "flock /tmp/lk -c 'cat ../outside/notes.txt'" },
  { profile: "auto", line: "flock /tmp/lk -c 'cat ../outside/notes.txt'" },
  { profile: "typical+all", line: "cat src/*" },
  { profile: "auto", line: "cat src/*" },
  { profile: "typical+all", line: "printf -v 'a[$(cat .env)]' x" },
  { profile: "auto", line: "printf -v 'a[$(cat .env)]' x" },
  { profile: "defaults", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "typical", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "typical+all", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "plan", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "auto", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "typical+all", line: "awk 'BEGIN { system(\"curl -s http://x.invalid\") }'" },
  { profile: "auto", line: "awk 'BEGIN { system(\"curl -s http://x.invalid\") }'" },
  { profile: "typical+all", line: "tar -cf /tmp/t.tar ." },
  { profile: "auto", line: "tar -cf /tmp/t.tar ." },
  { profile: "typical", line: "cd .. && cd outside && make" },
  { profile: "typical+all", line: "cd .. && cd outside && make" },
  { profile: "defaults", line: "wc -l src/*.ts && git log -p -1" },
  { profile: "typical", line: "wc -l src/*.ts && git log -p -1" },
  { profile: "typical+all", line: "wc -l src/*.ts && git log -p -1" },
  { profile: "plan", line: "wc -l src/*.ts && git log -p -1" },
  { profile: "auto", line: "wc -l src/*.ts && git log -p -1" },
  { profile: "typical+all", line: "PATH=../outside ls" },
  { profile: "auto", line: "PATH=../outside ls" },
  { profile: "typical", line: "cat src/a.ts | grep import; find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "typical+all", line: "cat src/a.ts | grep import; find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "auto", line: "cat src/a.ts | grep import; find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "typical+all", line: "diff src/a.ts src/private.ts || git show --stat HEAD" },
  { profile: "auto", line: "diff src/a.ts src/private.ts || git show --stat HEAD" },
  { profile: "typical+all", line: "awk 'BEGIN { system(\"curl -s http://x.invalid\") }' | cat -n src/b.ts" },
  { profile: "auto", line: "awk 'BEGIN { system(\"curl -s http://x.invalid\") }' | cat -n src/b.ts" },
  { profile: "typical+all", line: 'awk \'{ print "touch PWNED" | "sh" }\' README.md' },
  { profile: "auto", line: 'awk \'{ print "touch PWNED" | "sh" }\' README.md' },
  { profile: "typical+all", line: "grep -n import src/*.ts || find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "auto", line: "grep -n import src/*.ts || find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical+all", line: "echo rm -f CHANGES.md | sh" },
  { profile: "auto", line: "echo rm -f CHANGES.md | sh" },
  { profile: "typical", line: "make -C ../outside" },
  { profile: "typical+all", line: "make -C ../outside" },
  { profile: "typical+all", line: "echo 'touch PWNED' | bash" },
  { profile: "auto", line: "echo 'touch PWNED' | bash" },
  { profile: "typical+all", line: "cat -n src/b.ts | grep -rl TOKEN ." },
  { profile: "auto", line: "cat -n src/b.ts | grep -rl TOKEN ." },
  { profile: "typical+all", line: "export PATH=../outside:$PATH; cat README.md" },
  { profile: "auto", line: "export PATH=../outside:$PATH; cat README.md" },
  { profile: "typical", line: "find src -name '*.ts' -exec wc -l {} \\;; which git" },
  { profile: "typical+all", line: "find src -name '*.ts' -exec wc -l {} \\;; which git" },
  { profile: "auto", line: "find src -name '*.ts' -exec wc -l {} \\;; which git" },
  { profile: "typical+all", line: "trap -- 'touch PWNED' EXIT; ls" },
  { profile: "auto", line: "trap -- 'touch PWNED' EXIT; ls" },
  { profile: "typical+all", line: "diff src/a.ts src/private.ts" },
  { profile: "auto", line: "diff src/a.ts src/private.ts" },
  { profile: "typical+all", line: "eval -- rm -f CHANGES.md" },
  { profile: "auto", line: "eval -- rm -f CHANGES.md" },
  { profile: "typical+all", line: "ls -la && diff src/a.ts src/private.ts" },
  { profile: "auto", line: "ls -la && diff src/a.ts src/private.ts" },
  { profile: "typical+all", line: "tar -tf archive.tar --use-compress-program='touch PWNED'" },
  { profile: "auto", line: "tar -tf archive.tar --use-compress-program='touch PWNED'" },
  { profile: "typical+all", line: "eval -- touch PWNED" },
  { profile: "auto", line: "eval -- touch PWNED" },
  { profile: "typical+all", line: "cat src/private.ts && tr a-z A-Z < README.md" },
  { profile: "auto", line: "cat src/private.ts && tr a-z A-Z < README.md" },
  { profile: "typical+all", line: "awk '{ print | \"sh\" }' README.md" },
  { profile: "auto", line: "awk '{ print | \"sh\" }' README.md" },
  { profile: "typical+all", line: "sed '1e touch PWNED' README.md" },
  { profile: "auto", line: "sed '1e touch PWNED' README.md" },
  { profile: "typical", line: "pwd | make -f ../outside/Makefile" },
  { profile: "typical+all", line: "pwd | make -f ../outside/Makefile" },
  { profile: "typical+all", line: "trap -- 'curl -s http://x.invalid' EXIT" },
  { profile: "auto", line: "trap -- 'curl -s http://x.invalid' EXIT" },
  { profile: "typical+all", line: 'tail -1 src/private.ts | for f in src/a.ts src/b.ts; do wc -l "$f"; done' },
  { profile: "auto", line: 'tail -1 src/private.ts | for f in src/a.ts src/b.ts; do wc -l "$f"; done' },
  { profile: "typical+all", line: "git diff -- src && grep -n import src/*.ts" },
  { profile: "auto", line: "git diff -- src && grep -n import src/*.ts" },
  {
    profile: "typical+all",
    line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md | grep -n import src/*.ts",
  },
  {
    profile: "auto",
    line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md | grep -n import src/*.ts",
  },
  { profile: "typical", line: "npm test --prefix ../outside" },
  { profile: "typical+all", line: "npm test --prefix ../outside" },
  { profile: "defaults", line: "printf '%s\\n' a b; find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical", line: "printf '%s\\n' a b; find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "printf '%s\\n' a b; find . -execdir sh -c 'ls {}' \\;" },
  { profile: "plan", line: "printf '%s\\n' a b; find . -execdir sh -c 'ls {}' \\;" },
  { profile: "auto", line: "printf '%s\\n' a b; find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: 'echo "$HOME" | head -5 src/*.ts' },
  { profile: "auto", line: 'echo "$HOME" | head -5 src/*.ts' },
  { profile: "defaults", line: "cat README.md; grep -d recurse TOKEN" },
  { profile: "typical", line: "cat README.md; grep -d recurse TOKEN" },
  { profile: "typical+all", line: "cat README.md; grep -d recurse TOKEN" },
  { profile: "plan", line: "cat README.md; grep -d recurse TOKEN" },
  { profile: "auto", line: "cat README.md; grep -d recurse TOKEN" },
  { profile: "typical+all", line: "printf -v PATH %s ../outside; ls" },
  { profile: "auto", line: "printf -v PATH %s ../outside; ls" },
  { profile: "defaults", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "plan", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "auto", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "echo 'curl -s http://x.invalid' | bash" },
  { profile: "auto", line: "echo 'curl -s http://x.invalid' | bash" },
  { profile: "typical+all", line: "sed -n p src/private.ts" },
  { profile: "auto", line: "sed -n p src/private.ts" },
  { profile: "typical+all", line: "env | grep -c PATH && : ${PATH:=x}; PATH=../outside; git status" },
  { profile: "auto", line: "env | grep -c PATH && : ${PATH:=x}; PATH=../outside; git status" },
  { profile: "typical", line: "make -f ../outside/Makefile" },
  { profile: "typical+all", line: "make -f ../outside/Makefile" },
  { profile: "typical+all", line: "grep -rn x src 2>/dev/null || xargs cat README.md <<< x" },
  { profile: "auto", line: "grep -rn x src 2>/dev/null || xargs cat README.md <<< x" },
  { profile: "defaults", line: "git log -p -1" },
  { profile: "typical", line: "git log -p -1" },
  { profile: "typical+all", line: "git log -p -1" },
  { profile: "plan", line: "git log -p -1" },
  { profile: "auto", line: "git log -p -1" },
  { profile: "defaults", line: "find docs -exec sh -c 'echo {}' \\; | tr a-z A-Z < README.md" },
  { profile: "typical", line: "find docs -exec sh -c 'echo {}' \\; | tr a-z A-Z < README.md" },
  { profile: "typical+all", line: "find docs -exec sh -c 'echo {}' \\; | tr a-z A-Z < README.md" },
  { profile: "plan", line: "find docs -exec sh -c 'echo {}' \\; | tr a-z A-Z < README.md" },
  { profile: "auto", line: "find docs -exec sh -c 'echo {}' \\; | tr a-z A-Z < README.md" },
  { profile: "typical", line: "make -f ../outside/Makefile; diff src/a.ts src/b.ts" },
  { profile: "typical+all", line: "make -f ../outside/Makefile; diff src/a.ts src/b.ts" },
  { profile: "typical+all", line: "sh -c '\"$@\"' sh cat .env" },
  { profile: "auto", line: "sh -c '\"$@\"' sh cat .env" },
  { profile: "typical+all", line: "BASH_ENV=../outside/x.sh bash -c true" },
  { profile: "auto", line: "BASH_ENV=../outside/x.sh bash -c true" },
  { profile: "defaults", line: "grep -d recurse TOKEN; jq .name package.json" },
  { profile: "typical", line: "grep -d recurse TOKEN; jq .name package.json" },
  { profile: "typical+all", line: "grep -d recurse TOKEN; jq .name package.json" },
  { profile: "plan", line: "grep -d recurse TOKEN; jq .name package.json" },
  { profile: "auto", line: "grep -d recurse TOKEN; jq .name package.json" },
  { profile: "typical+all", line: "sed -n p src/private.ts || git diff -- src" },
  { profile: "auto", line: "sed -n p src/private.ts || git diff -- src" },
  { profile: "typical+all", line: "find src -name '*.ts' && tar -cf /tmp/t.tar ." },
  { profile: "auto", line: "find src -name '*.ts' && tar -cf /tmp/t.tar ." },
  { profile: "typical+all", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'; sort README.md | uniq -c" },
  { profile: "auto", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'; sort README.md | uniq -c" },
  { profile: "typical+all", line: "PATH=../outside:$PATH; ls" },
  { profile: "auto", line: "PATH=../outside:$PATH; ls" },
  { profile: "typical+all", line: "grep -n import src/*.ts && date -f .env" },
  { profile: "auto", line: "grep -n import src/*.ts && date -f .env" },
  { profile: "typical", line: "find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "typical+all", line: "find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "auto", line: "find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "typical+all", line: "echo touch PWNED | sh" },
  { profile: "auto", line: "echo touch PWNED | sh" },
  { profile: "typical", line: "find src -name '*.ts' -exec wc -l {} \\;" },
  { profile: "typical+all", line: "find src -name '*.ts' -exec wc -l {} \\;" },
  { profile: "auto", line: "find src -name '*.ts' -exec wc -l {} \\;" },
  { profile: "typical+all", line: "grep -R API ." },
  { profile: "auto", line: "grep -R API ." },
  { profile: "defaults", line: "git --git-dir=vendor/lib --work-tree=vendor status" },
  { profile: "typical", line: "git --git-dir=vendor/lib --work-tree=vendor status" },
  { profile: "typical+all", line: "git --git-dir=vendor/lib --work-tree=vendor status" },
  { profile: "plan", line: "git --git-dir=vendor/lib --work-tree=vendor status" },
  { profile: "auto", line: "git --git-dir=vendor/lib --work-tree=vendor status" },
  { profile: "typical+all", line: "grep -rl TOKEN ." },
  { profile: "auto", line: "grep -rl TOKEN ." },
  { profile: "typical+all", line: "git config --global user.name x" },
  { profile: "auto", line: "git config --global user.name x" },
  {
    profile: "typical+all",
    line: "grep -rn TODO src docs 2>/dev/null | head -5 && printf -v 'a[$(cat ../outside/notes.txt)]' x",
  },
  {
    profile: "auto",
    line: "grep -rn TODO src docs 2>/dev/null | head -5 && printf -v 'a[$(cat ../outside/notes.txt)]' x",
  },
  { profile: "typical+all", line: "diff src/a.ts src/private.ts | grep -rn x src 2>/dev/null" },
  { profile: "auto", line: "diff src/a.ts src/private.ts | grep -rn x src 2>/dev/null" },
  { profile: "typical+all", line: "git rev-parse --show-toplevel; `echo rm` -f CHANGES.md" },
  { profile: "auto", line: "git rev-parse --show-toplevel; `echo rm` -f CHANGES.md" },
  { profile: "defaults", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical+all", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "plan", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "auto", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical", line: "wc -l src/*.ts | echo x > /dev/null" },
  { profile: "typical+all", line: "wc -l src/*.ts | echo x > /dev/null" },
  { profile: "auto", line: "wc -l src/*.ts | echo x > /dev/null" },
  { profile: "typical+all", line: "tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='touch PWNED'" },
  { profile: "auto", line: "tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='touch PWNED'" },
  { profile: "typical+all", line: "test -v 'a[$(rm -f CHANGES.md)]'" },
  { profile: "auto", line: "test -v 'a[$(rm -f CHANGES.md)]'" },
  { profile: "defaults", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "typical", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "typical+all", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "plan", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "typical+all", line: "echo curl -s http://x.invalid | sh" },
  { profile: "auto", line: "echo curl -s http://x.invalid | sh" },
  { profile: "typical+all", line: ": ${PATH:=x}; PATH=../outside; git status" },
  { profile: "auto", line: ": ${PATH:=x}; PATH=../outside; git status" },
  { profile: "typical+all", line: "env | grep -c PATH; find src -exec touch {} \\;" },
  { profile: "auto", line: "env | grep -c PATH; find src -exec touch {} \\;" },
  { profile: "typical+all", line: "p=cat; ${p} .env" },
  { profile: "auto", line: "p=cat; ${p} .env" },
  { profile: "defaults", line: "which git; find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical", line: "which git; find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical+all", line: "which git; find docs -exec bash -c 'echo {}' \\;" },
  { profile: "plan", line: "which git; find docs -exec bash -c 'echo {}' \\;" },
  { profile: "auto", line: "which git; find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical+all", line: "cat src/../.env && wc -l src/*.ts" },
  { profile: "auto", line: "cat src/../.env && wc -l src/*.ts" },
  { profile: "typical", line: "make -C ../outside | basename src/a.ts" },
  { profile: "typical+all", line: "make -C ../outside | basename src/a.ts" },
  { profile: "typical+all", line: "git -c alias.st='!touch PWNED' st" },
  { profile: "auto", line: "git -c alias.st='!touch PWNED' st" },
  { profile: "typical+all", line: "IFS=,; x=touch,PWNED; $x" },
  { profile: "auto", line: "IFS=,; x=touch,PWNED; $x" },
  { profile: "typical+all", line: "read PATH <<< ../outside; ls" },
  { profile: "auto", line: "read PATH <<< ../outside; ls" },
  {
    profile: "typical+all",
    line: "head -n 3 README.md && tail -n 2 README.md; env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls",
  },
  {
    profile: "auto",
    line: "head -n 3 README.md && tail -n 2 README.md; env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls",
  },
  { profile: "typical+all", line: "grep -rn TODO src docs 2>/dev/null | head -5 && cat ~/.ssh/id_rsa" },
  { profile: "auto", line: "grep -rn TODO src docs 2>/dev/null | head -5 && cat ~/.ssh/id_rsa" },
  { profile: "typical+all", line: "grep -rn TODO src docs 2>/dev/null | head -5; ls > /tmp/list" },
  { profile: "auto", line: "grep -rn TODO src docs 2>/dev/null | head -5; ls > /tmp/list" },
  { profile: "typical+all", line: "grep -n import src/*.ts && git status && git diff" },
  { profile: "auto", line: "grep -n import src/*.ts && git status && git diff" },
  // KNOWN-END
];

const key = (profile: string, line: string) => `${profile}\u0000${line}`;

function unite(a: OracleReport, b: OracleReport): OracleReport {
  const seen = new Set(a.findings.map((f) => key(f.profile, f.line)));
  return { ...a, findings: [...a.findings, ...b.findings.filter((f) => !seen.has(key(f.profile, f.line)))] };
}
const problem = bwrapProblem();

describe.skipIf(problem !== undefined)("execution oracle", () => {
  let oracle: Oracle;
  beforeAll(async () => {
    oracle = await Oracle.create(JOBS);
  }, 120_000);
  afterAll(() => oracle?.dispose());

  it.runIf(process.env.ORACLE_LINE !== undefined)(
    "one line (ORACLE_LINE)",
    async () => {
      const line = process.env.ORACLE_LINE!;
      for (const d of oracle.decisions(line))
        console.log(
          `${d.profile}: ${d.decision.decision} [${d.decision.rule}] ${d.analysis?.verdict ?? ""} ${d.decision.reason}`,
        );
      const report = await oracle.run([{ line, family: "everyday" }]);
      for (const f of report.findings) console.log(reproduction(f));
    },
    60_000,
  );

  it.skipIf(process.env.ORACLE_LINE !== undefined)(
    "an allowed line runs only what the gate listed, writes only what it decided, reads no protected file",
    async () => {
      const lines = generateLines(RUNS, SEED);
      let report = await oracle.run(lines);
      // Writing the findings: a few runs, united, so that a line that violates only when it wins a race
      // (a pipe's reader exiting early) is listed too.
      for (let i = 1; process.env.ORACLE_FINDINGS && i < 3; i++) report = unite(report, await oracle.run(lines));
      const allowedShare = report.everyday.allowedByDefaults / Math.max(1, report.everyday.total);
      console.log(
        `oracle: ${report.lines} lines, ${report.executed} run in bash in ${report.ms} ms; allowed per profile ${JSON.stringify(report.allowed)}; everyday allowed by defaults ${report.everyday.allowedByDefaults}/${report.everyday.total}; ${report.timedOut} timed out; ${report.findings.length} violating (line, profile) pairs`,
      );
      if (process.env.ORACLE_FINDINGS) {
        writeFileSync("test/oracle/FINDINGS.md", findingsMarkdown(report, SEED));
        writeFileSync("/tmp/oracle-known.txt", knownViolationsSource(report));
      }
      const known = new Set(KNOWN_VIOLATIONS.map((k) => key(k.profile, k.line)));
      const tolerated: Finding[] = [];
      const fresh: Finding[] = [];
      for (const f of report.findings) (known.has(key(f.profile, f.line)) ? tolerated : fresh).push(f);
      if (tolerated.length > 0)
        console.warn(
          `ORACLE: ${tolerated.length} KNOWN violations still present (tolerated until the fixes land; see test/oracle/FINDINGS.md):\n` +
            tolerated
              .map((f) => `  [${f.profile}] ${JSON.stringify(f.line)} — ${f.violations.map((v) => v.kind).join(", ")}`)
              .join("\n"),
        );
      const found = new Set(report.findings.map((f) => key(f.profile, f.line)));
      const stale = KNOWN_VIOLATIONS.filter((k) => !found.has(key(k.profile, k.line)));
      if (stale.length > 0 && RUNS === 500 && SEED === 20261201)
        console.warn(
          `ORACLE: ${stale.length} KNOWN_VIOLATIONS entries no longer violate (remove them):\n` +
            stale.map((k) => `  [${k.profile}] ${JSON.stringify(k.line)}`).join("\n"),
        );
      expect(fresh.map(reproduction)).toEqual([]);
      // A gate that asks about everything would pass the check above: the everyday lines must run unasked.
      expect(allowedShare).toBeGreaterThanOrEqual(EVERYDAY_ALLOWED);
    },
    600_000,
  );

  it.skipIf(process.env.ORACLE_LINE !== undefined)(
    "turns red when one catalogue check is removed (find's -exec commands no longer judged)",
    async () => {
      const lines = FIND_LINES.map((line) => ({ line, family: "find" as const }));
      const before = new Map(lines.map((l) => [l.line, oracle.decisions(l.line)]));
      mutation.program = "find";
      let report;
      try {
        report = await oracle.run(lines);
      } finally {
        mutation.program = undefined;
      }
      // Violations the mutation caused: on lines the real gate does not allow under that profile.
      const caused = report.findings.filter(
        (f) => before.get(f.line)?.find((d) => d.profile === f.profile)?.decision.decision !== "allow",
      );
      console.log(
        `oracle mutation run: ${caused.length} violations caused by removing find's -exec check, e.g.\n${caused[0] ? reproduction(caused[0]) : ""}`,
      );
      expect(caused.length).toBeGreaterThan(0);
    },
    300_000,
  );
});

describe.runIf(problem !== undefined)("execution oracle (skipped)", () => {
  it.skip(`needs bubblewrap: ${problem} — .ci/run installs it (apt-get install bubblewrap)`, () => {});
});
