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
/** Share of everyday lines the defaults profile must allow (measured: 44 of 47, 0.94). */
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
  { profile: "typical+all", line: "printf -v PATH %s ../outside; ls; echo done" },
  { profile: "auto", line: "printf -v PATH %s ../outside; ls; echo done" },
  { profile: "defaults", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "typical", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "typical+all", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "plan", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "auto", line: "echo `echo \\`rm -f CHANGES.md\\``" },
  { profile: "typical+all", line: "sed -n p src/private.ts" },
  { profile: "auto", line: "sed -n p src/private.ts" },
  { profile: "defaults", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "typical", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "typical+all", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "plan", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "auto", line: "sed 's/[/]*$/ #/e' README.md" },
  { profile: "typical+all", line: "ENV=../outside/x.sh sh -i -c true" },
  { profile: "auto", line: "ENV=../outside/x.sh sh -i -c true" },
  { profile: "defaults", line: 'git -C vendor --git-dir=lib status || echo "$HOME"' },
  { profile: "typical", line: 'git -C vendor --git-dir=lib status || echo "$HOME"' },
  { profile: "typical+all", line: 'git -C vendor --git-dir=lib status || echo "$HOME"' },
  { profile: "plan", line: 'git -C vendor --git-dir=lib status || echo "$HOME"' },
  { profile: "auto", line: 'git -C vendor --git-dir=lib status || echo "$HOME"' },
  { profile: "typical+all", line: "tr a-z A-Z < README.md | grep -n import src/*.ts" },
  { profile: "auto", line: "tr a-z A-Z < README.md | grep -n import src/*.ts" },
  { profile: "defaults", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical+all", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "plan", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "auto", line: "find docs -type f -exec sh -c 'wc -c \"{}\"' \\;" },
  { profile: "typical", line: "git show --stat HEAD; grep -r x src" },
  { profile: "typical+all", line: "git show --stat HEAD; grep -r x src" },
  { profile: "auto", line: "git show --stat HEAD; grep -r x src" },
  { profile: "typical+all", line: "env -iS 'cat .env'" },
  { profile: "auto", line: "env -iS 'cat .env'" },
  { profile: "typical", line: "make -C ../outside" },
  { profile: "typical+all", line: "make -C ../outside" },
  { profile: "typical+all", line: "tar -tf archive.tar --use-compress-program='touch PWNED'" },
  { profile: "auto", line: "tar -tf archive.tar --use-compress-program='touch PWNED'" },
  { profile: "typical+all", line: "printf -v 'a[$(curl -s http://x.invalid)]' x" },
  { profile: "auto", line: "printf -v 'a[$(curl -s http://x.invalid)]' x" },
  { profile: "typical+all", line: "source <(echo cat .env)" },
  { profile: "auto", line: "source <(echo cat .env)" },
  { profile: "typical+all", line: "x=cat; $x .env" },
  { profile: "auto", line: "x=cat; $x .env" },
  { profile: "typical+all", line: "grep -r API" },
  { profile: "auto", line: "grep -r API" },
  { profile: "typical+all", line: "cat src/*" },
  { profile: "auto", line: "cat src/*" },
  { profile: "typical+all", line: "git log -1 --format=%H | echo x >> ~/.bashrc" },
  { profile: "auto", line: "git log -1 --format=%H | echo x >> ~/.bashrc" },
  { profile: "defaults", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "typical", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "typical+all", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "plan", line: 'jq -n \'import "notes" as $n {search: "../outside"}; $n\'' },
  { profile: "typical+all", line: "awk 'BEGIN { system(\"curl -s http://x.invalid\") }'" },
  { profile: "auto", line: "awk 'BEGIN { system(\"curl -s http://x.invalid\") }'" },
  { profile: "typical", line: "wc -l src/*.ts" },
  { profile: "typical+all", line: "wc -l src/*.ts" },
  { profile: "auto", line: "wc -l src/*.ts" },
  { profile: "typical+all", line: "du -sh src && grep -rl TOKEN ." },
  { profile: "auto", line: "du -sh src && grep -rl TOKEN ." },
  { profile: "typical+all", line: "trap -- 'touch PWNED' EXIT" },
  { profile: "auto", line: "trap -- 'touch PWNED' EXIT" },
  { profile: "typical+all", line: "git -c alias.x='!cat .env' x" },
  { profile: "auto", line: "git -c alias.x='!cat .env' x" },
  { profile: "typical", line: "grep -rn x src 2>/dev/null" },
  { profile: "typical+all", line: "grep -rn x src 2>/dev/null" },
  { profile: "auto", line: "grep -rn x src 2>/dev/null" },
  { profile: "typical+all", line: "export BASH_ENV=../outside/x.sh; bash -c true" },
  { profile: "auto", line: "export BASH_ENV=../outside/x.sh; bash -c true" },
  { profile: "typical", line: "grep -rn privateKey src | find src -name '*.ts'" },
  { profile: "typical+all", line: "grep -rn privateKey src | find src -name '*.ts'" },
  { profile: "auto", line: "grep -rn privateKey src | find src -name '*.ts'" },
  { profile: "typical", line: "grep -rn privateKey src" },
  { profile: "typical+all", line: "grep -rn privateKey src" },
  { profile: "auto", line: "grep -rn privateKey src" },
  { profile: "typical+all", line: "find src -exec touch {} \\;" },
  { profile: "auto", line: "find src -exec touch {} \\;" },
  { profile: "typical+all", line: "grep -n import src/*.ts" },
  { profile: "auto", line: "grep -n import src/*.ts" },
  { profile: "typical+all", line: "awk 'BEGIN { \"cat .env\" | getline x; print x }'" },
  { profile: "auto", line: "awk 'BEGIN { \"cat .env\" | getline x; print x }'" },
  { profile: "typical", line: "grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "auto", line: "grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "defaults", line: "git grep -n import" },
  { profile: "typical", line: "git grep -n import" },
  { profile: "typical+all", line: "git grep -n import" },
  { profile: "plan", line: "git grep -n import" },
  { profile: "auto", line: "git grep -n import" },
  { profile: "typical+all", line: "diff src/a.ts src/private.ts" },
  { profile: "auto", line: "diff src/a.ts src/private.ts" },
  { profile: "typical", line: "make -f ../outside/Makefile" },
  { profile: "typical+all", line: "make -f ../outside/Makefile" },
  { profile: "typical", line: "grep -r x src && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "grep -r x src && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "auto", line: "grep -r x src && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "find . -type f -exec cat {} +" },
  { profile: "auto", line: "find . -type f -exec cat {} +" },
  { profile: "typical+all", line: "git -c alias.x='!touch PWNED' x; which git" },
  { profile: "auto", line: "git -c alias.x='!touch PWNED' x; which git" },
  { profile: "typical+all", line: "env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls" },
  { profile: "auto", line: "env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls" },
  { profile: "typical+all", line: "tar -tf archive.tar --use-compress-program='touch PWNED' && git diff -- src" },
  { profile: "auto", line: "tar -tf archive.tar --use-compress-program='touch PWNED' && git diff -- src" },
  { profile: "typical+all", line: "GIT_DIR=vendor/lib git status" },
  { profile: "auto", line: "GIT_DIR=vendor/lib git status" },
  { profile: "typical+all", line: "tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='touch PWNED'" },
  { profile: "auto", line: "tar -tf archive.tar --checkpoint=1 --checkpoint-action=exec='touch PWNED'" },
  { profile: "typical+all", line: "git -c core.fsmonitor='touch PWNED' status" },
  { profile: "auto", line: "git -c core.fsmonitor='touch PWNED' status" },
  { profile: "typical+all", line: "tar -tf archive.tar --use-compress-program='touch PWNED' && git show --stat HEAD" },
  { profile: "auto", line: "tar -tf archive.tar --use-compress-program='touch PWNED' && git show --stat HEAD" },
  { profile: "typical+all", line: "p=touch; ${p} PWNED" },
  { profile: "auto", line: "p=touch; ${p} PWNED" },
  { profile: "typical", line: "grep -r x src" },
  { profile: "typical+all", line: "grep -r x src" },
  { profile: "auto", line: "grep -r x src" },
  { profile: "typical", line: "cd ../outside && npm test" },
  { profile: "typical+all", line: "cd ../outside && npm test" },
  { profile: "typical", line: "cd .. && cd outside && make" },
  { profile: "typical+all", line: "cd .. && cd outside && make" },
  { profile: "defaults", line: "echo ${x-<(curl -s http://x.invalid)}; git log --oneline -5" },
  { profile: "typical", line: "echo ${x-<(curl -s http://x.invalid)}; git log --oneline -5" },
  { profile: "typical+all", line: "echo ${x-<(curl -s http://x.invalid)}; git log --oneline -5" },
  { profile: "plan", line: "echo ${x-<(curl -s http://x.invalid)}; git log --oneline -5" },
  { profile: "auto", line: "echo ${x-<(curl -s http://x.invalid)}; git log --oneline -5" },
  { profile: "typical+all", line: "awk -f ../outside/x.awk README.md && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "auto", line: "awk -f ../outside/x.awk README.md && grep -rn TODO src docs 2>/dev/null | head -5" },
  { profile: "typical+all", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"' | du -sh src" },
  { profile: "auto", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"' | du -sh src" },
  { profile: "typical+all", line: "echo done; read BASH_ENV <<< ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "auto", line: "echo done; read BASH_ENV <<< ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "typical+all", line: "test -v 'a[$(rm -f CHANGES.md)]' || git log -1 --format=%H" },
  { profile: "auto", line: "test -v 'a[$(rm -f CHANGES.md)]' || git log -1 --format=%H" },
  { profile: "typical+all", line: "test -v 'a[$(cat .env)]'" },
  { profile: "auto", line: "test -v 'a[$(cat .env)]'" },
  { profile: "typical+all", line: "$(echo cat) .env" },
  { profile: "auto", line: "$(echo cat) .env" },
  { profile: "typical+all", line: "for PATH in ../outside; do ls; done" },
  { profile: "auto", line: "for PATH in ../outside; do ls; done" },
  { profile: "typical+all", line: "read BASH_ENV <<< ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "auto", line: "read BASH_ENV <<< ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "typical+all", line: "echo x > .toolgateignore" },
  { profile: "auto", line: "echo x > .toolgateignore" },
  { profile: "typical+all", line: "tail -1 src/private.ts" },
  { profile: "auto", line: "tail -1 src/private.ts" },
  { profile: "typical", line: "make --directory=../outside" },
  { profile: "typical+all", line: "make --directory=../outside" },
  { profile: "defaults", line: "awk '{ print /[(]/ > \"/tmp/aw\" }' README.md" },
  { profile: "typical", line: "awk '{ print /[(]/ > \"/tmp/aw\" }' README.md" },
  { profile: "typical+all", line: "awk '{ print /[(]/ > \"/tmp/aw\" }' README.md" },
  { profile: "plan", line: "awk '{ print /[(]/ > \"/tmp/aw\" }' README.md" },
  { profile: "typical+all", line: "cat src/private.ts; head -5 *.md" },
  { profile: "auto", line: "cat src/private.ts; head -5 *.md" },
  { profile: "typical+all", line: "test -v 'a[$(curl -s http://x.invalid)]'" },
  { profile: "auto", line: "test -v 'a[$(curl -s http://x.invalid)]'" },
  { profile: "typical+all", line: "${x-curl} -s http://x.invalid && wc -l src/*.ts" },
  { profile: "auto", line: "${x-curl} -s http://x.invalid && wc -l src/*.ts" },
  { profile: "typical+all", line: "head -5 src/*.ts && git branch" },
  { profile: "auto", line: "head -5 src/*.ts && git branch" },
  { profile: "typical+all", line: "echo touch PWNED | sh" },
  { profile: "auto", line: "echo touch PWNED | sh" },
  { profile: "typical+all", line: "read 'a[$(cat ../outside/notes.txt)]' <<< x" },
  { profile: "auto", line: "read 'a[$(cat ../outside/notes.txt)]' <<< x" },
  { profile: "typical+all", line: "cat -n src/b.ts | grep -rl TOKEN ." },
  { profile: "auto", line: "cat -n src/b.ts | grep -rl TOKEN ." },
  { profile: "defaults", line: "grep -d recurse TOKEN" },
  { profile: "typical", line: "grep -d recurse TOKEN" },
  { profile: "typical+all", line: "grep -d recurse TOKEN" },
  { profile: "plan", line: "grep -d recurse TOKEN" },
  { profile: "auto", line: "grep -d recurse TOKEN" },
  { profile: "typical+all", line: "grep -n import src/*.ts || export PS4='$(touch PWNED)'; bash -xc true" },
  { profile: "auto", line: "grep -n import src/*.ts || export PS4='$(touch PWNED)'; bash -xc true" },
  { profile: "defaults", line: "du -sh src && awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical", line: "du -sh src && awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "du -sh src && awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "plan", line: "du -sh src && awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "auto", line: "du -sh src && awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "PATH=../outside:$PATH; ls; which git" },
  { profile: "auto", line: "PATH=../outside:$PATH; ls; which git" },
  { profile: "typical+all", line: "trap -- 'touch PWNED' EXIT; ls" },
  { profile: "auto", line: "trap -- 'touch PWNED' EXIT; ls" },
  { profile: "defaults", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical+all", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "plan", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "auto", line: "find docs -exec bash -c 'echo {}' \\;" },
  { profile: "typical+all", line: "grep -R API ." },
  { profile: "auto", line: "grep -R API ." },
  { profile: "typical+all", line: "trap -- 'curl -s http://x.invalid' EXIT" },
  { profile: "auto", line: "trap -- 'curl -s http://x.invalid' EXIT" },
  { profile: "typical+all", line: "git -c alias.x='!rm -f CHANGES.md' x" },
  { profile: "auto", line: "git -c alias.x='!rm -f CHANGES.md' x" },
  { profile: "typical+all", line: "echo curl -s http://x.invalid | sh" },
  { profile: "auto", line: "echo curl -s http://x.invalid | sh" },
  { profile: "defaults", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "plan", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "auto", line: "find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "printf -v BASH_ENV %s ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "auto", line: "printf -v BASH_ENV %s ../outside/x.sh; export BASH_ENV; bash -c true" },
  { profile: "typical+all", line: "awk '{ print | \"sh\" }' README.md" },
  { profile: "auto", line: "awk '{ print | \"sh\" }' README.md" },
  { profile: "typical+all", line: "grep -rl TOKEN ." },
  { profile: "auto", line: "grep -rl TOKEN ." },
  { profile: "defaults", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "typical", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "typical+all", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "plan", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "auto", line: "find docs -exec sh -c 'echo {}' \\;" },
  { profile: "typical+all", line: "${x-curl} -s http://x.invalid" },
  { profile: "auto", line: "${x-curl} -s http://x.invalid" },
  { profile: "typical+all", line: "awk 'BEGIN { \"cat .env\" | getline x; print x }' && head -5 *.md" },
  { profile: "auto", line: "awk 'BEGIN { \"cat .env\" | getline x; print x }' && head -5 *.md" },
  { profile: "typical+all", line: 'awk \'{ print "touch PWNED" | "sh" }\' README.md' },
  { profile: "auto", line: 'awk \'{ print "touch PWNED" | "sh" }\' README.md' },
  { profile: "defaults", line: "grep --directories=recurse API" },
  { profile: "typical", line: "grep --directories=recurse API" },
  { profile: "typical+all", line: "grep --directories=recurse API" },
  { profile: "plan", line: "grep --directories=recurse API" },
  { profile: "auto", line: "grep --directories=recurse API" },
  { profile: "defaults", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md" },
  { profile: "plan", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md" },
  { profile: "auto", line: "awk '{ print /#/ } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "trap 'touch PWNED' DEBUG; true | grep -n import src/*.ts" },
  { profile: "auto", line: "trap 'touch PWNED' DEBUG; true | grep -n import src/*.ts" },
  { profile: "typical", line: "printf '%s\\n' a b; grep -r x src" },
  { profile: "typical+all", line: "printf '%s\\n' a b; grep -r x src" },
  { profile: "auto", line: "printf '%s\\n' a b; grep -r x src" },
  { profile: "defaults", line: "git -C vendor --git-dir=lib status" },
  { profile: "typical", line: "git -C vendor --git-dir=lib status" },
  { profile: "typical+all", line: "git -C vendor --git-dir=lib status" },
  { profile: "plan", line: "git -C vendor --git-dir=lib status" },
  { profile: "auto", line: "git -C vendor --git-dir=lib status" },
  { profile: "typical+all", line: "file README.md; grep -R API ." },
  { profile: "auto", line: "file README.md; grep -R API ." },
  { profile: "typical", line: "find src -name '*.ts' -exec wc -l {} \\;" },
  { profile: "typical+all", line: "find src -name '*.ts' -exec wc -l {} \\;" },
  { profile: "auto", line: "find src -name '*.ts' -exec wc -l {} \\;" },
  { profile: "typical", line: "make -C ../outside || git status && git diff" },
  { profile: "typical+all", line: "make -C ../outside || git status && git diff" },
  { profile: "typical+all", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'" },
  { profile: "auto", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'" },
  { profile: "typical+all", line: "cat src/private.ts" },
  { profile: "auto", line: "cat src/private.ts" },
  { profile: "defaults", line: "echo ${x:=`cat ../outside/notes.txt`}" },
  { profile: "typical", line: "echo ${x:=`cat ../outside/notes.txt`}" },
  { profile: "typical+all", line: "echo ${x:=`cat ../outside/notes.txt`}" },
  { profile: "plan", line: "echo ${x:=`cat ../outside/notes.txt`}" },
  { profile: "auto", line: "echo ${x:=`cat ../outside/notes.txt`}" },
  { profile: "defaults", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "plan", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "auto", line: "awk '/[]/]#/ { } END { system(\"touch PWNED\") }' README.md" },
  { profile: "typical+all", line: "PATH=../outside:$PATH; ls" },
  { profile: "auto", line: "PATH=../outside:$PATH; ls" },
  { profile: "typical+all", line: "ENV=../outside/x.sh sh -i -c true && wc -w README.md CHANGES.md" },
  { profile: "auto", line: "ENV=../outside/x.sh sh -i -c true && wc -w README.md CHANGES.md" },
  { profile: "typical+all", line: "bash -c '$0 -f CHANGES.md' rm | printf '%s\\n' a b" },
  { profile: "auto", line: "bash -c '$0 -f CHANGES.md' rm | printf '%s\\n' a b" },
  { profile: "typical+all", line: "[ -d src ] && ls src && git -c alias.st='!touch PWNED' st" },
  { profile: "auto", line: "[ -d src ] && ls src && git -c alias.st='!touch PWNED' st" },
  { profile: "typical+all", line: "bash -c '$0 .env' cat" },
  { profile: "auto", line: "bash -c '$0 .env' cat" },
  { profile: "typical", line: "grep -rn x src 2>/dev/null || find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "grep -rn x src 2>/dev/null || find . -execdir sh -c 'ls {}' \\;" },
  { profile: "auto", line: "grep -rn x src 2>/dev/null || find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "tar -cf /tmp/t.tar ." },
  { profile: "auto", line: "tar -cf /tmp/t.tar ." },
  { profile: "typical+all", line: "cat package.json | jq .scripts; find src -exec touch {} \\;" },
  { profile: "auto", line: "cat package.json | jq .scripts; find src -exec touch {} \\;" },
  { profile: "typical+all", line: "find . -type f -exec grep -l API {} + && git branch" },
  { profile: "auto", line: "find . -type f -exec grep -l API {} + && git branch" },
  { profile: "defaults", line: "echo ${x-<(rm -f CHANGES.md)}" },
  { profile: "typical", line: "echo ${x-<(rm -f CHANGES.md)}" },
  { profile: "typical+all", line: "echo ${x-<(rm -f CHANGES.md)}" },
  { profile: "plan", line: "echo ${x-<(rm -f CHANGES.md)}" },
  { profile: "auto", line: "echo ${x-<(rm -f CHANGES.md)}" },
  { profile: "typical+all", line: "git branch; find src -exec sh -c 'cat \"$1\"' sh {} \\;" },
  { profile: "auto", line: "git branch; find src -exec sh -c 'cat \"$1\"' sh {} \\;" },
  { profile: "typical+all", line: "git --git-dir vendor/lib --work-tree=. status" },
  { profile: "auto", line: "git --git-dir vendor/lib --work-tree=. status" },
  { profile: "typical+all", line: "sh -c '\"$@\"' sh cat .env" },
  { profile: "auto", line: "sh -c '\"$@\"' sh cat .env" },
  { profile: "typical+all", line: ': ${PATH:=x}; PATH=../outside; git status || echo "$HOME"' },
  { profile: "auto", line: ': ${PATH:=x}; PATH=../outside; git status || echo "$HOME"' },
  { profile: "typical+all", line: "env | grep -c PATH; grep -n import src/*.ts" },
  { profile: "auto", line: "env | grep -c PATH; grep -n import src/*.ts" },
  { profile: "typical", line: "npm test --script-shell=../outside/evil.sh && ls -1 src | head -2" },
  { profile: "typical+all", line: "npm test --script-shell=../outside/evil.sh && ls -1 src | head -2" },
  { profile: "typical+all", line: "git -c alias.st='!touch PWNED' st && tr a-z A-Z < README.md" },
  { profile: "auto", line: "git -c alias.st='!touch PWNED' st && tr a-z A-Z < README.md" },
  { profile: "typical+all", line: "mkdir -p .vscode; echo {} > .vscode/settings.json" },
  { profile: "auto", line: "mkdir -p .vscode; echo {} > .vscode/settings.json" },
  { profile: "typical+all", line: "file README.md | tail -1 src/private.ts" },
  { profile: "auto", line: "file README.md | tail -1 src/private.ts" },
  { profile: "defaults", line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md || du -sh src" },
  { profile: "typical", line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md || du -sh src" },
  {
    profile: "typical+all",
    line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md || du -sh src",
  },
  { profile: "plan", line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md || du -sh src" },
  { profile: "auto", line: "awk 'BEGIN { ARGV[ARGC++] = \"secrets/key.txt\" } { print }' README.md || du -sh src" },
  { profile: "typical+all", line: ": ${PATH:=x}; PATH=../outside; git status" },
  { profile: "auto", line: ": ${PATH:=x}; PATH=../outside; git status" },
  { profile: "typical+all", line: "grep -n import src/*.ts && grep -R API ." },
  { profile: "auto", line: "grep -n import src/*.ts && grep -R API ." },
  { profile: "typical", line: "make --directory=../outside || sort README.md | uniq -c" },
  { profile: "typical+all", line: "make --directory=../outside || sort README.md | uniq -c" },
  { profile: "typical+all", line: "cat src/private.ts || stat README.md" },
  { profile: "auto", line: "cat src/private.ts || stat README.md" },
  { profile: "typical+all", line: "tar -tf archive.tar --to-command='touch PWNED' | grep -rn x src 2>/dev/null" },
  { profile: "auto", line: "tar -tf archive.tar --to-command='touch PWNED' | grep -rn x src 2>/dev/null" },
  { profile: "typical+all", line: "IFS=,; x=cat,.env; $x" },
  { profile: "auto", line: "IFS=,; x=cat,.env; $x" },
  { profile: "typical+all", line: "$(echo rm) -f CHANGES.md || diff src/a.ts src/b.ts" },
  { profile: "auto", line: "$(echo rm) -f CHANGES.md || diff src/a.ts src/b.ts" },
  { profile: "typical", line: "find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "typical+all", line: "find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "auto", line: "find src -name '*.ts' -exec grep -l import {} +" },
  { profile: "typical+all", line: "git config core.fsmonitor 'touch PWNED'" },
  { profile: "auto", line: "git config core.fsmonitor 'touch PWNED'" },
  { profile: "typical", line: "npm test --script-shell=../outside/evil.sh" },
  { profile: "typical+all", line: "npm test --script-shell=../outside/evil.sh" },
  { profile: "typical+all", line: "p=rm; ${p} -f CHANGES.md" },
  { profile: "auto", line: "p=rm; ${p} -f CHANGES.md" },
  { profile: "typical+all", line: "git config --global user.name x" },
  { profile: "auto", line: "git config --global user.name x" },
  { profile: "defaults", line: "find . -execdir sh -c 'ls {}' \\; || basename src/a.ts" },
  { profile: "typical", line: "find . -execdir sh -c 'ls {}' \\; || basename src/a.ts" },
  { profile: "typical+all", line: "find . -execdir sh -c 'ls {}' \\; || basename src/a.ts" },
  { profile: "plan", line: "find . -execdir sh -c 'ls {}' \\; || basename src/a.ts" },
  { profile: "auto", line: "find . -execdir sh -c 'ls {}' \\; || basename src/a.ts" },
  { profile: "typical", line: "git status && git diff && make --directory=../outside" },
  { profile: "typical+all", line: "git status && git diff && make --directory=../outside" },
  { profile: "typical+all", line: "sh -c '\"$@\"' sh touch PWNED" },
  { profile: "auto", line: "sh -c '\"$@\"' sh touch PWNED" },
  { profile: "typical+all", line: "tail -1 src/private.ts | ls | wc -l" },
  { profile: "auto", line: "tail -1 src/private.ts | ls | wc -l" },
  { profile: "defaults", line: "sort README.md | uniq -c | find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical", line: "sort README.md | uniq -c | find . -execdir sh -c 'ls {}' \\;" },
  { profile: "typical+all", line: "sort README.md | uniq -c | find . -execdir sh -c 'ls {}' \\;" },
  { profile: "plan", line: "sort README.md | uniq -c | find . -execdir sh -c 'ls {}' \\;" },
  { profile: "auto", line: "sort README.md | uniq -c | find . -execdir sh -c 'ls {}' \\;" },
  { profile: "defaults", line: "env | grep -c PATH; awk 'BEGIN { ARGV[1] = \".env\" } { print }' README.md" },
  { profile: "typical", line: "env | grep -c PATH; awk 'BEGIN { ARGV[1] = \".env\" } { print }' README.md" },
  { profile: "typical+all", line: "env | grep -c PATH; awk 'BEGIN { ARGV[1] = \".env\" } { print }' README.md" },
  { profile: "plan", line: "env | grep -c PATH; awk 'BEGIN { ARGV[1] = \".env\" } { print }' README.md" },
  { profile: "auto", line: "env | grep -c PATH; awk 'BEGIN { ARGV[1] = \".env\" } { print }' README.md" },
  { profile: "typical+all", line: "x=touch; $x PWNED && wc -l src/*.ts" },
  { profile: "auto", line: "x=touch; $x PWNED && wc -l src/*.ts" },
  { profile: "typical+all", line: "`echo rm` -f CHANGES.md | git rev-parse --show-toplevel" },
  { profile: "auto", line: "`echo rm` -f CHANGES.md | git rev-parse --show-toplevel" },
  { profile: "typical", line: "npm test --prefix ../outside" },
  { profile: "typical+all", line: "npm test --prefix ../outside" },
  { profile: "typical+all", line: "ls -la | head -5 src/*.ts" },
  { profile: "auto", line: "ls -la | head -5 src/*.ts" },
  { profile: "typical+all", line: "echo cat .env | sh | uname -s" },
  { profile: "auto", line: "echo cat .env | sh | uname -s" },
  { profile: "typical+all", line: "read 'a[$(cp secrets/key.txt /tmp/k)]' <<< x" },
  { profile: "auto", line: "read 'a[$(cp secrets/key.txt /tmp/k)]' <<< x" },
  { profile: "typical+all", line: "${x:-rm} -f CHANGES.md" },
  { profile: "auto", line: "${x:-rm} -f CHANGES.md" },
  { profile: "typical+all", line: "head -5 src/*.ts" },
  { profile: "auto", line: "head -5 src/*.ts" },
  { profile: "typical+all", line: "awk -f ../outside/x.awk README.md" },
  { profile: "auto", line: "awk -f ../outside/x.awk README.md" },
  { profile: "typical+all", line: "trap -- 'rm -f CHANGES.md' EXIT || grep -n import src/*.ts" },
  { profile: "auto", line: "trap -- 'rm -f CHANGES.md' EXIT || grep -n import src/*.ts" },
  { profile: "typical+all", line: "PS4='$(touch PWNED)'; set -x; true" },
  { profile: "auto", line: "PS4='$(touch PWNED)'; set -x; true" },
  { profile: "defaults", line: "git grep -n import | cat README.md" },
  { profile: "typical", line: "git grep -n import | cat README.md" },
  { profile: "typical+all", line: "git grep -n import | cat README.md" },
  { profile: "plan", line: "git grep -n import | cat README.md" },
  { profile: "auto", line: "git grep -n import | cat README.md" },
  { profile: "typical+all", line: "sh -c '\"$@\"' sh cat .env; ls src" },
  { profile: "auto", line: "sh -c '\"$@\"' sh cat .env; ls src" },
  { profile: "typical+all", line: "test -v 'a[$(rm -f CHANGES.md)]'" },
  { profile: "auto", line: "test -v 'a[$(rm -f CHANGES.md)]'" },
  { profile: "typical+all", line: "echo 'a;b' && flock /tmp/lk -c 'cat ../outside/notes.txt'" },
  { profile: "auto", line: "echo 'a;b' && flock /tmp/lk -c 'cat ../outside/notes.txt'" },
  { profile: "typical", line: "cd ../outside && npm test || uname -s" },
  { profile: "typical+all", line: "cd ../outside && npm test || uname -s" },
  { profile: "typical+all", line: 'awk \'{ print "touch PWNED" | "sh" }\' README.md; git rev-parse --show-toplevel' },
  { profile: "auto", line: 'awk \'{ print "touch PWNED" | "sh" }\' README.md; git rev-parse --show-toplevel' },
  { profile: "defaults", line: "sed ':a;e touch PWNED' README.md" },
  { profile: "typical", line: "sed ':a;e touch PWNED' README.md" },
  { profile: "typical+all", line: "sed ':a;e touch PWNED' README.md" },
  { profile: "plan", line: "sed ':a;e touch PWNED' README.md" },
  { profile: "auto", line: "sed ':a;e touch PWNED' README.md" },
  { profile: "typical", line: "wc -l src/*.ts | make --directory=../outside" },
  { profile: "typical+all", line: "wc -l src/*.ts | make --directory=../outside" },
  { profile: "auto", line: "wc -l src/*.ts | make --directory=../outside" },
  { profile: "typical+all", line: "trap -- 'touch PWNED' EXIT | basename src/a.ts" },
  { profile: "auto", line: "trap -- 'touch PWNED' EXIT | basename src/a.ts" },
  { profile: "typical+all", line: "find . -type f -exec grep -l API {} +" },
  { profile: "auto", line: "find . -type f -exec grep -l API {} +" },
  { profile: "defaults", line: "git log -p -1" },
  { profile: "typical", line: "git log -p -1" },
  { profile: "typical+all", line: "git log -p -1" },
  { profile: "plan", line: "git log -p -1" },
  { profile: "auto", line: "git log -p -1" },
  { profile: "typical+all", line: "read 'a[$(touch PWNED)]' <<< x" },
  { profile: "auto", line: "read 'a[$(touch PWNED)]' <<< x" },
  { profile: "defaults", line: "echo `echo \\`cat .env\\``" },
  { profile: "typical", line: "echo `echo \\`cat .env\\``" },
  { profile: "typical+all", line: "echo `echo \\`cat .env\\``" },
  { profile: "plan", line: "echo `echo \\`cat .env\\``" },
  { profile: "auto", line: "echo `echo \\`cat .env\\``" },
  { profile: "typical+all", line: "${x-rm} -f CHANGES.md" },
  { profile: "auto", line: "${x-rm} -f CHANGES.md" },
  { profile: "typical+all", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'; git status && git diff" },
  { profile: "auto", line: "tar -tf archive.tar -I 'sh -c \"touch PWNED\"'; git status && git diff" },
  { profile: "typical+all", line: "sed --expression='1e touch PWNED' README.md" },
  { profile: "auto", line: "sed --expression='1e touch PWNED' README.md" },
  {
    profile: "typical+all",
    line: "head -n 3 README.md && tail -n 2 README.md; env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls",
  },
  {
    profile: "auto",
    line: "head -n 3 README.md && tail -n 2 README.md; env 'BASH_FUNC_ls%%=() { touch PWNED; }' bash -c ls",
  },
  { profile: "defaults", line: "git grep TOKEN" },
  { profile: "typical", line: "git grep TOKEN" },
  { profile: "typical+all", line: "git grep TOKEN" },
  { profile: "plan", line: "git grep TOKEN" },
  { profile: "auto", line: "git grep TOKEN" },
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
