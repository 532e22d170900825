/**
 * The fast parser must never disagree with the tree-sitter walker: whenever it accepts a line, the model
 * (and so the verdict) is the one tree-sitter gives. Lines are generated from the syntax the fast parser
 * covers plus some it must hand over.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { fastParse } from "../../../src/core/commands/fastParse";
import { parseWithTreeSitter } from "../../../src/core/commands/parse";
import { loadBashGrammar } from "../../../src/core/commands/treeSitter";
import type { Parser } from "web-tree-sitter";
import { context, GRAMMAR, HOME } from "./helpers";

let parser: Parser;
let withFast: BashAnalyzer;
let withoutFast: BashAnalyzer;
beforeAll(async () => {
  parser = (await loadBashGrammar(GRAMMAR)).parser;
  withFast = new BashAnalyzer({ grammarFiles: GRAMMAR, homeDir: HOME });
  withoutFast = new BashAnalyzer({ grammarFiles: GRAMMAR, homeDir: HOME, fastPath: false });
  await Promise.all([withFast.ready(), withoutFast.ready()]);
});

const word = fc.oneof(
  fc.constantFrom(
    "ls",
    "git",
    "log",
    "-la",
    "--oneline",
    "-5",
    "src",
    "a.txt",
    "npm",
    "run",
    "build",
    "--",
    "--watch",
    "x=y",
    "a,b",
    "@x",
    "%s",
    "1",
    "22",
    "/dev/null",
    "~",
    "~/x",
    "~u",
    "./a",
    "../b",
    "*.ts",
    "a?",
    "{}",
    "é",
    "x+y",
    "a:b",
    "-",
    "^x",
  ),
  fc.constantFrom(
    "'a b'",
    "'a;b'",
    '"x y"',
    '"$HOME"',
    '"${HOME}"',
    '"a\\"b"',
    '"\\$x"',
    "$HOME",
    "${X}",
    "$1",
    "$@",
    "$?",
    "$'\\x72m'",
    "$'a\\'b'",
    "a\\ b",
    "\\rm",
    "r\\m",
    "''",
    '""',
    "a'b'c",
    "\"a\"'b'",
    "$'\\n'",
  ),
  fc.stringMatching(/^[a-z0-9._-]{1,6}$/),
);
const operator = fc.constantFrom(" ; ", " && ", " || ", " | ", " |& ", " & ", "\n", ";", "&&", "|");
const redirect = fc.constantFrom(
  " > out.txt",
  " >> log",
  " 2>/dev/null",
  " 2>&1",
  " &> all.log",
  " < in.txt",
  " >| f",
  " >&2",
  " 2>&-",
  " 1>x",
  " <&0",
  " &>>x",
);
const prefix = fc.constantFrom("", "", "", "CI=1 ", "FOO= ", "A=b C='d e' ", "X+=1 ", "PAGER=cat ");
const comment = fc.constantFrom("", "", "", " # note", "#x");
const hard = fc.constantFrom(
  "$(ls)",
  "`ls`",
  "<(ls)",
  "${x:-y}",
  "$((1+2))",
  "{a,b}",
  "[a]",
  "!x",
  "a#b",
  "(ls)",
  "<<<x",
  "<<EOF\nx\nEOF",
  "if",
  "export",
  "x[1]=2",
  "[",
  "ls;;",
);

const program = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      "ls",
      "git",
      "npm",
      "cat",
      "echo",
      "grep",
      "rm",
      "\\rm",
      "'rm'",
      "/bin/rm",
      "a.sh",
      "./x",
      "sed",
      "find",
      "curl",
    ),
    weight: 4,
  },
  { arbitrary: word, weight: 1 },
);
const simple = fc
  .tuple(prefix, program, fc.array(word, { maxLength: 4 }), fc.array(redirect, { maxLength: 2 }))
  .map(([p, prog, ws, rs]) => p + [prog, ...ws].join(" ") + rs.join(""));
const line = fc
  .tuple(
    fc.array(fc.tuple(simple, operator), { maxLength: 3 }),
    simple,
    comment,
    fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: hard, weight: 1 }),
  )
  .map(([pairs, last, c, h]) => pairs.map(([s, o]) => s + o).join("") + last + (h ? ` ${h}` : "") + c);

/** Compound statements and substitutions, nested. */
const { statement } = fc.letrec<{ statement: string; list: string }>((tie) => ({
  statement: fc.oneof(
    { arbitrary: simple, weight: 6 },
    { arbitrary: tie("list").map((l) => `( ${l} )`), weight: 1 },
    { arbitrary: tie("list").map((l) => `{ ${l}; }`), weight: 1 },
    {
      arbitrary: fc
        .tuple(tie("list"), tie("list"), fc.option(tie("list")))
        .map(([c, t, e]) => `if ${c}; then ${t}${e === null ? "" : `; else ${e}`}; fi`),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(fc.array(word, { maxLength: 3 }), tie("list"))
        .map(([ws, b]) => `for f in ${ws.join(" ")}; do ${b}; done`),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(tie("list"), tie("list"), fc.constantFrom("", " < in.txt", " 2>&1", " > out"))
        .map(([c, b, r]) => `while ${c}; do ${b}; done${r}`),
      weight: 1,
    },
    {
      arbitrary: fc
        .tuple(program, tie("list"), fc.constantFrom("$(", '"$(', "<(", ">("))
        .map(([p, l, o]) => `${p} ${o}${l})${o.startsWith('"') ? '"' : ""}`),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(
          program,
          fc.constantFrom("EOF", "'EOF'", '"END"'),
          fc.constantFrom("x", "$HOME", "a $(ls)", "`ls`", "${x}"),
          fc.constantFrom("", " | sh", " > out.txt", " && ls"),
        )
        .map(([p, d, body, rest]) => `${p} <<${d}${rest}\n${body}\n${d.replace(/['"]/g, "")}`),
      weight: 1,
    },
  ),
  list: fc
    .tuple(fc.array(fc.tuple(tie("statement"), operator), { maxLength: 2 }), tie("statement"))
    .map(([pairs, last]) => pairs.map(([s, o]) => s + o).join("") + last),
}));

describe("fast parser", () => {
  it("agrees with the tree-sitter walker on compound statements and substitutions", () => {
    let accepted = 0;
    fc.assert(
      fc.property(statement, (l) => {
        const fast = fastParse(l);
        if (!fast) return;
        accepted++;
        expect(fast, JSON.stringify(l)).toEqual(parseWithTreeSitter(parser, l));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
    expect(accepted).toBeGreaterThan(0);
  });

  it("agrees with the tree-sitter walker whenever it accepts a line", () => {
    let accepted = 0;
    let total = 0;
    fc.assert(
      fc.property(line, (l) => {
        total++;
        const fast = fastParse(l);
        if (!fast) return;
        accepted++;
        const slow = parseWithTreeSitter(parser, l);
        expect(fast, JSON.stringify(l)).toEqual(slow);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
    // The test is only meaningful if the fast parser takes most generated lines.
    expect(accepted / total).toBeGreaterThan(0.3);
  });

  it("gives the same analysis as the parser path", () => {
    const ctx = context({ allow: ["npm run build", "git log"], deny: ["rm", "curl"] });
    fc.assert(
      fc.property(line, (l) => {
        expect(withFast.analyze(l, ctx), JSON.stringify(l)).toEqual(withoutFast.analyze(l, ctx));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 2000) },
    );
  });

  it("hands over what it does not cover", () => {
    for (const l of [
      "ls `pwd`",
      "echo ${x:-y}",
      "echo $((1+2))",
      "ls (",
      "export A=1",
      "[ -f x ]",
      "[[ -f x ]]",
      "echo {a,b}",
      "a[1]=2",
      "!ls",
      "ls ;; ls",
      "echo a#b",
      "ls &&",
      "case x in *) ls;; esac",
      "f() { ls; }",
      "cat <<EOF\n$(ls)\nEOF",
      "echo $(cat <<EOF\nx\nEOF\n)",
      "echo $(< f)",
      "(( x ))",
    ]) {
      expect(fastParse(l), l).toBeUndefined();
    }
  });

  it("takes plain everyday lines", () => {
    for (const l of [
      "echo $(ls)",
      'echo "$(git rev-parse HEAD)"',
      "cat <(ls)",
      "diff <(ls a) <(ls b)",
      "if true; then ls; elif false; then pwd; else echo; fi",
      'for f in $(git ls-files); do wc -l "$f"; done',
      'while read -r l; do echo "$l"; done < f',
      "(cd src && ls)",
      "{ ls; pwd; } 2>&1",
      "cat <<'EOF'\n$(rm x)\nEOF",
      "cat <<EOF > out\nhello $USER\nEOF",
      "ls <<< x",
      "! ls",
      "git status",
      "npm run build -- --watch",
      "ls -la src | grep ts",
      "cd packages/a && npm test 2>&1 | tee log.txt",
      "grep -rn x src 2>/dev/null",
      "echo 'a;b'",
      'echo "$HOME"',
      "CI=1 npm test",
      "git log --format='%h %s' -5",
    ]) {
      expect(fastParse(l), l).toBeDefined();
    }
  });
});
