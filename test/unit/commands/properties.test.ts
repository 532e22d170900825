/**
 * Properties over generated input: the analysis never throws; injecting a command anywhere into an allowed
 * line never yields `safe`; a denied program is denied under every wrapper, spelling and construct; and
 * tightening the rules never makes a line more permissive.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

const RUNS = Number(process.env.FC_RUNS ?? 1500);

function shellQuote(s: string): string {
  return `'${s.replaceAll("'", "'\\''")}'`;
}

describe("analysis", () => {
  it("never throws, whatever the text", () => {
    const text = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ unit: fc.constantFrom(..."$()`'\"\\;&|<>{}[]*?~#!= \n\tabc-"), maxLength: 120 }),
    );
    fc.assert(
      fc.property(text, (t) => {
        const r = a.analyze(t, context({ allow: ["ls", "git log"], deny: ["rm"] }));
        expect(["deny", "ask-rule", "safe", "unsafe", "unparseable"]).toContain(r.verdict);
        expect(typeof r.reason).toBe("string");
        expect(typeof r.rule).toBe("string");
      }),
      { numRuns: RUNS },
    );
  });

  const allowedLines = [
    "ls -la src",
    "git status",
    "git log --oneline -5",
    "npm test",
    "cat README.md",
    "grep -rn x src 2>/dev/null",
    "echo hi",
    "wc -l package.json",
    "cd src && ls",
    "ls | wc -l",
    "npm run build -- --watch",
  ];
  const intruders = ["wget x", "python3 -c 1", "sh", "nc -l 4444", "node x.js", "chmod 777 x", "git push", "make"];
  const injections = [
    (x: string) => `; ${x}`,
    (x: string) => ` && ${x}`,
    (x: string) => `| ${x}`,
    (x: string) => `$(${x})`,
    (x: string) => `\`${x}\``,
    (x: string) => `\n${x}`,
    (x: string) => ` || ${x}`,
    (x: string) => ` & ${x}`,
    (x: string) => `|& ${x}`,
    (x: string) => ` <(${x})`,
  ];

  it("a command injected anywhere into an allowed line is never safe", () => {
    const ctx = context({ allow: ["npm test", "npm run build", "git status", "git log"] });
    fc.assert(
      fc.property(
        fc.constantFrom(...allowedLines),
        fc.constantFrom(...intruders),
        fc.constantFrom(...injections),
        fc.nat(),
        (line, intruder, inject, at) => {
          expect(a.analyze(line, ctx).verdict).toBe("safe");
          let pos = at % (line.length + 1);
          // Right after `>` or `<`, an injected `|` or `&` forms a redirect operator (`2>|`, `>&`) that writes
          // a file named like the intruder instead of running it: not an injection. Move one character on.
          while (pos > 0 && /[<>]/.test(line[pos - 1]!)) pos = (pos + 1) % (line.length + 1);
          const injected = line.slice(0, pos) + inject(intruder) + line.slice(pos);
          const r = a.analyze(injected, ctx);
          expect(r.verdict, JSON.stringify(injected)).not.toBe("safe");
        },
      ),
      { numRuns: RUNS },
    );
  });

  const spellings = [
    "rm",
    "\\rm",
    "/bin/rm",
    "/usr/bin/rm",
    "r\\m",
    '"rm"',
    "'rm'",
    "$'\\x72m'",
    "r''m",
    'r""m',
    "RM",
    "./rm",
    "$'r'm",
  ];
  /** `argv` wrappers take a simple command; `any` ones take any command text and give a simple one or not. */
  type Wrap = { kind: "argv" | "any"; simpleOut: boolean; wrap: (cmd: string) => string };
  const argv = (wrap: (c: string) => string): Wrap => ({ kind: "argv", simpleOut: true, wrap });
  const quoting = (wrap: (c: string) => string): Wrap => ({ kind: "any", simpleOut: true, wrap });
  const compound = (wrap: (c: string) => string): Wrap => ({ kind: "any", simpleOut: false, wrap });
  const wrappers: Wrap[] = [
    argv((c) => `env ${c}`),
    argv((c) => `env -i A=1 ${c}`),
    argv((c) => `command ${c}`),
    argv((c) => `nohup ${c}`),
    argv((c) => `timeout 5 ${c}`),
    argv((c) => `timeout -k 1 5 ${c}`),
    argv((c) => `nice -n 1 ${c}`),
    argv((c) => `time ${c}`),
    argv((c) => `stdbuf -o0 ${c}`),
    argv((c) => `sudo ${c}`),
    argv((c) => `sudo -u root ${c}`),
    argv((c) => `doas ${c}`),
    argv((c) => `busybox ${c}`),
    argv((c) => `xargs ${c}`),
    argv((c) => `exec ${c}`),
    argv((c) => `ionice -c3 ${c}`),
    argv((c) => `setsid ${c}`),
    argv((c) => `find . -exec ${c} \\;`),
    // (`watch CMD...` joins its words into a shell string, which changes quoted arguments: only -x here.)
    argv((c) => `watch -x ${c}`),
    argv((c) => `strace -f ${c}`),
    quoting((c) => `bash -c ${shellQuote(c)}`),
    quoting((c) => `sh -c ${shellQuote(c)}`),
    quoting((c) => `eval ${shellQuote(c)}`),
    quoting((c) => `watch ${shellQuote(c)}`),
    compound((c) => `ls && ${c}`),
    compound((c) => `( ${c} )`),
    compound((c) => `{ ${c}; }`),
    compound((c) => `echo "$( ${c} )"`),
    compound((c) => `if true; then ${c}; fi`),
    compound((c) => `for i in 1; do ${c}; done`),
    compound((c) => `f() { ${c}; }`),
    compound((c) => `cat <( ${c} )`),
    compound((c) => `ls | ${c}`),
  ];

  it("a denied program is denied under every wrapper and spelling", () => {
    const ctx = context({ allow: ["ls", "find", "xargs", "env", "timeout", "bash", "sh"], deny: ["rm"] });
    fc.assert(
      fc.property(
        fc.constantFrom(...spellings),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom("", " -rf x", " x y"),
        (spelling, picks, args) => {
          let cmd = spelling + args;
          let simple = true;
          for (const p of picks) {
            const choices: Wrap[] = simple ? wrappers : wrappers.filter((x) => x.kind === "any");
            const w: Wrap = choices[p % choices.length]!;
            cmd = w.wrap(cmd);
            simple = w.simpleOut;
          }
          const r = a.analyze(cmd, ctx);
          expect(r.verdict, `${JSON.stringify(cmd)}: ${r.reason}`).toBe("deny");
        },
      ),
      { numRuns: RUNS },
    );
  });

  const anyLine = fc.oneof(
    fc.constantFrom(
      ...allowedLines,
      ...intruders,
      "rm -rf x",
      "find . -delete",
      "git push",
      "curl x | sh",
      "echo x > ~/.bashrc",
      "npm test; rm x",
      "git -c a=b log",
      "cat .env",
    ),
    fc
      .tuple(
        fc.constantFrom(...allowedLines),
        fc.constantFrom(" && ", " | ", "; "),
        fc.constantFrom(...intruders, ...allowedLines),
      )
      .map(([x, op, y]) => x + op + y),
  );
  const rules = fc.subarray([
    "ls",
    "git",
    "git log",
    "git push",
    "npm",
    "npm test",
    "rm",
    "curl",
    "wget",
    "find",
    "sh",
    "make",
    "*",
  ]);

  it("adding a deny rule or removing an allow rule never makes a line safe", () => {
    // Only lines not safe before (and, for the second check, denied before) reach an assertion: count them, so
    // a generator change that made (nearly) every line safe cannot leave this test passing on nothing.
    let notSafe = 0;
    let denied = 0;
    fc.assert(
      fc.property(
        anyLine,
        rules,
        rules,
        fc.constantFrom("rm", "ls", "git", "npm test", "wget", "cat"),
        (line, allow, deny, extra) => {
          const before = a.analyze(line, context({ allow, deny }));
          const moreDeny = a.analyze(line, context({ allow, deny: [...deny, extra] }));
          const lessAllow = a.analyze(line, context({ allow: allow.slice(1), deny }));
          if (before.verdict !== "safe") {
            notSafe++;
            expect(moreDeny.verdict).not.toBe("safe");
            expect(lessAllow.verdict).not.toBe("safe");
          }
          if (before.verdict === "deny") {
            denied++;
            expect(moreDeny.verdict).toBe("deny");
          }
        },
      ),
      { numRuns: RUNS },
    );
    expect(notSafe).toBeGreaterThanOrEqual(RUNS / 3);
    expect(denied).toBeGreaterThanOrEqual(RUNS / 5);
  });
});
