import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { IgnoreRules } from "../../../src/core/ignoreFile";
import { ToolExecutor } from "../../../src/agent/executor/toolExecutor";
import { realGateFactory } from "../../../src/agent/approvalGate";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { JsSearcher } from "../../../src/agent/node/jsSearcher";
import { MessageStore } from "../../../src/agent/task/messageStore";
import { handlerFor } from "../../../src/agent/tools/handlers/registry";
import { DEFAULT_TOOL_LIMITS, type ToolContext, type ToolEnv, type ToolLimits } from "../../../src/agent/tools/types";
import { resolveLike } from "../../../src/agent/tools/workspaceFiles";
import type { DiffReviewer } from "../../../src/agent/env";
import { settingsFrom, startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(nodePath.join(tmpdir(), "toolgate-tools-")));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function put(rel: string, text: string): void {
  mkdirSync(nodePath.dirname(nodePath.join(dir, rel)), { recursive: true });
  writeFileSync(nodePath.join(dir, rel), text);
}

async function ctx(
  over: { env?: Partial<ToolEnv>; limits?: Partial<ToolLimits>; signal?: AbortSignal } = {},
): Promise<ToolContext & { store: MessageStore }> {
  const executor = new ToolExecutor({
    createGate: realGateFactory({ settings: () => settingsFrom({}) }),
    roots: () => [dir],
  });
  const config = await executor.asToolConfig("x");
  const fs = new NodeFs();
  const env: ToolEnv = {
    fs,
    runner: new NodeCommandRunner(),
    searcher: new JsSearcher(fs),
    ignoreRules: (roots) => IgnoreRules.load(roots, ".toolgateignore"),
    ...over.env,
  };
  const store = new MessageStore([], { flushMs: 1 });
  return {
    store,
    config,
    env,
    limits: { ...DEFAULT_TOOL_LIMITS, ...over.limits },
    ignore: env.ignoreRules(config.roots),
    signal: over.signal ?? new AbortController().signal,
    messages: store,
    messageId: 0,
    resolve: (p) => resolveLike(config.cwd, p),
    // No person here: a changed call runs if the gate's decision resolved it.
    decideAgain: (params) => {
      const d = config.callbacks.decide({ tool: "web_fetch", params });
      return Promise.resolve(d.resolved ? { call: d.resolved } : { result: { content: d.reason, isError: true } });
    },
  };
}

/** The gate resolves the call (whatever it decides: these tests drive the handlers), then the handler runs it. */
const run = async (tool: string, params: Record<string, unknown>, c: ToolContext) => {
  const d = c.config.callbacks.decide({
    tool,
    params,
    ...(tool === "web_fetch" ? { facts: { addresses: ["127.0.0.1"] } } : {}),
  });
  if (!d.resolved) throw new Error(`not resolved: ${d.reason}`);
  return handlerFor(tool)!.execute(d.resolved, c);
};

describe("list_files", () => {
  it("respects the ignore file (with negation) and skips .git and node_modules", async () => {
    put(".toolgateignore", "secrets/\n*.env\n!public.env\n");
    put("src/a.ts", "");
    put("src/deep/b.ts", "");
    put("secrets/key.pem", "");
    put("prod.env", "");
    put("public.env", "");
    put(".git/HEAD", "");
    put("node_modules/x/index.js", "");
    const r = await run("list_files", { path: ".", recursive: "true" }, await ctx());
    const lines = r.content.split("\n");
    expect(lines).toEqual([
      ".toolgateignore",
      "public.env",
      "src/",
      "src/a.ts",
      "src/deep/",
      "src/deep/b.ts",
      "[2 entries excluded by .toolgateignore.]",
    ]);
  });

  it("lists one level unless recursive, and caps the listing", async () => {
    for (let i = 0; i < 5; i++) put(`d/f${i}.txt`, "");
    put("d/sub/x.txt", "");
    expect((await run("list_files", { path: "d" }, await ctx())).content).toBe(
      "d/f0.txt\nd/f1.txt\nd/f2.txt\nd/f3.txt\nd/f4.txt\nd/sub/",
    );
    const capped = await run(
      "list_files",
      { path: "d", recursive: true },
      await ctx({ limits: { maxListEntries: 3 } }),
    );
    expect(capped.content).toBe(
      "d/f0.txt\nd/f1.txt\nd/f2.txt\n[Listing stopped at 3 entries; list a subdirectory for more.]",
    );
  });
});

describe("search_files (pure-JS fallback)", () => {
  it("finds matches with line numbers, honours file_pattern, the ignore file, .git and node_modules", async () => {
    put(".toolgateignore", "private/\n");
    put("src/a.ts", "const token = 1;\nlet other = 2;\n");
    put("src/b.md", "token in markdown\n");
    put("private/c.ts", "const token = 3;\n");
    put("node_modules/m/index.ts", "token\n");
    put(".git/config", "token\n");
    put("bin.dat", "token\0binary");
    const all = await run("search_files", { path: ".", regex: "tok(en)" }, await ctx());
    expect(all.content).toBe("src/a.ts\n1: const token = 1;\n\nsrc/b.md\n1: token in markdown");
    const ts = await run("search_files", { path: ".", regex: "token", file_pattern: "*.ts" }, await ctx());
    expect(ts.content).toBe("src/a.ts\n1: const token = 1;");
    expect((await run("search_files", { path: ".", regex: "(" }, await ctx())).isError).toBe(true);
  });
});

describe("execute_command", () => {
  it("streams output into a command_output message, caps what it keeps, reports the exit code", async () => {
    const c = await ctx({ limits: { maxCommandOutputBytes: 200 } });
    const r = await run("execute_command", { command: "for i in $(seq 1 100); do echo line$i; done; exit 3" }, c);
    c.store.flush();
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(
      /^Exit code: 3\n\[\d+ bytes of output were cut from the middle\.\]\nOutput:\nline1\nline2\n/,
    );
    expect(r.content).toMatch(/line100\n?$/);
    const out = c.store.messages.find((m) => m.kind === "command_output")!;
    expect(out.text.startsWith("line1\n")).toBe(true);
    expect(out.text).toContain("[… more output not shown …]");
    expect(out.partial).toBe(false);
  });

  it("times out and kills the command", async () => {
    const r = await run("execute_command", { command: "sleep 20" }, await ctx({ limits: { commandTimeoutMs: 300 } }));
    expect(r.content).toMatch(/^The command timed out after 0 s and was killed\./);
  });

  it("runs in the first workspace root", async () => {
    const r = await run("execute_command", { command: "pwd" }, await ctx());
    expect(r.content).toContain(dir);
  });
});

describe("web_fetch", () => {
  let server: Server;
  let base: string;
  beforeEach(async () => {
    server = createServer((req, res) => {
      if (req.url === "/page") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><title>t</title><script>evil()</script></head><body><h1>Title</h1><p>Some <b>bold</b> text.</p><ul><li>one</li></ul></body></html>",
        );
      } else if (req.url === "/big") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("y".repeat(100_000));
      } else if (req.url === "/img") {
        res.writeHead(200, { "content-type": "image/png" });
        res.end(Buffer.from([0x89, 0x50]));
      } else res.writeHead(404).end("nope");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((r) => server.close(() => r())));

  it("turns HTML into readable Markdown without scripts", async () => {
    const r = await run("web_fetch", { url: `${base}/page` }, await ctx());
    expect(r.content).toBe("# Title\n\nSome **bold** text.\n\n-   one");
  });

  it("caps the size, refuses non-text, reports HTTP errors", async () => {
    const big = await run("web_fetch", { url: `${base}/big` }, await ctx({ limits: { maxFetchBytes: 1000 } }));
    expect(big.content).toBe("y".repeat(1000) + "\n\n[The page was larger than 1000 bytes; the rest was not read.]");
    expect((await run("web_fetch", { url: `${base}/img` }, await ctx())).content).toMatch(
      /image\/png, which is not text/,
    );
    expect((await run("web_fetch", { url: `${base}/missing` }, await ctx())).content).toMatch(/HTTP 404/);
  });
});

describe("file edits with a diff the person can edit", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  function reviewer(edit: (proposed: string) => string): DiffReviewer & { opened: string[] } {
    const opened: string[] = [];
    return {
      opened,
      open(path, original) {
        opened.push(`${nodePath.basename(path)}:${original ?? "(new)"}`);
        let text = "";
        return Promise.resolve({
          append: (t: string) => void (text += t),
          setContent: (t: string) => void (text = t),
          result: () => Promise.resolve({ content: edit(text), edited: edit(text) !== text }),
          close: () => Promise.resolve(),
        });
      },
    };
  }

  it("replace_in_file: the person's edit in the diff is saved and the model is told the final content", async () => {
    const diff = reviewer((p) => p.replace("answer = 2", "answer = 3"));
    h = await startHarness({
      files: { "src/x.ts": "const answer = 1;\nexport {};\n" },
      diff,
      turns: [
        {
          steps: [
            {
              tool: "replace_in_file",
              args: {
                path: "src/x.ts",
                diff: "------- SEARCH\nconst answer = 1;\n=======\nconst answer = 2;\n+++++++ REPLACE",
              },
              chunks: 6,
            },
          ],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "ok" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    expect(h.read("src/x.ts")).toBe("const answer = 3;\nexport {};\n");
    expect(diff.opened).toEqual(["x.ts:const answer = 1;\nexport {};\n"]);
    expect(toolResultsIn(h.model, 1)[0]).toContain(
      'The person edited your changes before they were saved. `src/x.ts` now contains exactly:\n<final_file_content path="src/x.ts">\nconst answer = 3;',
    );
  });

  it("a SEARCH that does not match is reported without asking the person", async () => {
    h = await startHarness({
      files: { "a.txt": "hello\n" },
      turns: [
        {
          steps: [
            {
              tool: "replace_in_file",
              args: { path: "a.txt", diff: "------- SEARCH\nbye\n=======\nx\n+++++++ REPLACE" },
            },
          ],
        },
        { steps: [{ tool: "attempt_completion", args: { result: "ok" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    expect(h.asks.asks.map((a) => a.message.kind)).toEqual(["completion"]);
    expect(toolResultsIn(h.model, 1)[0]).toMatch(/was not applied: block 1's SEARCH text does not match the file/);
    expect(h.read("a.txt")).toBe("hello\n");
  });
});

describe("attempt_completion.command goes through the command gate and the runner", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it("a denied program in the completion command is refused; nothing runs", async () => {
    h = await startHarness({
      settings: { "toolgate.commands.deny": ["touch"] },
      turns: [
        { steps: [{ tool: "attempt_completion", args: { result: "done", command: "touch made.txt" } }] },
        { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    expect(existsSync(nodePath.join(h.dir, "made.txt"))).toBe(false);
    expect(toolResultsIn(h.model, 1)[0]).toMatch(/^Refused by the gate: .*touch.*\(rule: commands\.deny: touch\)/);
  });

  it("an approved completion command runs in the workspace", async () => {
    h = await startHarness({
      turns: [{ steps: [{ tool: "attempt_completion", args: { result: "done", command: "echo shown > proof.txt" } }] }],
      answer: () => ({ kind: "approve" }),
    });
    expect(await h.task.run()).toBe("completed");
    expect(readFileSync(nodePath.join(h.dir, "proof.txt"), "utf8")).toBe("shown\n");
    // First ask: approve the command (unknown program); second: accept the result.
    expect(h.asks.asks.map((a) => [a.message.kind, a.message.tool?.status])).toEqual([
      ["completion", "pending"],
      ["completion", "done"],
    ]);
  });
});
