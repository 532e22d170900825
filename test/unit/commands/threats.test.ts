/**
 * Every threat family of DESIGN.md: none of these may come out `safe`, and where a denied program is in
 * the line it must be refused (deny), whatever wrapper, spelling or construct hides it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type { CommandVerdict } from "../../../src/core/commands/types";
import { context, HOME, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const DENY = ["rm", "curl", "git push"];
/** Everything an attacker might hope an allow list covers. */
const ALLOW = [
  "ls",
  "echo",
  "git log",
  "git status",
  "npm test",
  "find",
  "cat",
  "grep",
  "rg",
  "sed",
  "sort",
  "tar",
  "awk",
  "xargs",
  "env",
  "timeout",
  "git diff",
];

type Expect = CommandVerdict | "not-safe";
const cases: [family: string, command: string, expected: Expect][] = [
  // Chains after an allowed prefix.
  ["chain", "ls; sh x.sh", "unsafe"],
  ["chain", "ls && python -c 'import os'", "unsafe"],
  ["chain", "ls || wget x", "unsafe"],
  ["chain", "ls & rm -rf x", "deny"],
  ["chain", "ls |& sh", "unparseable"],
  ["chain", "ls | sh", "unparseable"],
  ["chain", "ls\nwget x", "unsafe"],
  ["chain", "ls\rwget x", "unparseable"],
  ["chain", "git status; rm -rf /", "deny"],
  ["chain", "npm test && git push origin main", "deny"],
  ["chain", "ls &&\n wget x", "unsafe"],
  // Substitutions, also inside double quotes, arithmetic, here-strings, here-documents.
  ["substitution", "echo $(curl x)", "deny"],
  ["substitution", 'echo "$(curl x|sh)"', "deny"],
  ["substitution", 'echo "$(wget x|sh)"', "unparseable"],
  ["substitution", "echo `wget x`", "unsafe"],
  ["substitution", 'echo "`rm x`"', "deny"],
  ["substitution", "ls $(rm x)", "deny"],
  ["substitution", "echo $((1 + $(rm x)))", "deny"],
  ["substitution", 'cat <<< "$(curl x)"', "deny"],
  ["substitution", "cat <<EOF\n$(rm x)\nEOF", "deny"],
  ["substitution", "cat <<EOF\n`wget x`\nEOF", "unparseable"],
  ["substitution", "cat <<EOF\n`rm x`\nEOF", "deny"],
  ["substitution", "echo ${x:-$(rm x)}", "deny"],
  ["substitution", 'ls "$(echo rm)"', "unsafe"],
  ["substitution", "x=$(rm y)", "deny"],
  // Process substitution.
  ["process substitution", "cat <(rm x)", "deny"],
  ["process substitution", "diff <(ls) <(wget -O- x)", "unsafe"],
  ["process substitution", "echo x | tee >(sh)", "unparseable"],
  ["process substitution", "ls > >(sh)", "not-safe"],
  // Dangerous expansions.
  ["expansion", "echo ${x@P}", "unparseable"],
  ["expansion", "echo ${!x}", "unparseable"],
  ["expansion", "echo ${!prefix*}", "unparseable"],
  ["expansion", "echo $((x))", "unparseable"],
  ["expansion", "echo $[x+1]", "not-safe"],
  ["expansion", "echo ${a[$i]}", "unparseable"],
  ["expansion", "echo ${x:$o}", "not-safe"],
  ["expansion", "[[ $x -eq 1 ]] && ls", "unparseable"],
  ["expansion", "(( x )) && ls", "unparseable"],
  ["expansion", "[[ -v a ]] && ls", "unsafe"],
  ["expansion", "test -v 'a[$(id)]'", "unparseable"],
  ["expansion", "[ $x ]", "unparseable"],
  ["expansion", "declare -i x=y", "unparseable"],
  ["expansion", "printf -v x y", "unsafe"],
  // zsh.
  ["zsh", "ls =(curl x)", "deny"],
  ["zsh", "ls =(wget x)", "unparseable"],
  ["zsh", "ls *(e:'wget x':)", "unparseable"],
  ["zsh", "echo ${(e)x}", "not-safe"],
  ["zsh", "=wget x", "unsafe"],
  // Subshells, groups, functions, control flow.
  ["compound", "(wget x)", "unsafe"],
  ["compound", "{ wget x; }", "unsafe"],
  ["compound", "(ls; rm x)", "deny"],
  ["compound", "f() { rm x; }; f", "deny"],
  ["compound", "function f { wget x; }", "unsafe"],
  ["compound", "if true; then wget x; fi", "unsafe"],
  ["compound", "if ls; then :; else rm x; fi", "deny"],
  ["compound", "while true; do wget x; done", "unsafe"],
  ["compound", "until false; do rm x; done", "deny"],
  ["compound", "for i in 1 2; do curl $i; done", "deny"],
  ["compound", "case x in *) wget x;; esac", "unsafe"],
  ["compound", "! rm x", "deny"],
  ["compound", "ls() { wget x; }; ls", "unsafe"],
  ["compound", "cd() { builtin cd ~; }", "unsafe"],
  ["compound", "f() { ls; }; f", "unsafe"],
  // Shell payloads.
  ["payload", "bash -c 'rm x'", "deny"],
  ["payload", 'sh -c "wget x"', "unsafe"],
  ["payload", "zsh -c 'curl x'", "deny"],
  ["payload", "zsh -c '=rm x'", "deny"],
  ["payload", "zsh -c ls", "unparseable"],
  ["payload", "ksh -c 'ls'", "unparseable"],
  ["payload", "zsh <<< ls", "unparseable"],
  ["payload", "dash -c 'rm -rf x'", "deny"],
  ["payload", "bash -lc 'rm x'", "deny"],
  ["payload", 'eval "rm x"', "deny"],
  ["payload", "eval rm x", "deny"],
  ["payload", 'eval "$x"', "unparseable"],
  ["payload", "exec rm x", "deny"],
  ["payload", "source <(curl x)", "deny"],
  ["payload", ". ./x.sh", "unsafe"],
  ["payload", "source x.sh", "unsafe"],
  ["payload", 'bash -c "$x"', "unparseable"],
  ["payload", "bash x.sh", "unsafe"],
  ["payload", "sudo bash -c 'rm x'", "deny"],
  ["payload", "bash -c \"bash -c 'eval rm x'\"", "deny"],
  ["payload", "su -c 'rm x' root", "deny"],
  ["payload", "git rebase -x 'curl x' HEAD~3", "deny"],
  ["payload", "bash <<'EOF'\nls\nrm -rf x\nEOF", "deny"],
  ["payload", "bash <<EOF\nrm $x\nEOF", "deny"],
  ["payload", "sh <<< 'rm x'", "deny"],
  ["payload", "bash -s <<'EOF'\nwget x\nEOF", "unsafe"],
  ["payload", "bash <<-EOF\n\twget $x\n\tEOF", "unparseable"],
  ["payload", "source /dev/stdin <<< 'rm x'", "deny"],
  ["payload", "timeout 5 bash <<'EOF'\nrm x\nEOF", "deny"],
  ["payload", "cat <<'EOF' | bash\nrm x\nEOF", "deny"],
  ["payload", "bash < script.sh", "unparseable"],
  // Wrappers.
  ["wrapper", "env rm x", "deny"],
  ["wrapper", "env -i FOO=1 rm x", "deny"],
  ["wrapper", "env -S 'rm x'", "deny"],
  ["wrapper", "command rm x", "deny"],
  ["wrapper", "builtin eval rm x", "deny"],
  ["wrapper", "nohup rm x", "deny"],
  ["wrapper", "timeout 5 rm x", "deny"],
  ["wrapper", "timeout -s KILL 5 curl x", "deny"],
  ["wrapper", "nice -n 5 rm x", "deny"],
  ["wrapper", "ionice -c3 rm x", "deny"],
  ["wrapper", "time rm x", "deny"],
  ["wrapper", "stdbuf -o0 rm x", "deny"],
  ["wrapper", "xargs rm", "deny"],
  ["wrapper", "xargs -0 -n1 rm -f", "deny"],
  ["wrapper", "ls | xargs sh -c 'wget x'", "unsafe"],
  ["wrapper", "find . -exec rm {} \\;", "deny"],
  ["wrapper", "find . -execdir rm {} +", "deny"],
  ["wrapper", "find . -ok wget x \\;", "unsafe"],
  ["wrapper", "watch rm x", "deny"],
  ["wrapper", "watch -x rm x", "deny"],
  ["wrapper", "busybox rm x", "deny"],
  ["wrapper", "sudo rm x", "deny"],
  ["wrapper", "sudo -u root rm x", "deny"],
  ["wrapper", "doas rm x", "deny"],
  ["wrapper", "strace -f rm x", "deny"],
  ["wrapper", "setsid rm x", "deny"],
  ["wrapper", "timeout 5 env nice xargs rm", "deny"],
  ["wrapper", "git bisect run rm x", "deny"],
  ["wrapper", "sudo ls", "unsafe"],
  ["wrapper", "timeout 5 wget x", "unsafe"],
  ["wrapper", "env -C /tmp cat x", "unsafe"],
  // Alternate spellings.
  ["spelling", "\\rm x", "deny"],
  ["spelling", "/bin/rm x", "deny"],
  ["spelling", "/usr/bin/rm x", "deny"],
  ["spelling", "r\\m x", "deny"],
  ["spelling", '"rm" x', "deny"],
  ["spelling", "'rm' x", "deny"],
  ["spelling", "$'\\x72m' x", "deny"],
  ["spelling", "$'\\162m' x", "deny"],
  ["spelling", "r''m x", "deny"],
  ["spelling", 'r""m x', "deny"],
  ["spelling", "RM x", "deny"],
  ["spelling", "./rm x", "deny"],
  ["spelling", "/bin/../bin/rm x", "deny"],
  ["spelling", "$x y", "unparseable"],
  ["spelling", "$(echo rm) x", "deny"],
  ["spelling", "${x} y", "unparseable"],
  ["spelling", "/bin/r? x", "unparseable"],
  ["spelling", "~/bin/tool x", "unsafe"],
  ["spelling", "./ls", "unsafe"],
  ["spelling", "/tmp/x/git log", "unsafe"],
  ["spelling", "git push", "deny"],
  ["spelling", "/???/rm x", "deny"],
  ["spelling", "trap 'rm x' EXIT", "deny"],
  ["spelling", "alias ls='rm -rf x'", "deny"],
  ["spelling", "git -C . push", "deny"],
  ["spelling", "git --no-pager push --force", "deny"],
  ["spelling", "git $cmd", "unparseable"],
  // Environment prefixes.
  ["env", "PAGER=sh git log", "unparseable"],
  // git takes programs, its repository and its configuration from GIT_* variables, like `-c` and `--git-dir`.
  ["env", "GIT_PAGER='sh -c id' git log", "unparseable"],
  ["env", "GIT_SSH_COMMAND='sh -c id' git status", "unparseable"],
  ["env", "GIT_EXTERNAL_DIFF=x git diff", "unparseable"],
  ["env", "GIT_DIR=vendor/lib git status", "unparseable"],
  ["env", "GIT_WORK_TREE=. GIT_COMMON_DIR=vendor/lib git status", "unparseable"],
  ["env", "GIT_CONFIG_GLOBAL=notes.cfg git log", "unparseable"],
  ["env", "GIT_TEMPLATE_DIR=tpl git init -q x", "unparseable"],
  ["env", "GIT_EXEC_PATH=. git status", "unparseable"],
  ["env", "env GIT_DIR=vendor/lib git status", "unparseable"],
  ["env", "export GIT_DIR=vendor/lib; git status", "unparseable"],
  ["env", "LD_PRELOAD=x ls", "unparseable"],
  ["env", "DYLD_INSERT_LIBRARIES=x ls", "unparseable"],
  ["env", "BASH_ENV=x bash -c ls", "unparseable"],
  ["env", "PATH=/tmp ls", "unparseable"],
  ["env", "PATH=/tmp; ls", "unparseable"],
  ["env", "IFS=x ls", "unsafe"],
  ["env", "NODE_OPTIONS=--require=./x.js npm test", "unparseable"],
  ["env", "PYTHONSTARTUP=x ls", "unsafe"],
  ["env", "EDITOR=sh git log", "unparseable"],
  ["env", "export LD_PRELOAD=x", "unparseable"],
  ["env", "env LD_PRELOAD=x ls", "unparseable"],
  ["env", "for PATH in /tmp; do ls; done", "unparseable"],
  ["env", "read PATH < x", "unparseable"],
  ["env", "PROMPT_COMMAND='rm x'", "not-safe"],
  ["env", "env 'BASH_FUNC_ls%%=() { wget x; }' bash -c ls", "unparseable"],
  // Dangerous flags of read-only programs, with the program allowed.
  ["flag", "find . -delete", "unsafe"],
  ["flag", "find . -name '*.tmp' -delete", "unsafe"],
  ["flag", "find . -fprint /tmp/x", "unsafe"],
  ["flag", "find . -fprintf /tmp/x '%p'", "unsafe"],
  ["flag", "find . -exec sh -c 'wget x' \\;", "unsafe"],
  ["flag", "find . -exec sh -c 'rm x' \\;", "deny"],
  ["flag", "find . $x", "unsafe"],
  ["flag", "git -c core.pager='sh -c id' log", "unparseable"],
  ["flag", "git -c core.sshCommand=x log", "unparseable"],
  ["flag", "git -c alias.x='!sh' log", "unparseable"],
  ["flag", "git --config-env=core.pager=X log", "unparseable"],
  ["flag", "git --exec-path=/tmp log", "unparseable"],
  ["flag", "git log --output=x", "unsafe"],
  ["flag", "git log --outp=x", "unsafe"],
  ["flag", "git diff --ext-diff", "unparseable"],
  ["flag", "git diff --ext", "unparseable"],
  ["flag", "git log --textconv", "unparseable"],
  ["flag", "git grep -O x", "unparseable"],
  ["flag", "git grep --open-files-in-pager=vim x", "unparseable"],
  ["flag", "git log $opt", "unparseable"],
  ["flag", "rg --pre sh x", "unparseable"],
  ["flag", "rg --pre=sh x", "unparseable"],
  ["flag", "rg --pre-glob '*' x", "unsafe"],
  ["flag", "rg --hostname-bin=sh x", "unparseable"],
  ["flag", "rg x *", "unsafe"],
  ["flag", "sed -i s/a/b/ .git/config", "unsafe"],
  ["flag", "sed -i.bak s/a/b/ /etc/hosts", "unsafe"],
  ["flag", "sed --in-place s/a/b/ ~/.bashrc", "unsafe"],
  ["flag", "sed 's/a/b/e' f", "unparseable"],
  ["flag", "sed 'e id' f", "unparseable"],
  ["flag", "sed '1e id' f", "unparseable"],
  ["flag", "sed 'w /tmp/x' f", "unparseable"],
  ["flag", "sed -n '1w /tmp/x' f", "unparseable"],
  ["flag", "sed 's/a/b/w /tmp/x' f", "unparseable"],
  ["flag", "sed -f script.sed f", "unparseable"],
  ["flag", 'sed "$s" f', "unparseable"],
  ["flag", "sort -o /tmp/x f", "unsafe"],
  ["flag", "sort --output=/tmp/x f", "unsafe"],
  ["flag", "sort --compress-program=sh f", "unparseable"],
  ["flag", "sort --compress=sh f", "unparseable"],
  ["flag", "tar --checkpoint-action=exec=sh -cf x.tar .", "unparseable"],
  ["flag", "tar -tf x.tar --to-command=sh", "unparseable"],
  ["flag", "tar -I sh -tf x.tar", "unparseable"],
  ["flag", "tar tf host:x.tar", "unparseable"],
  ["flag", "tar -xf x.tar -C ~", "unsafe"],
  ["flag", "tar -xf x.tar -C .git/hooks", "unsafe"],
  ["flag", "awk 'BEGIN{system(\"id\")}'", "unparseable"],
  ["flag", "awk '{print > \"/tmp/x\"}' f", "unparseable"],
  ["flag", "awk '{print | \"sh\"}' f", "unparseable"],
  ["flag", "awk 'BEGIN{\"id\" | getline}'", "unparseable"],
  ["flag", "awk 'BEGIN{getline x < \"/etc/passwd\"}'", "unparseable"],
  ["flag", "awk -f x.awk f", "unparseable"],
  // The program text is computed at run time (as for `sed "$s" f`): before, `"$p"` was read as an option and `f` as the program.
  ["flag", 'awk "$p" f', "unparseable"],
  ["flag", "awk 'BEGIN { i++ / 2; system(\"id\") }'", "unparseable"],
  ["flag", "xargs -I{} sh -c '{}'", "unparseable"],
  ["flag", "date -s 2020-01-01", "unsafe"],
  ["flag", "tree -o /tmp/x", "unsafe"],
  ["flag", "git branch -D main", "unsafe"],
  ["flag", "git tag -d v1", "unsafe"],
  ["flag", "git config alias.x '!sh'", "unsafe"],
  ["flag", "git stash", "unsafe"],
  ["flag", "git clean -fdx", "unsafe"],
  ["flag", "git checkout .", "unsafe"],
  ["flag", "jq . --rawfile x .env", "unsafe"],
  // Redirects writing outside the workspace or into protected paths.
  ["redirect", "echo x > ~/.bashrc", "unsafe"],
  ["redirect", "echo x >> /etc/passwd", "unsafe"],
  ["redirect", "echo x > .git/hooks/pre-commit", "unsafe"],
  ["redirect", "echo x > .vscode/settings.json", "unsafe"],
  ["redirect", "echo x > pkg/.git/config", "unsafe"],
  ["redirect", "echo x > .github/workflows/ci.yml", "unsafe"],
  ["redirect", "echo x > .toolgateignore", "unsafe"],
  ["redirect", "cat a > ../y", "unsafe"],
  ["redirect", "ls > $f", "unsafe"],
  ["redirect", "echo > /tmp/x", "unsafe"],
  ["redirect", "cat < /etc/shadow", "unsafe"],
  ["redirect", "cat < .env", "unsafe"],
  ["redirect", "echo >| ~/.profile", "unsafe"],
  ["redirect", "ls &> ~/x", "unsafe"],
  ["redirect", "ls 2> ~/x", "unsafe"],
  ["redirect", "ls >& ~/x", "unsafe"],
  ["redirect", "ls > *.txt", "unsafe"],
  ["redirect", "cd .. && echo x > y", "unsafe"],
  ["redirect", "cd / && cat etc/passwd", "unsafe"],
  ["redirect", "cd ~ && cat .ssh/id_rsa", "unsafe"],
  ["redirect", "cd .git && echo x > config", "unsafe"],
  ["redirect", "cd nowhere; cat .env", "unsafe"],
  ["redirect", "f() { cat x; }; cd /tmp; f", "unsafe"],
  ["redirect", "for d in a b; do cd $d; done; cat x", "unsafe"],
  ["redirect", "{ echo x; } > ~/.bashrc", "unsafe"],
  ["redirect", "echo x | tee ~/.bashrc", "unsafe"],
  ["redirect", "echo x | tee .git/config", "unsafe"],
  ["redirect", "exec > ~/x", "unsafe"],
  ["redirect", "cp a ~/.bashrc", "unsafe"],
  ["redirect", "> ~/.bashrc", "unsafe"],
  // Reading ignored files.
  ["ignored", "cat .env", "unsafe"],
  ["ignored", "cat ./.env", "unsafe"],
  ["ignored", "cat src/../.env", "unsafe"],
  ["ignored", `cat ${WS}/.env`, "unsafe"],
  ["ignored", "grep x .env", "unsafe"],
  ["ignored", "head -5 secrets/key", "unsafe"],
  ["ignored", "cat .e*", "unsafe"],
  ["ignored", "cat *", "unsafe"],
  ["ignored", "grep -r x secrets", "unsafe"],
  ["ignored", "git show HEAD:.env", "unsafe"],
  ["ignored", "sed -n p .env", "unsafe"],
  ["ignored", "awk 1 .env", "unsafe"],
  ["ignored", "cd secrets && cat key", "unsafe"],
  ["ignored", "sort .env", "unsafe"],
  ["ignored", "diff .env x", "unsafe"],
  ["ignored", "cat $(echo .env)", "unsafe"],
  ["ignored", 'cat "$f"', "unsafe"],
  ["ignored", "grep -f .env x", "unsafe"],
  ["ignored", "git ls-files | xargs cat", "unsafe"],
  ["ignored", "grep x --include=.env -r .", "unsafe"],
  ["ignored", "rg -g .env x", "unsafe"],
  ["ignored", "find . -name .env -exec cat {} \\;", "unsafe"],
  ["ignored", "git config --global --list", "unsafe"],
  // Obfuscation.
  ["obfuscation", "base64 -d <<< x | sh", "unparseable"],
  ["obfuscation", "echo cm0gLXJmIH4= | base64 -d | bash", "unparseable"],
  ["obfuscation", "l\u200bs", "unparseable"],
  ["obfuscation", "ls\u200b; wget x", "unparseable"],
  ["obfuscation", "ls \u202e x", "unparseable"],
  ["obfuscation", "ls\u00a0-la", "unparseable"],
  ["obfuscation", "ls\u2028rm x", "deny"],
  ["obfuscation", '"l\u200bs"', "unparseable"],
  ["obfuscation", "ls" + " ".repeat(5000) + "; rm x", "deny"],
  ["obfuscation", "ls" + " ".repeat(5000) + "; wget x", "unsafe"],
  ["obfuscation", "ls\x00; wget x", "unparseable"],
  ["obfuscation", "ls\x1b[2K; wget x", "unparseable"],
  ["obfuscation", "ls\x1b; rm x", "deny"],
  ["obfuscation", "ls\n\nrm x", "deny"],
  // History expansion (interactive shells expand `!` before parsing).
  ["history", "!rm", "unsafe"],
  ["history", "!!", "unsafe"],
  ["history", "echo !-1", "unsafe"],
  ["history", 'echo "!rm"', "unsafe"],
  ["history", "^ls^rm", "unsafe"],
  // Caps and parse errors fail closed.
  ["cap", "ls ".repeat(9000), "unparseable"],
  ["cap", "ls;".repeat(600), "unparseable"],
  ["cap", "echo " + "$(".repeat(80) + "x" + ")".repeat(80), "unparseable"],
  ["cap", 'bash -c "'.repeat(1) + "eval ".repeat(1) + "'ls'\"", "safe"],
  ["parse", "ls (", "unparseable"],
  ["parse", 'echo "unterminated', "unparseable"],
  ["parse", "ls &&", "unparseable"],
  ["parse", "if true; then", "unparseable"],
  ["parse", "ls <>x", "unparseable"],
  ["parse", "echo ${x", "unparseable"],
  ["parse", "rm x (", "deny"],
  // tree-sitter-bash misreadings that would hide a command: refused, not trusted.
  ["parser", "echo $(pwd) | cat | cat\nwget x > out.txt", "not-safe"],
  ["parser", "ls $(pwd) | cat | cat\nrm x > o", "deny"],
  ["parser", "A=1 B=$(pwd)\nwget x", "not-safe"],
  ["parser", "echo $(pwd); - 2>&1", "not-safe"],
  ["parser", "cat $(pwd) - 1>x", "not-safe"],
  ["parser", ".\n\\rm x", "deny"],
  // git's short spellings of options that run commands (an allow rule for git must not license them).
  ["git short options", "git rebase -ix 'rm x' HEAD~1", "deny"],
  ["git short options", "git rebase '-xrm x' HEAD~1", "deny"],
  ["git short options", "git clone -u 'touch x' origin y", "not-safe"],
  ["git short options", "git clone -qu 'touch x' origin y", "not-safe"],
  ["git short options", "git clone -c core.fsmonitor=x origin y", "not-safe"],
  ["git short options", "git ls-remote -u ./x origin", "not-safe"],
  ["git short options", "git blame --contents=/etc/passwd a.ts", "not-safe"],
  // Found by running generated lines in bash (bashDifferential.test.ts).
  ["parser", "r\\\nm x $((1))", "deny"],
  ["parser", "wg\\\net x $((1))", "unparseable"],
  ["parser", "! { rm x; }", "deny"],
  ["parser", "! { wget x; }", "unparseable"],
  ["parser", "ls $(cat <<EOF\nbody\nEOF ; cat <<'EOF'\na $(wget x) b\nEOF)", "not-safe"],
];

describe("threats never come out safe", () => {
  it.each(cases.filter(([, , e]) => e !== "safe"))("%s: %j", (_family, command, expected) => {
    const r = a.analyze(command, context({ allow: ALLOW, deny: DENY }));
    expect(r.verdict, r.reason).not.toBe("safe");
    if (expected !== "not-safe") expect(r.verdict, r.reason).toBe(expected);
    expect(r.reason.length).toBeGreaterThan(0);
    expect(r.rule.length).toBeGreaterThan(0);
  });

  it("an allow rule for all of git does not license git's short options that run programs", () => {
    for (const line of [
      "git clone -u 'touch x' origin y",
      "git clone -qu 'touch x' origin y",
      "git clone '-utouch x' origin y",
      "git clone -c core.fsmonitor=x origin y",
      "git ls-remote -u ./x origin",
      "git rebase -ix 'touch x' HEAD~1",
    ]) {
      const r = a.analyze(line, context({ allow: ["git"] }));
      expect({ line, v: r.verdict }).not.toEqual({ line, v: "safe" });
    }
    for (const line of ["git clone -b main https://example.com/r.git y", "git clone -ouc https://example.com/r.git y"])
      expect({ line, v: a.analyze(line, context({ allow: ["git"] })).verdict }).toEqual({ line, v: "safe" });
  });

  it("nesting of payloads within the cap is still analysed", () => {
    expect(a.analyze("bash -c \"eval 'ls'\"", context()).verdict).toBe("safe");
    let line = "rm x";
    for (let i = 0; i < 12; i++) line = `bash -c ${JSON.stringify(line)}`;
    // Too deep to analyse, but the denied program is still found in the text.
    expect(a.analyze(line, context({ deny: ["rm"] })).verdict).toBe("deny");
    expect(a.analyze(line.replace("rm x", "wget x"), context()).verdict).toBe("unparseable");
  });
});

describe("reasons a person understands", () => {
  it("names the program missing from the allow list", () => {
    const r = a.analyze("curl https://example.com", context());
    expect(r).toMatchObject({
      verdict: "unsafe",
      rule: "commands:not-allowed",
      reason: "`curl` is not in your allow list",
    });
  });
  it("names the denied rule", () => {
    expect(a.analyze("ls; sudo rm -rf /", context({ deny: ["rm"] }))).toMatchObject({
      verdict: "deny",
      rule: "commands.deny: rm",
      reason: "`rm` is denied by your settings",
    });
  });
  it("names the path that escapes", () => {
    expect(a.analyze("echo x > ~/notes.txt", context())).toMatchObject({
      verdict: "unsafe",
      rule: "path:external-write",
      reason: `writes outside the workspace: ${HOME}/notes.txt`,
    });
    expect(a.analyze("echo x > ~/.bashrc", context())).toMatchObject({
      verdict: "unsafe",
      rule: "protected: **/.bashrc",
      reason: `writes to a protected path: ${HOME}/.bashrc`,
    });
  });
  it("names the deleting flag and marks the deletion", () => {
    expect(a.analyze("find . -delete", context({ allow: ["find"] }))).toMatchObject({
      verdict: "unsafe",
      reason: "`find -delete` deletes files",
      deletes: true,
    });
  });
  it("ask rules ask", () => {
    expect(a.analyze("ls && npm publish", context({ allow: ["npm publish"], ask: ["npm publish"] }))).toMatchObject({
      verdict: "ask-rule",
      rule: "permissions.ask: Bash(npm publish)",
    });
  });
  it("deny beats ask and unparseable", () => {
    expect(a.analyze("npm publish; rm x (", context({ ask: ["npm publish"], deny: ["rm"] })).verdict).toBe("deny");
  });
});
