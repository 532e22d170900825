/**
 * Words are judged as bash expands them: brace expansion and tildes reach the deny rules, the catalogue's
 * per-program checks and the path gate as the argv bash will run (expand.ts), with the real analyzer.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type { CommandContext } from "../../../src/core/commands/types";
import { context, HOME, loadedAnalyzer, WS, type RecordingPathGate } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const DENY = ["rm", "curl", "sh", "git push"];
const ALLOW = ["ls", "echo", "cat", "rg", "git log", "find", "env", "timeout", "xargs", "tee", "git status"];

function judge(command: string, ctx: CommandContext = context({ deny: DENY, allow: ALLOW })) {
  return a.analyze(command, ctx);
}

/** The paths the analysis asked the path gate about, resolved against their cwd. */
function pathsChecked(command: string, cwd = WS): string[] {
  const ctx = context({ deny: DENY, allow: ALLOW, cwd });
  a.analyze(command, ctx);
  return (ctx.paths as RecordingPathGate).calls.map((c) => (c.path.startsWith("/") ? c.path : `${c.cwd}/${c.path}`));
}

describe("brace expansion before judgement", () => {
  it.each([
    // A denied program spelled as a brace word, as the program or as an argument of a wrapper.
    ["{rm,-rf,src}", "deny"],
    ["r{m,} -rf src", "deny"],
    ["env {rm,-rf} src", "deny"],
    ["timeout 5 {rm,x}", "deny"],
    ["ls | xargs {rm,-f}", "deny"],
    ["git {push,--force}", "deny"],
    // tree-sitter reads a brace word in command position as a group: unparseable, which asks.
    ["echo {a,b} && {cu,}rl x", "unparseable"],
    // A code-running option hidden in one brace word.
    ["rg {--pre=sh,x} y", "deny"],
    ["rg {--pre,sh} y", "deny"],
    ["find . {-exec,rm,x,;}", "deny"],
  ])("%s is judged like its expansion: %s", (command, verdict) => {
    expect(judge(command).verdict).toBe(verdict);
  });

  it("options hidden in a brace word reach the per-program checks", () => {
    expect(judge("git {-c,core.pager=less} log").verdict).not.toBe("safe");
    expect(judge("find . {-delete,-name,x}").deletes).toBe(true);
    expect(judge("find . {-fprint,out.txt}").readOnly).toBe(false);
  });

  it("benign brace words stay allowed, each expanded path checked", () => {
    expect(judge("cat src/{a,b}.ts").verdict).toBe("safe");
    expect(judge("echo {a,b}").verdict).toBe("safe");
    expect(judge("echo {1..3} {a..c} {01..10..3}").verdict).toBe("safe");
    expect(judge("l{s,} src").verdict).toBe("safe");
    expect(pathsChecked("cat src/{a,b}.ts")).toEqual([`${WS}/src/a.ts`, `${WS}/src/b.ts`]);
  });

  it("paths made by brace expansion meet the path gate one by one", () => {
    const ignored = judge("cat {src/a.ts,.env}");
    expect(ignored.verdict).toBe("unsafe");
    expect(ignored.rule).toBe("ignoreFile: .toolgateignore");
    expect(judge("cat {src,..}/x").rule).toBe("path:external-read");
    expect(judge("tee {a,.git/hooks/pre-commit} < /dev/null").rule).toBe("protected: **/.git/**");
    expect(pathsChecked("cat {src,..}/{x,y}")).toEqual([`${WS}/src/x`, `${WS}/src/y`, `${WS}/../x`, `${WS}/../y`]);
  });

  it("`for` iterates over the expanded list", () => {
    expect(judge('for f in src/{a,b}.ts; do cat "$f"; done').verdict).toBe("safe");
    expect(judge('for f in {src/a.ts,.env}; do cat "$f"; done').rule).toBe("ignoreFile: .toolgateignore");
    expect(judge("for f in {rm,x}; do $f y; done").verdict).not.toBe("safe");
  });

  it("a redirect target that brace-expands to several words is refused by bash: unparseable", () => {
    expect(judge("echo x > {a,.git/config}").verdict).toBe("unparseable");
    expect(judge("echo x > {a}").verdict).toBe("safe");
  });

  it("quoted or escaped braces, `${`, `{}` and `{x}` do not expand", () => {
    expect(pathsChecked("cat '{a,b}'")).toEqual([`${WS}/{a,b}`]);
    expect(pathsChecked("cat \\{a,b}")).toEqual([`${WS}/{a,b}`]);
    expect(pathsChecked("cat {a\\,b}")).toEqual([`${WS}/{a,b}`]);
    expect(pathsChecked("cat {x}")).toEqual([`${WS}/{x}`]);
    expect(pathsChecked('cat "{"a,b}')).toEqual([`${WS}/{a,b}`]);
  });

  it("a brace word with a part known only at run time stays unknown in each word", () => {
    expect(judge("cat {$x,a}").verdict).toBe("unsafe");
    expect(judge("cat {$x,a}").rule).toBe("path:unknown");
    expect(judge("{$x,a}").verdict).toBe("unparseable");
  });

  it("past the cap the line is unparseable", () => {
    expect(judge("echo {1..20000}").verdict).toBe("unparseable");
    expect(judge("echo {1..100}{1..100}{1..2}").verdict).toBe("unparseable");
  });

  it("assignment values are not brace-expanded, as in bash", () => {
    expect(judge("A={a,b} ls").verdict).toBe("safe");
  });
});

describe("tilde expansion before judgement", () => {
  it("`~` and `~/x` are the known home directory", () => {
    expect(pathsChecked("cat ~/notes.txt")).toEqual([`${HOME}/notes.txt`]);
    expect(judge("cat ~/notes.txt").rule).toBe("path:external-read");
    expect(pathsChecked("echo x > ~/.bashrc")).toEqual([`${HOME}/.bashrc`]);
    expect(pathsChecked("cat {~,src}/x")).toEqual([`${HOME}/x`, `${WS}/src/x`]);
  });

  it("`~+` is the working directory; `~-` and `~user` are known only at run time", () => {
    expect(judge("cat ~+/src/a.ts").verdict).toBe("safe");
    expect(pathsChecked("cat ~+/src/a.ts")).toEqual([`${WS}/src/a.ts`]);
    expect(judge("cat ~-/x").rule).toBe("path:unknown");
    expect(judge("cat ~root/x").rule).toBe("path:unknown");
  });

  it("after `=` and `:` in assignment-shaped words, as bash does", () => {
    // `dd`-style operands: bash expands the tilde after `=` in a word shaped like an assignment.
    expect(pathsChecked("mytool of=~/x:~/y")).toContain(`${HOME}/x:${HOME}/y`);
    const ctx = context({ deny: DENY, allow: ALLOW });
    const r = a.analyze("PATH=~/bin:$PATH ls", ctx);
    expect(r.verdict).not.toBe("safe");
    // Not after `=` in an option, nor after a quoted tilde.
    expect(pathsChecked("cat -- --x=~/y '~'/z")).toEqual([`${WS}/--x=~/y`, `${WS}/~/z`]);
  });

  it("ls ~ reads names outside the workspace, as the policy says for any outside path", () => {
    expect(judge("ls ~").rule).toBe(judge(`ls ${HOME}`).rule);
  });
});
