/**
 * The shell-grammar families of the adversarial review, each as a family: substitutions in every word
 * position (checked against real bash: wherever bash runs the substitution, the analysis must find it or
 * refuse the line), wrappers' full option grammar, shell state that outlives a command, denied programs in
 * every spelling, brace expansion past its cap. Lines the analysis cannot model must come out
 * `unparseable`, which the gate asks about in every mode (auto and "run all commands" included); the gate
 * seam below checks exactly that. Everyday lines must still be allowed.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type { CommandVerdict } from "../../../src/core/commands/types";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const DENY = ["rm", "curl", "git push"];
const ALLOW = ["ls", "echo", "git log", "git status", "npm test", "cat", "grep", "env", "timeout", "xargs", "nice"];
const verdict = (line: string): CommandVerdict => a.analyze(line, context({ allow: ALLOW, deny: DENY })).verdict;

const bashPath = spawnSync("sh", ["-c", "command -v bash"], { encoding: "utf8" }).stdout.trim();

describe("family 1: a substitution bash runs is found wherever it stands", () => {
  // `S` stands for the substitution; bash decides whether it runs.
  const contexts = [
    "echo S",
    'echo "S"',
    "echo 'S'",
    "echo ${x:-S}",
    'echo "${x:-S}"',
    "echo ${x:=S}",
    "echo ${x-S}",
    "echo ${x#S}",
    "echo ${x%%S}",
    "echo ${x/a/S}",
    "x=1; echo ${x:+S}",
    'echo ${x:-"S"}',
    `echo "\${x:-'S'}"`,
    "echo ${x:-'S'}",
    "echo ${x:-${y:-S}}",
    "echo $(( 1 + S ))",
    "echo $(( a[S] ))",
    "(( a[S] ))",
    "a[S]=1",
    "declare a[S]=1",
    "[[ -v a[S] ]]",
    "echo ${a[S]}",
    "cat <<< S",
    "cat <<EOF\nS\nEOF",
    "cat <<'EOF'\nS\nEOF",
    "cat <<-EOF\n\tS\n\tEOF",
    "echo --file=S",
    "x=S",
    'echo a"b"S',
    "echo $'a'S",
    "for i in S; do :; done",
    "case S in *) ;; esac",
    'echo "$(echo "S")"',
    "echo $(echo 'S')",
    "echo a # S",
    "echo a\\ #S",
    "[ S ]",
    "test -n S",
    "echo {a,S}",
    'let "a[S]"',
    "echo ${x@P}S",
    "f() { :; }; f S",
    // A quoted or computed value a declaration reads as an array: bash parses it again and runs what it holds.
    "declare -a a='([0]=S)'",
    "declare -A a='([k]=S)'",
    "typeset -a a='(S)'",
    "readonly -a a='(S)'",
    "export -a a='(S)'",
    "f() { local -a a='(S)'; }; f",
    "f() { local -a a; local a='(S)'; }; f",
    "declare -a a+='(S)'",
    "declare -a 'a=(S)'",
    "declare -a a=$'(S)'",
    "x='(S)'; declare -a a=$x",
    `x='(S)'; declare -a a="$x"`,
    "a=(1); declare a='(S)'",
    "true | true; declare PIPESTATUS='(S)'",
    "declare -ga a='(S)'",
    "true & wait -p 'a[S]' -n",
    "printf -v'a[S]' x",
    "true & wait -p'a[S]' -n",
    "true & wait -np'a[S]'",
    // `{NAME}` right before a redirect is an assignment bash makes (the descriptor's number), not an argument.
    "x='a[S]'; : {a[x]}</dev/null",
    ": {a[S]}>/dev/null",
    "x='S'; echo {b[$x]}>/dev/null",
    // An index in an array literal is arithmetic for an indexed array.
    "x='a[S]'; b=([$x]=1)",
    "x='S'; b=([$x]=1)",
    "x='a[S]'; declare -a b=([$x]=1)",
    "x='a[S]'; b+=([$x]=1)",
  ];
  const substitutions = ["$(rm x)", "`rm x`", "<(rm x)"];
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "toolgate-families-"));
    mkdirSync(join(root, "bin"));
    // `rm` leaves a mark instead of deleting; everything else the lines need is a bash builtin.
    writeFileSync(join(root, "bin", "rm"), '#!/bin/sh\n: > "$MARK"\n');
    chmodSync(join(root, "bin", "rm"), 0o755);
    writeFileSync(join(root, "bin", "cat"), "#!/bin/sh\n");
    chmodSync(join(root, "bin", "cat"), 0o755);
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function bashRuns(line: string): boolean {
    const mark = join(root, `mark-${Math.random().toString(36).slice(2)}`);
    spawnSync(bashPath, ["--norc", "--noprofile", "-c", line], {
      cwd: root,
      env: { PATH: join(root, "bin"), MARK: mark },
      timeout: 3000,
      stdio: "ignore",
    });
    const ran = existsSync(mark);
    if (ran) rmSync(mark);
    return ran;
  }

  it.skipIf(!bashPath.startsWith("/"))("every line where bash ran `rm` is denied or refused", () => {
    let ran = 0;
    const missed: string[] = [];
    for (const c of contexts)
      for (const s of substitutions) {
        const line = c.replaceAll("S", s);
        if (!bashRuns(line)) continue;
        ran++;
        const v = a.analyze(line, context({ deny: ["rm"] })).verdict;
        if (v !== "deny" && v !== "unparseable") missed.push(`${JSON.stringify(line)} → ${v}`);
        // Without any deny rule the line still cannot be safe.
        if (a.analyze(line, context()).verdict === "safe") missed.push(`${JSON.stringify(line)} → safe`);
      }
    expect(missed).toEqual([]);
    // The contexts are not all inert: most of them do run the substitution.
    expect(ran).toBeGreaterThan(60);
  });

  it("backquotes and substitutions that only look like code stay data", () => {
    expect(verdict("git log --format='fix `foo` $(bar)'")).toBe("safe");
    expect(verdict("echo 'a;b' \"$HOME\"")).toBe("safe");
    expect(verdict("grep -n '$(' src/a.ts")).toBe("safe");
    expect(verdict("cat <<'EOF'\n$(rm x) `rm x`\nEOF")).toBe("safe");
  });
});

type Expect = CommandVerdict | "not-safe";
const table: [family: string, line: string, expected: Expect][] = [
  // Family 2: wrappers whose options carry a command, and every wrapper's option grammar.
  ["wrapper", "env -S 'env rm x'", "deny"],
  ["wrapper", "env -S 'FOO=1' rm x", "deny"],
  ["wrapper", "env --split-string='rm x'", "deny"],
  ["wrapper", 'env -S"rm x"', "deny"],
  ["wrapper", "env -S 'a\\_b' ls", "unparseable"],
  ["wrapper", "env -S '${X}' ls", "unparseable"],
  ["wrapper", "env --bogus ls", "unparseable"],
  ["wrapper", "env $opt ls", "unparseable"],
  ["wrapper", "timeout --bogus 5 ls", "unparseable"],
  ["wrapper", "timeout 5 $x", "unparseable"],
  ["wrapper", "nice --bogus ls", "unparseable"],
  ["wrapper", "nice -n 5 $x", "unparseable"],
  ["wrapper", "ionice -X ls", "unparseable"],
  ["wrapper", "setsid -fw rm x", "deny"],
  ["wrapper", "stdbuf -oL rm x", "deny"],
  ["wrapper", "stdbuf --bogus ls", "unparseable"],
  ["wrapper", "chrt -f 1 rm x", "deny"],
  ["wrapper", "taskset 1 $x", "unparseable"],
  ["wrapper", "taskset -c 0 rm x", "deny"],
  ["wrapper", "flock -c 'rm x' /tmp/l", "deny"],
  ["wrapper", "flock /tmp/l rm x", "deny"],
  ["wrapper", "script -qc 'rm x' /dev/null", "deny"],
  ["wrapper", "script -c 'curl x | sh'", "deny"],
  ["wrapper", "strace $x", "unparseable"],
  ["wrapper", "ltrace -o /dev/null rm x", "deny"],
  ["wrapper", "chroot / sh -c 'rm x'", "deny"],
  ["wrapper", "runuser -u bob -- sh -c 'rm x'", "deny"],
  ["wrapper", "sg staff -c 'rm x'", "deny"],
  ["wrapper", "su -c 'rm x' bob", "deny"],
  ["wrapper", "sudo -u root rm x", "deny"],
  ["wrapper", "sudo --bogus ls", "unparseable"],
  ["wrapper", "doas -u bob rm x", "deny"],
  ["wrapper", "unbuffer rm x", "deny"],
  ["wrapper", "nohup rm x", "deny"],
  ["wrapper", "nohup --bogus ls", "unparseable"],
  ["wrapper", "time -p rm x", "deny"],
  ["wrapper", "time --bogus ls", "unparseable"],
  ["wrapper", "command -- rm x", "deny"],
  ["wrapper", "command $x", "unparseable"],
  ["wrapper", "command -X ls", "unparseable"],
  ["wrapper", "builtin rm x", "deny"],
  ["wrapper", "exec -a name rm x", "deny"],
  ["wrapper", "watch -x rm x", "deny"],
  ["wrapper", "watch --bogus ls", "unparseable"],
  ["wrapper", "xargs -0 $x", "unparseable"],
  ["wrapper", "xargs --bogus ls", "unparseable"],
  ["wrapper", "busybox --install -s /tmp/bin", "unparseable"],
  ["wrapper", "busybox sh -c 'rm x'", "deny"],
  ["wrapper", "jobs -x rm x", "deny"],
  ["wrapper", "jobs -lx -- rm x", "deny"],
  ["wrapper", "jobs -x $x", "unparseable"],
  // Family 6: shell state that outlives the command.
  ["state", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm x' git log", "deny"],
  ["state", "LESS='+!rm x' less README.md", "ask-rule"],
  ["state", "PS0='$(ls)'", "not-safe"],
  ["state", "PS4='$(rm x)'; set -x; ls", "deny"],
  ["state", "PROMPT_COMMAND='rm x'", "deny"],
  ["state", "export PS1='x'", "not-safe"],
  ["state", "declare PROMPT_COMMAND=x", "not-safe"],
  ["state", "typeset IFS=x", "not-safe"],
  ["state", "local CDPATH=/tmp", "not-safe"],
  ["state", "readonly GLOBIGNORE='*'", "not-safe"],
  ["state", "read IFS", "not-safe"],
  ["state", "true & wait -n -p PATH", "not-safe"],
  ["state", "ls {PATH}<README.md", "not-safe"],
  ["state", "MAGIC=mymagic file README.md", "not-safe"],
  ["state", "MAKEFILES=evil.mk make test", "not-safe"],
  ["state", "ls {IFS}>/dev/null", "not-safe"],
  ["state", "read -a PATH", "not-safe"],
  ["state", "printf -v PATH x", "not-safe"],
  ["state", "printf -vPATH x", "not-safe"],
  ["state", "mapfile HISTFILE", "not-safe"],
  ["state", "readarray -t BASH_ENV", "not-safe"],
  ["state", "mapfile -C 'rm x' lines", "deny"],
  ["state", "for PATH in a; do ls; done", "not-safe"],
  ["state", "echo ${IFS:=x}", "not-safe"],
  ["state", "getopts a PS4", "not-safe"],
  ["state", "f() { ls; }", "not-safe"],
  ["state", "alias ls=x", "not-safe"],
  ["state", "trap ls EXIT", "not-safe"],
  ["state", "enable -n echo", "not-safe"],
  ["state", "shopt -s expand_aliases", "not-safe"],
  ["state", "set -o vi", "not-safe"],
  ["state", "set +o posix", "not-safe"],
  ["state", "export -f f", "not-safe"],
  ["state", "declare -fx f", "not-safe"],
  ["state", "source x.sh", "not-safe"],
  ["state", ". x.sh", "not-safe"],
  ["state", "hash -p /tmp/x ls", "not-safe"],
  ["state", "PATH=/tmp/bin:$PATH; ls", "unparseable"],
  ["state", "BASH_ENV=/tmp/x bash -c ls", "unparseable"],
  ["state", "env 'BASH_FUNC_ls%%=() { id; }' bash -c ls", "unparseable"],
  ["state", "declare -n r='a[$(id)]'", "unparseable"],
  ["state", "unset 'a[$(id)]'", "unparseable"],
  ["state", "read 'a[$(id)]'", "unparseable"],
  ["state", "getopts a 'a[$(id)]'", "unparseable"],
  ["state", "let 'a[$(id)]'", "unparseable"],
  ["state", "let i++", "unparseable"],
  // Family 8: denied programs in every spelling.
  ["spelling", "x=rm; $x y", "deny"],
  ["spelling", "/???/[r]m y", "unparseable"],
  ["spelling", "/bin/r? y", "unparseable"],
  ["spelling", "bash -c '$0' rm", "deny"],
  ["spelling", "bash -c '\"$@\"' _ rm y", "deny"],
  ["spelling", "echo rm y | sh", "deny"],
  ["spelling", "echo ls | sh", "unparseable"],
  ["spelling", "git $x", "unparseable"],
  ["spelling", '"r""m" y', "deny"],
  ["spelling", "$'\\x72m' y", "deny"],
  ["spelling", "\\rm y", "deny"],
  ["spelling", "r\\m y", "deny"],
  ["spelling", "eval -- rm y", "deny"],
  ["spelling", "trap -- rm EXIT", "deny"],
  ["spelling", "trap -- 'rm y' EXIT", "deny"],
  ["spelling", ". /dev/stdin <<< 'rm y'", "deny"],
  ["spelling", "source -- /dev/stdin <<< 'rm y'", "deny"],
  ["spelling", 'bash -c "rm x"', "deny"],
  ["spelling", "$x", "unparseable"],
  ["spelling", "${x} y", "unparseable"],
  ["spelling", 'eval "$x"', "unparseable"],
  ["spelling", ". /dev/stdin", "unparseable"],
  ["spelling", "source <(echo ls)", "unparseable"],
  ["spelling", "bash /dev/stdin", "unparseable"],
  ["spelling", "echo ${!x}", "unparseable"],
  ["spelling", "echo ${x@P}", "unparseable"],
  ["spelling", "echo $((x))", "unparseable"],
  // Family 10 (grammar side): brace expansion past its cap.
  ["brace", "echo " + "{a,b}".repeat(2000), "unparseable"],
  ["brace", "echo {1..100000000}", "unparseable"],
  ["brace", "echo {a,b,c}{1..9}{x,y}", "safe"],
];

describe("families 2, 6, 8, 10: each line is refused, asked or at least not vouched for", () => {
  for (const [family, line, expected] of table) {
    it(`${family}: ${JSON.stringify(line.length > 80 ? line.slice(0, 80) + "…" : line)}`, () => {
      const r = a.analyze(line, context({ allow: ALLOW, deny: DENY }));
      if (expected === "not-safe") expect(r.verdict, r.reason).not.toBe("safe");
      else expect(r.verdict, r.reason).toBe(expected);
    });
  }
});

const BENIGN = [
  "git status && git diff",
  "ls | wc -l",
  "grep -rn x src 2>/dev/null",
  'echo "$HOME"',
  "echo 'a;b'",
  "git log --oneline -5",
  'echo "build at $(date +%H:%M)"',
  "cat <<'EOF' > notes.md\nsome `code` and $(text)\nEOF",
  "echo {a,b}",
  "ls -la src | grep ts",
  "[[ $# -eq 0 ]] && echo none",
  "declare -a files=(src/*.ts); echo ${files[0]}",
  "b=([0]=x [1]=y); echo ${b[@]}",
  'export NAME="$(git rev-parse --abbrev-ref HEAD)"; echo $NAME',
  "declare -r limit=5; echo $limit",
  "ls {a,b}",
];

describe("everyday lines are still allowed", () => {
  for (const line of BENIGN)
    it(JSON.stringify(line), () => {
      const r = a.analyze(line, context());
      expect(r.verdict, r.reason).toBe("safe");
    });
});

describe("the gate asks about what the analysis cannot model, in every mode", () => {
  const t = tempTree({ "ws/src/a.ts": "a" }, {});
  afterAll(() => t.cleanup());
  const profiles: Record<string, Record<string, unknown>> = {
    defaults: {},
    "run all commands": {
      "toolgate.autoApprove.actions": { readFiles: true, executeSafeCommands: true, executeAllCommands: true },
    },
    auto: { "toolgate.mode": "auto" },
    "approve-all": { "toolgate.autoApprove.all": true },
    plan: { "toolgate.mode": "plan" },
  };
  const unknown = [
    "x=r; ${x}m y",
    "/???/[r]m y",
    "echo ${x:-`touch y`}",
    "echo ls | sh",
    'eval "$cmd"',
    "env -S '${X}' ls",
    "timeout --bogus 5 ls",
    "echo $((a[$x]))",
    "echo " + "{a,b}".repeat(2000),
    // Code bash reads from a quoted value, and denied programs in what configures a program.
    "declare -a a='([0]=$(touch y))'",
    "x='a[$(touch y)]'; b=([$x]=1)",
    "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm y' git log",
    "LESS='+!rm y' less README.md",
  ];
  for (const [name, settings] of Object.entries(profiles))
    it(`${name}: none of them runs unasked`, async () => {
      const g = await gateWith({ "toolgate.commands.deny": DENY, ...settings }, [t.path("ws")]);
      for (const line of unknown) {
        const d = g.decide(call("execute_command", { command: line }));
        expect(d.decision, `${line}: ${d.reason}`).not.toBe("allow");
      }
      // And everyday work is not blocked by it (plan and defaults run safe reads too).
      expect(g.decide(call("execute_command", { command: "git status && git diff" })).decision).toBe("allow");
    });
});
