/**
 * The sh wrapper, run for real: /bin/sh, coreutils `timeout`, this Node. A stand-in cli.js misbehaves on
 * purpose (the failures an agent would let through); the wrapper must turn each into the agent's refusal in
 * its exact shape, and pass a good answer (including stdin's bytes) through unchanged.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refreshInstalledWrappers, writeWrapper } from "../../../src/agent/hooks/wrapperFile";
import {
  parseWrapperSpec,
  REFUSALS,
  refusalText,
  renderWrapper,
  type RefusalKey,
  type RefusalStyle,
  type WrapperSpec,
} from "../../../src/agent/hooks/wrapperScript";
import { tempTree } from "../../support/workspace";

const t = tempTree({});
afterAll(() => t.cleanup());

// The stand-in: echoes its argv and stdin inside a JSON answer, or fails the way FAKE_MODE says.
const FAKE = `
const mode = process.env.FAKE_MODE ?? "good";
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const stdin = Buffer.concat(chunks).toString("utf8");
  if (mode === "good") process.stdout.write(JSON.stringify({ argv: process.argv.slice(2), stdin }) + "\\n");
  else if (mode === "exit1") { process.stdout.write('{"partial":'); process.exit(1); }
  else if (mode === "crash") { process.stdout.write('{"hookSpecificOutput":{"permissionDecision":"allow"}}'); throw new Error("boom"); }
  else if (mode === "hang") setInterval(() => {}, 1000);
  else if (mode === "hangHard") { process.on("SIGTERM", () => {}); setInterval(() => {}, 1000); }
  else if (mode === "empty") {}
  else if (mode === "garbage") process.stdout.write("allow\\n");
  else if (mode === "stderr") { process.stderr.write("log line\\n"); process.stdout.write('{"ok":true}\\n'); }
});
`;
const fakeCli = t.path("fake-cli.js");
writeFileSync(fakeCli, FAKE);

const TOOLS = { timeout: "/usr/bin/timeout", mktemp: "/usr/bin/mktemp", cat: "/usr/bin/cat", rm: "/usr/bin/rm" };

function wrapper(style: RefusalStyle, over: Partial<WrapperSpec> = {}): string {
  const spec: WrapperSpec = {
    agent: style === "exit2" ? "claude-code" : style,
    style,
    node: process.execPath,
    cli: fakeCli,
    hookArgs: ["--headless"],
    limitSeconds: 1,
    tools: TOOLS,
    ...over,
  };
  const file = t.path(`w-${style}-${Math.random().toString(36).slice(2)}.sh`);
  writeFileSync(file, renderWrapper(spec));
  chmodSync(file, 0o755);
  return file;
}

function run(file: string, mode: string, input = '{"tool_name":"Bash"}') {
  const r = spawnSync("/bin/sh", [file], {
    input,
    encoding: "utf8",
    env: { PATH: "/nonexistent", FAKE_MODE: mode, TMPDIR: t.dir },
    timeout: 15_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** What each style must show for a refusal. */
function expectRefusal(style: RefusalStyle, r: ReturnType<typeof run>, key: RefusalKey): void {
  const text = refusalText(style, REFUSALS[key]);
  if (style === "exit2") {
    expect(r.status).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(text + "\n");
  } else {
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(text + "\n");
  }
}

const FAILURES: readonly [string, RefusalKey][] = [
  ["exit1", "failed"],
  ["crash", "failed"],
  ["hang", "timedOut"],
  ["empty", "noAnswer"],
  ["garbage", "noAnswer"],
];

describe.each<RefusalStyle>(["exit2", "cline", "cursor"])("the %s wrapper", (style) => {
  const file = wrapper(style);

  it("passes a good answer through byte for byte, with stdin and the hook arguments intact", () => {
    const input = '{"tool_input":{"command":"echo \'a\\"b\' $HOME `x` ü\\n"}}\n\n';
    const r = run(file, "good", input);
    expect(r.status).toBe(0);
    const agent = style === "exit2" ? "claude-code" : style;
    expect(r.stdout).toBe(JSON.stringify({ argv: ["hook", agent, "--headless"], stdin: input }) + "\n");
  });

  it.each(FAILURES)("turns %s into the refusal", (mode, key) => {
    expectRefusal(style, run(file, mode), key);
  });

  it("refuses when Node is missing", () => {
    expectRefusal(style, run(wrapper(style, { node: t.path("no-such-node") }), "good"), "noNode");
  });

  it("refuses when dist/cli.js is missing", () => {
    expectRefusal(style, run(wrapper(style, { cli: t.path("gone/cli.js") }), "good"), "noCli");
  });

  it("refuses when the timeout program is missing", () => {
    const w = wrapper(style, { tools: { ...TOOLS, timeout: t.path("no-timeout") } });
    expectRefusal(style, run(w, "good"), "noTimeout");
  });

  it("refuses when the interpreter exists but cannot run the script", () => {
    const notNode = t.path(`not-node-${style}`);
    writeFileSync(notNode, "#!/bin/sh\nexit 126\n");
    chmodSync(notNode, 0o755);
    expectRefusal(style, run(wrapper(style, { node: notNode }), "good"), "notRun");
  });
});

describe("the wrapper under stress", () => {
  it("kills a hook that ignores TERM and still refuses, within the limit plus the grace", () => {
    const started = Date.now();
    expectRefusal("exit2", run(wrapper("exit2"), "hangHard"), "timedOut");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("keeps Node's stderr off the answer but passes it on after a good answer", () => {
    const r = run(wrapper("exit2"), "stderr");
    expect(r).toEqual({ status: 0, stdout: '{"ok":true}\n', stderr: "log line\n" });
  });

  it("leaves no temp files behind", () => {
    const dir = tempTree({});
    const w = wrapper("cline");
    for (const mode of ["good", "exit1", "garbage"])
      spawnSync("/bin/sh", [w], { input: "{}", env: { FAKE_MODE: mode, TMPDIR: dir.dir } });
    expect(spawnSync("/usr/bin/ls", ["-A", dir.dir], { encoding: "utf8" }).stdout).toBe("");
    dir.cleanup();
  });

  it("refuses when the temp folder is unusable", () => {
    const r = spawnSync("/bin/sh", [wrapper("exit2")], {
      input: "{}",
      encoding: "utf8",
      env: { FAKE_MODE: "good", TMPDIR: t.path("missing-tmp") },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(refusalText("exit2", REFUSALS.tmp));
  });

  it("a path with quotes cannot break the refusal JSON", () => {
    const odd = t.path(`it's "odd" \\ dir`);
    rmSync(odd, { force: true, recursive: true });
    const r = run(wrapper("cline", { node: `${odd}/node` }), "good");
    expect(JSON.parse(r.stdout)).toEqual({ cancel: true, errorMessage: `Toolgate: ${REFUSALS.noNode}` });
  });
});

describe("refreshing installed wrappers (extension activation)", () => {
  it("re-renders only Toolgate's installed wrappers with the new dist/cli.js, and only when they differ", () => {
    const home = tempTree({ "other.sh": "" });
    const env = { HOME: home.dir, PATH: process.env.PATH ?? "" };
    const spec: WrapperSpec = {
      agent: "claude-code",
      style: "exit2",
      node: process.execPath,
      cli: "/old/dist/cli.js",
      hookArgs: [],
      limitSeconds: 20,
      tools: TOOLS,
    };
    const { path: file } = writeWrapper(spec, env);
    const foreign = path.join(path.dirname(file), "mine.sh");
    writeFileSync(foreign, "#!/bin/sh\necho mine\n");
    expect(refreshInstalledWrappers("/new/dist/cli.js", env)).toEqual([file]);
    expect(parseWrapperSpec(readFileSync(file, "utf8"))?.cli).toBe("/new/dist/cli.js");
    expect(readFileSync(file, "utf8")).toBe(renderWrapper({ ...spec, cli: "/new/dist/cli.js" }));
    expect(refreshInstalledWrappers("/new/dist/cli.js", env)).toEqual([]);
    expect(readFileSync(foreign, "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect(readdirSync(path.dirname(file)).sort()).toEqual(["claude-code.sh", "mine.sh"]);
    expect(statSync(file).mode & 0o777).toBe(0o755);
    home.cleanup();
  });

  it("does nothing when no wrapper was ever installed", () => {
    const home = tempTree({});
    expect(refreshInstalledWrappers("/x/cli.js", { HOME: home.dir })).toEqual([]);
    expect(readdirSync(home.dir)).toEqual([]);
    home.cleanup();
  });
});
