/**
 * Options of catalogued programs that run another program, write a file, or read files the line does not
 * name, checked against the real programs ("an allow is a proof"): each line is first run for real, pointed at
 * a marker (a secret in the ignored `.env`, a script that announces itself), to show the program really does
 * it; then the gate must not allow it — by default, in plan mode, and under an allow rule for the program.
 * Everyday lines of the same programs stay allowed.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const SECRET = "SECRET=marker-7f3a";
const RAN = "marker-ran-5c1e";
const cmd = (command: string) => call("execute_command", { command });
const has = (program: string) => spawnSync("bash", ["-c", `command -v ${program}`]).status === 0;

/** Runs the line with bash in `cwd` and returns what it printed (both streams). */
function run(line: string, cwd: string): string {
  const r = spawnSync("bash", ["-c", line], { cwd, encoding: "utf8", timeout: 20_000 });
  return `${r.stdout}${r.stderr}`;
}

const t = tempTree({
  "w/.toolgateignore": ".env\n.info\n",
  "w/.env": `${SECRET}\n`,
  "w/a.txt": "hello\n",
  "w/data.json": '{"a":1}\n',
  "w/list0": ".env\0",
  "w/sums": `${createHash("md5").update(`${SECRET}\n`).digest("hex")}  .env\n`,
  "w/mymagic": "0 string x %s\n",
  "w/sub/f": "x\n",
  "w/sub/.info": `f\n\t${SECRET}\n`,
  // A script named like an allowed program: `sh echo` runs it.
  "w/echo": `printf '%s\\n' ${RAN}\n`,
  "w/x": `printf '%s\\n' ${RAN}\n`,
  "w/Makefile": "test:\n\t@echo testing\n",
  "w/evil.sh": `#!/bin/sh\necho ${RAN}\n`,
  "w/t.test.js": 'require("node:test")("t", () => {});\n',
  "outside/secret.txt": `${SECRET}\n`,
  "outside/reporter.mjs": `console.log("${RAN}");\nexport default async function* (s) { for await (const e of s) void e; }\n`,
  "w2/a.txt": "hello\n",
});
afterAll(() => t.cleanup());
const w = t.path("w");
spawnSync("chmod", ["+x", t.path("w/evil.sh")]);

/** The verdicts of `lines` under each of `settings`, as `{ line, setting, d }` rows. */
async function verdicts(lines: readonly string[], settings: Record<string, unknown>[], root = w) {
  const rows: { line: string; setting: string; d: string }[] = [];
  for (const s of settings) {
    const g = await gateWith(s, [root]);
    for (const line of lines) rows.push({ line, setting: JSON.stringify(s), d: g.decide(cmd(line)).decision });
  }
  return rows;
}
const DEFAULTS = {};
const PLAN = { "toolgate.mode": "plan" };

/** Every line is refused or asked (never allowed) under each setting. */
async function neverAllowed(lines: readonly string[], settings: Record<string, unknown>[], root = w) {
  expect((await verdicts(lines, settings, root)).filter((r) => r.d === "allow")).toEqual([]);
}

/** Every line is allowed under each setting. */
async function allowed(lines: readonly string[], settings: Record<string, unknown>[], root = w) {
  expect((await verdicts(lines, settings, root)).filter((r) => r.d !== "allow")).toEqual([]);
}

/** Every line is refused under each setting. */
async function refused(lines: readonly string[], settings: Record<string, unknown>[], root = w) {
  expect((await verdicts(lines, settings, root)).filter((r) => r.d !== "deny")).toEqual([]);
}

describe("options that read files named inside another file", () => {
  const lines = [
    "sort --files0-from=list0",
    "printf '.env\\0' | sort --files0-from=-",
    "wc --files0-from=list0",
    "du --files0-from=list0",
    "find -files0-from list0",
    "file -f list0",
  ];

  it("the real programs read .env through the list", () => {
    expect(run(lines[0]!, w)).toContain(SECRET);
    expect(run(lines[1]!, w)).toContain(SECRET);
    for (const line of lines.slice(2)) expect(run(line, w)).toContain(".env");
    expect(run("md5sum -c sums", w)).toContain(".env: OK");
  });

  it("are never allowed, even under an allow rule for the program", async () => {
    await neverAllowed(lines, [DEFAULTS, PLAN, { "toolgate.commands.allow": ["sort", "wc", "du", "file", "find"] }]);
    await neverAllowed(["md5sum -c sums", "md5sum --check sums"], [{ "toolgate.commands.allow": ["md5sum"] }]);
  });

  it("find -files0-from hands its -exec the files named in the list, wherever they are", async () => {
    const list = t.path("w2/list0");
    spawnSync("bash", ["-c", `printf '%s\\0' ${t.path("outside/secret.txt")} > ${list}`]);
    const line = "find -files0-from list0 -exec cat {} +";
    expect(run(line, t.path("w2"))).toContain(SECRET);
    await neverAllowed([line], [DEFAULTS, PLAN], t.path("w2"));
  });

  it("tar -T archives the files named in the list", async () => {
    const line = "tar -cf - --null -T list0 | tar -xOf -";
    expect(run(line, w)).toContain(SECRET);
    await neverAllowed(
      ["tar -cf - --null -T list0", "tar cf - --files-from=list0"],
      [{ "toolgate.commands.allow": ["tar"] }],
    );
    await allowed(["tar -tf x.tar", "tar -tf x.tar -T list0"], [DEFAULTS, PLAN]);
  });

  it("everyday lines of the same programs stay allowed", async () => {
    await allowed(
      ["sort a.txt", "sort -u -k1,1 a.txt", "wc -l a.txt", "du -sh sub", "find . -name '*.txt'", "file a.txt"],
      [DEFAULTS, PLAN],
    );
    await allowed(["md5sum a.txt"], [DEFAULTS, PLAN]);
  });
});

describe("find -exec with a program that writes the files found", () => {
  it("writes below the start point, where a protected path can be (a git hook)", async () => {
    const hook = t.path("w/.git/hooks/pre-commit");
    spawnSync("bash", ["-c", `mkdir -p ${t.path("w/.git/hooks")} && echo old > ${hook}`]);
    const line = "find . -path ./.git/hooks/pre-commit -exec cp evil.sh {} \\;";
    run(line, w);
    expect(readFileSync(hook, "utf8")).toContain(RAN);
    const allowWriters = {
      "toolgate.commands.allow": ["find", "cp", "touch", "sort", "uniq"],
      "toolgate.autoApprove.actions": { editFiles: true },
    };
    await neverAllowed(
      [
        line,
        "find . -path ./.git/config -exec touch {} +",
        "find . -name config -exec sort -o {} {} \\;",
        "find . -name config -exec uniq a.txt {} \\;",
      ],
      [allowWriters],
    );
    await allowed(["touch b.txt", "sort -o b.txt a.txt", "find . -name '*.txt' -print"], [allowWriters]);
  });
});

describe("tar -x writes the members named inside the archive", () => {
  it("which can be a protected path (a git hook)", async () => {
    const src = t.path("tarsrc");
    spawnSync("bash", ["-c", `mkdir -p ${src}/.git/hooks && echo '${RAN}' > ${src}/.git/hooks/pre-commit`]);
    spawnSync("tar", ["-C", src, "-cf", t.path("w/hooks.tar"), ".git"]);
    const into = t.path("extract");
    spawnSync("mkdir", ["-p", into]);
    run(`tar -xf ${t.path("w/hooks.tar")}`, into);
    expect(readFileSync(`${into}/.git/hooks/pre-commit`, "utf8")).toContain(RAN);
    const allowTar = { "toolgate.commands.allow": ["tar"], "toolgate.autoApprove.actions": { editFiles: true } };
    await neverAllowed(
      ["tar -xf hooks.tar", "tar xf hooks.tar", "tar -xf hooks.tar -C sub", "tar --extract -f hooks.tar"],
      [allowTar],
    );
    // Printing the members writes nothing.
    await allowed(["tar -tf hooks.tar", "tar -xOf hooks.tar", "tar -x --to-stdout -f hooks.tar"], [allowTar]);
  });
});

describe("jq reads its options after --args too", () => {
  const lines = [
    "jq -n '$x' --args --rawfile x .env",
    "jq -n '$x' --args a --rawfile x .env",
    "jq -n --args '$x' --rawfile x .env",
  ];

  it("the real jq reads the file", () => {
    for (const line of lines) expect(run(line, w)).toContain("marker-7f3a");
  });

  it("the read of .env is refused", async () => {
    await refused(lines, [DEFAULTS, PLAN]);
    await neverAllowed(["jq -n '$ARGS' --args a -L /tmp", "jq -n '$ARGS' --args a -f prog.jq"], [DEFAULTS, PLAN]);
    await allowed(["jq -n --args '$ARGS' a b", "jq -n '$ARGS' --args a b", "jq . data.json"], [DEFAULTS, PLAN]);
  });
});

describe("file with a magic file of one's own", () => {
  it("prints bytes of the files it examines, and reads every file of a -m list", async () => {
    expect(run("file -m mymagic .e*", w)).toContain(SECRET);
    expect(run("file -m /dev/null:.env a.txt", w)).toContain(SECRET);
    await neverAllowed(["file -m mymagic .e*", "file --magic-file=mymagic sub/.i*"], [DEFAULTS, PLAN]);
    await refused(["file -m /dev/null:.env a.txt", "file --magic-file mymagic:.env a.txt"], [DEFAULTS, PLAN]);
    await allowed(["file -m mymagic a.txt", "file -b --mime-type a.txt", "file sub/*"], [DEFAULTS, PLAN]);
  });
});

describe("tree", () => {
  const real = has("tree");

  it("--fromfile prints the paths inside its files, --info the .info comments: content reads", async () => {
    if (real) {
      expect(run("tree --fromfile .e*", w)).toContain(SECRET);
      expect(run("tree --info sub", w)).toContain("marker-7f3a");
    }
    await neverAllowed(["tree --fromfile .e*", "tree --info sub", "tree --info"], [DEFAULTS, PLAN]);
    await refused(["tree --fromfile .env"], [DEFAULTS, PLAN]);
  });

  it("-R writes 00Tree.html into the directories it lists", async () => {
    if (real) {
      run("tree -R -L 1 -H . >/dev/null", w);
      expect(existsSync(t.path("w/sub/00Tree.html"))).toBe(true);
      rmSync(t.path("w/sub/00Tree.html"), { force: true });
    }
    await neverAllowed(["tree -R -L 1 -H .", "tree -aR -L 2 -H ."], [DEFAULTS, PLAN]);
    await allowed(["tree", "tree -L 2 -a", "tree -d sub", "tree --fromfile list0", "tree -J -L 1"], [DEFAULTS, PLAN]);
  });
});

describe("short-option bundles of wrappers, read as getopt reads them", () => {
  it("watch -tx runs its words directly, not as one sh -c string", async () => {
    await refused(
      ["watch -tx sh -c 'cat .env'", "watch -tgx sh -c 'cat .env'", "watch -x -t sh -c 'cat .env'"],
      [DEFAULTS, PLAN],
    );
    // `-d` takes the rest of its word as its value: `-dx` is not `--exec`.
    await allowed(["watch -n 1 ls", "watch -t -n1 ls", "watch -d ls", "watch -dx sh -c 'cat .env'"], [DEFAULTS, PLAN]);
  });

  it("xargs -tE END and --eof/--max-lines without a value leave the next word the command", async () => {
    const lines = ["echo | xargs --eof sh echo", "echo | xargs --max-lines sh echo", "echo a | xargs -tE echo sh x"];
    for (const line of lines) expect(run(line, w)).toContain(RAN);
    await neverAllowed(lines, [DEFAULTS, PLAN]);
    await allowed(
      [
        "printf 'a\\0' | xargs -0 -n1 echo",
        "echo a | xargs -I{} echo {}",
        "echo a | xargs -r echo",
        "echo a | xargs --eof=x echo",
      ],
      [DEFAULTS, PLAN],
    );
  });
});

describe("project commands under an allow rule", () => {
  it("make reads -d as a flag and -j/-l/-O/--debug with an optional value, so an override after them is seen", async () => {
    const lines = [
      "make -d SHELL=./evil.sh test",
      "make -j SHELL=./evil.sh test",
      "make -O SHELL=./evil.sh test",
      "make --debug SHELL=./evil.sh test",
      "make --jobs SHELL=./evil.sh test",
      "make -l SHELL=./evil.sh test",
      "make test -d SHELL=./evil.sh",
    ];
    if (has("make")) for (const line of lines) expect(run(line, w)).toContain(RAN);
    await neverAllowed(lines, [{ "toolgate.commands.allow": ["make"] }]);
    await allowed(
      ["make test", "make -j4 test", "make -j 4 test", "make -l 2.5 test", "make -Oline test", "make --debug=b test"],
      [{ "toolgate.commands.allow": ["make"] }],
    );
  });

  it("pnpm --resume-from takes a value, so the exec after it is seen and a denied program in it refused", async () => {
    const s = { "toolgate.commands.allow": ["pnpm"], "toolgate.commands.deny": ["rm"] };
    await refused(["pnpm exec rm -rf x", "pnpm --resume-from x exec rm -rf x"], [s]);
    await allowed(["pnpm test", "pnpm -r --resume-from pkg test"], [s]);
  });

  it("npm explore runs the words after -- with a shell in the package's folder", async () => {
    const proj = t.path("proj");
    spawnSync("bash", [
      "-c",
      `mkdir -p ${proj}/node_modules/pkg && echo '{"name":"p","version":"1.0.0"}' > ${proj}/package.json && echo '{"name":"pkg","version":"1.0.0"}' > ${proj}/node_modules/pkg/package.json`,
    ]);
    expect(run(`npm explore pkg -- echo ${RAN} '$PWD'`, proj)).toContain(`${RAN} ${proj}/node_modules/pkg`);
    const s = { "toolgate.commands.allow": ["npm"], "toolgate.commands.deny": ["rm"] };
    await refused(["npm explore pkg -- rm -rf x", "npm explore pkg -- 'rm -rf x'"], [s], proj);
    // Relative paths are relative to the package's folder, somewhere under the project npm finds.
    await neverAllowed(["npm explore pkg", "npm explore pkg -- cat ../../.env", "npm explore pkg -- ls"], [s], proj);
    await allowed(["npm test", "npm explore pkg -- echo hi"], [s], proj);
  });

  it("node --test-reporter with a module path runs that module", async () => {
    const line = `node --test --test-reporter=${t.path("outside/reporter.mjs")} t.test.js`;
    expect(run(line, w)).toContain(RAN);
    const allowTest = { "toolgate.commands.allow": ["node --test"] };
    await neverAllowed([line, `node --test --test-reporter ${t.path("outside/reporter.mjs")} t.test.js`], [allowTest]);
    await allowed(["node --test t.test.js", "node --test --test-reporter=spec t.test.js"], [allowTest]);
  });
});
