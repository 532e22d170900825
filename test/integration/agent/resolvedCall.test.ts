import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";

/** Run what was decided: the runtime with the scripted model, the real gate, handlers and node fs. */
let h: Harness | undefined;
const extra: string[] = [];
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const d of extra.splice(0)) rmSync(d, { recursive: true, force: true });
});
const outsideDir = () => {
  const d = realpathSync(mkdtempSync(nodePath.join(tmpdir(), "toolgate-outside-")));
  extra.push(d);
  return d;
};
const complete = { steps: [{ tool: "attempt_completion", args: { result: "done" } }] };
/** The person accepts the completion and refuses every other ask (or uses `other`). */
const person =
  (other: (m: TaskMessage) => AskResponse = () => ({ kind: "reject" })) =>
  (m: TaskMessage): AskResponse =>
    m.kind === "completion" ? { kind: "approve" } : other(m);
const toolAsks = (x: Harness) => x.asks.asks.filter((a) => a.message.kind !== "completion");

describe("the complete block is decided, never its preview", () => {
  it("write_to_file without content is a validation error and the file keeps its text", async () => {
    h = await startHarness({
      settings: { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } },
      files: { "src/keep.ts": "keep me" },
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "src/keep.ts" } }] }, complete],
      answer: person(),
    });
    await h.task.run();
    expect(h.read("src/keep.ts")).toBe("keep me");
    expect(toolResultsIn(h.model, 1)[0]).toMatch(/missing its required parameter `content`/);
  });
});

describe("a path that changes between decisions", () => {
  it("a directory swapped for a link to outside after its first decision is not written through", async () => {
    const outside = outsideDir();
    h = await startHarness({
      settings: { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } },
      files: { "out/a.txt": "one" },
      turns: [
        { steps: [{ tool: "write_to_file", args: { path: "out/a.txt", content: "first" } }] },
        { steps: [{ tool: "write_to_file", args: { path: "out/b.txt", content: "second" } }] },
        complete,
      ],
      answer: person(),
    });
    // Between the two calls, `out` becomes a link to a directory outside the workspace.
    const dir = h.dir;
    let swapped = false;
    h.task.store.onDelta(() => {
      if (!swapped && h!.model.requests.length >= 2) {
        swapped = true;
        rmSync(nodePath.join(dir, "out"), { recursive: true, force: true });
        symlinkSync(outside, nodePath.join(dir, "out"));
      }
    });
    await h.task.run();
    expect(swapped).toBe(true);
    expect(() => readFileSync(nodePath.join(outside, "b.txt"))).toThrow();
    expect(toolAsks(h).map((a) => a.message.tool?.decision?.rule)).toEqual(["autoApprove.editFilesExternally"]);
  });

  it("`link/..` is the parent of the link's target, as the kernel resolves it", async () => {
    const outside = outsideDir();
    mkdirSync(nodePath.join(outside, "inner"));
    h = await startHarness({
      settings: { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } },
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "link_out/../x.txt", content: "x" } }] }, complete],
      answer: person(),
    });
    symlinkSync(nodePath.join(outside, "inner"), nodePath.join(h.dir, "link_out"));
    await h.task.run();
    // Outside the workspace: editing there is not auto-approved, so it asked and was refused.
    expect(toolAsks(h).length).toBe(1);
    expect(() => readFileSync(nodePath.join(outside, "x.txt"))).toThrow();
    expect(h.exists("x.txt")).toBe(false);
  });
});

describe("listing and searching never leave the workspace through a link", () => {
  it("list_files lists a link to an outside directory as a link and does not walk it", async () => {
    const outside = outsideDir();
    writeFileSync(nodePath.join(outside, "secret.txt"), "TOKEN=abc");
    h = await startHarness({
      files: { "src/a.ts": "a" },
      turns: [
        { steps: [{ tool: "list_files", args: { path: ".", recursive: "true" } }] },
        { steps: [{ tool: "search_files", args: { path: ".", regex: "TOKEN" } }] },
        complete,
      ],
      answer: person(),
    });
    symlinkSync(outside, nodePath.join(h.dir, "escape"));
    await h.task.run();
    const [listing] = toolResultsIn(h.model, 1);
    expect(listing).toMatch(/^escape@$/m);
    expect(listing).not.toMatch(/secret\.txt/);
    const [search] = toolResultsIn(h.model, 2);
    expect(search).not.toMatch(/TOKEN=abc/);
  });
});

describe("web_fetch decides every hop and connects to the address it judged", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it("a name that resolves to a loopback address asks, even in auto mode", async () => {
    h = await startHarness({
      settings: { "toolgate.mode": "auto" },
      env: { resolveHost: () => Promise.resolve(["127.0.0.1"]) },
      turns: [{ steps: [{ tool: "web_fetch", args: { url: "http://docs.example.test/" } }] }, complete],
      answer: person(),
    });
    await h.task.run();
    expect(toolAsks(h).length).toBe(1);
    expect(toolAsks(h)[0]!.message.tool?.decision?.rule).toBe("webFetch:private-address");
  });

  it("a DNS answer that changes after the decision is not looked up again (no rebinding)", async () => {
    let hits = 0;
    server = createServer((_req, res) => {
      hits++;
      res.writeHead(200, { "content-type": "text/plain" }).end("loopback page");
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    // First answer public (the decision), every later answer loopback: a second lookup would reach the server.
    let lookups = 0;
    const resolveHost = () => Promise.resolve(lookups++ === 0 ? ["203.0.113.9"] : ["127.0.0.1"]);
    h = await startHarness({
      settings: { "toolgate.mode": "auto" },
      env: { resolveHost },
      turns: [{ steps: [{ tool: "web_fetch", args: { url: `http://rebind.example.test:${port}/` } }] }, complete],
      answer: person(),
    });
    await h.task.run();
    expect(hits).toBe(0);
    expect(lookups).toBe(1);
  });

  it("a redirect to a private address is a new decision, which asks", async () => {
    server = createServer((req, res) => {
      if (req.url === "/start") res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data" }).end();
      else res.writeHead(200, { "content-type": "text/plain" }).end("metadata");
    });
    await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    h = await startHarness({
      settings: { "toolgate.mode": "auto" },
      // The public-looking name is pinned to the loopback server; the approval of this first hop is the person's.
      env: { resolveHost: () => Promise.resolve(["127.0.0.1"]) },
      turns: [{ steps: [{ tool: "web_fetch", args: { url: `http://site.example.test:${port}/start` } }] }, complete],
      answer: person((m) => (m.tool?.params.url?.includes("169.254") ? { kind: "reject" } : { kind: "approve" })),
    });
    await h.task.run();
    expect(toolAsks(h).map((a) => a.message.tool?.params.url)).toEqual([
      `http://site.example.test:${port}/start`,
      "http://169.254.169.254/latest/meta-data",
    ]);
    expect(toolResultsIn(h.model, 1)[0]).not.toMatch(/metadata/);
  });
});

describe("commands run in a clean bash", () => {
  it("state in the host environment that changes what bash runs is not passed on", async () => {
    const runner = new NodeCommandRunner({
      ...process.env,
      BASH_ENV: "/nonexistent/should-not-load",
      PROMPT_COMMAND: "echo PWNED",
      BASH_FUNC_ls: "() { echo PWNED; }",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "user.name",
      GIT_CONFIG_VALUE_0: "Someone",
    });
    const r = await runner.run({
      command:
        'echo "bash=$BASH_VERSION env=${BASH_ENV-unset} pc=${PROMPT_COMMAND-unset}"; git config --get safe.bareRepository; git config --get user.name; shopt -q login_shell && echo login || echo nologin',
      cwd: tmpdir(),
      timeoutMs: 10_000,
      maxOutputBytes: 10_000,
      signal: new AbortController().signal,
    });
    expect(r.output).toMatch(/bash=\d/);
    expect(r.output).toMatch(/env=unset pc=unset/);
    expect(r.output).toMatch(/^explicit$/m);
    expect(r.output).toMatch(/^Someone$/m);
    expect(r.output).toMatch(/nologin/);
    expect(r.output).not.toMatch(/PWNED/);
  });
});

describe("the approval card", () => {
  it("shows the working directory the command will run in", async () => {
    h = await startHarness({
      settings: { "toolgate.autoApprove.actions": { executeSafeCommands: false } },
      turns: [{ steps: [{ tool: "execute_command", args: { command: "ls" } }] }, complete],
      answer: person(() => ({ kind: "approve" })),
    });
    await h.task.run();
    expect(toolAsks(h)[0]!.message.tool?.cwd).toBe(h.dir);
  });
});
