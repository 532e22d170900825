/**
 * Outside reads the person approved (`SandboxGrant.readPaths`), in real bash inside real bubblewrap. `$HOME` is
 * an empty tmpfs in the sandbox, so an approved `cat ~/notes/todo.txt` needs its file bound in: read-only, for
 * that one call. The next call (no approval) does not see it, a credential store or ignored file stays hidden
 * even when listed, and the bound file cannot be written.
 *
 * Then at the seam (scripted model, real gate, executor, runner): only the person's click binds the card's
 * outside reads; the same line auto-approved runs without them.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { grantOf, withApprovedReads } from "../../../src/core/sandbox/grant";
import { NodeCommandRunner } from "../../../src/agent/node/nodeCommandRunner";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";
import { sandboxDescribe } from "../../support/sandboxRequired";
import { probe, run, varTmpDir } from "./sandboxHarness";

const cleanups: (() => void)[] = [];
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  for (const c of cleanups.splice(0).reverse()) c();
});

function setup() {
  const parent = varTmpDir("toolgate-reads-");
  cleanups.push(parent.cleanup);
  const ws = path.join(parent.dir, "ws");
  const home = path.join(parent.dir, "home");
  for (const d of [ws, path.join(home, "notes"), path.join(home, ".ssh")]) mkdirSync(d, { recursive: true });
  writeFileSync(path.join(home, "notes/todo.txt"), "TODO-CONTENT\n");
  writeFileSync(path.join(home, "notes/other.txt"), "OTHER-CONTENT\n");
  writeFileSync(path.join(home, ".ssh/id_rsa"), "SECRET-SSH\n");
  writeFileSync(path.join(ws, ".toolgateignore"), "secret.env\n");
  writeFileSync(path.join(ws, "secret.env"), "SECRET-IGNORED\n");
  return { parent, ws, home };
}

sandboxDescribe(probe)("approved outside reads are bound read-only for that call only (real bubblewrap)", () => {
  it("approved: the file reads; the next call without the approval does not see it", async () => {
    const s = setup();
    const session = new SandboxSession(
      { roots: [s.ws], ignoreFileName: ".toolgateignore", network: { kind: "off" }, home: s.home },
      probe,
    );
    const todo = path.join(s.home, "notes/todo.txt");
    const env = { HOME: s.home };
    for (const kind of ["read-only", "workspace-write"] as const) {
      const approved = withApprovedReads(grantOf(kind), [todo]);
      const yes = await run(session, `cat ${todo}`, true, env, { grant: approved });
      expect(yes.out, kind).toContain("TODO-CONTENT");
      expect(yes.status).toBe(0);
      // Only what was approved: its neighbour stays in the empty home.
      const other = await run(session, `cat ${path.join(s.home, "notes/other.txt")}`, true, env, { grant: approved });
      expect(other.out).not.toContain("OTHER-CONTENT");
      // Bound read-only, even under workspace-write.
      const write = await run(session, `echo x >> ${todo}`, true, env, { grant: approved });
      expect(write.status).not.toBe(0);
      expect(readFileSync(todo, "utf8")).toBe("TODO-CONTENT\n");
      // The next call, without the approval, does not see it.
      const next = await run(session, `cat ${todo}`, true, env, { grant: grantOf(kind) });
      expect(next.out, kind).not.toContain("TODO-CONTENT");
      expect(next.status).not.toBe(0);
    }
  });

  it("a credential store or an ignored file listed as approved stays hidden", async () => {
    const s = setup();
    const session = new SandboxSession(
      { roots: [s.ws], ignoreFileName: ".toolgateignore", network: { kind: "off" }, home: s.home },
      probe,
    );
    const listed = [path.join(s.home, ".ssh/id_rsa"), path.join(s.home, ".ssh"), path.join(s.ws, "secret.env")];
    const r = await run(
      session,
      `cat ${listed[0]} ${listed[2]}; ls -a ${listed[1]}`,
      true,
      { HOME: s.home },
      {
        grant: withApprovedReads(grantOf("read-only"), listed),
      },
    );
    expect(r.out).not.toContain("SECRET-SSH");
    expect(r.out).not.toContain("SECRET-IGNORED");
    expect(r.out).not.toMatch(/^id_rsa$/m);
  });
});

sandboxDescribe(probe)("only the person's click binds the card's outside reads (seam, real bubblewrap)", () => {
  it("approved on the card: it reads the file; the same line auto-approved next does not", async () => {
    const s = setup();
    // The sandbox empties the process's own home (os.homedir(), which a worker cannot change): the file the
    // person approves lives there, in a folder of this test's own.
    const mine = mkdtempSync(path.join(homedir(), "toolgate-test-reads-"));
    cleanups.push(() => rmSync(mine, { recursive: true, force: true }));
    const todo = path.join(realpathSync(mine), "todo.txt");
    writeFileSync(todo, "TODO-CONTENT\n");
    const flat = {
      "toolgate.autoApprove.actions": { readFiles: true, readFilesExternally: true, executeSafeCommands: true },
    };
    const runner = new NodeCommandRunner(process.env, { values: () => flat, ignoreFileName: () => ".toolgateignore" });
    const line = `cat ${todo}`;
    h = await startHarness({
      parent: s.ws,
      settings: flat,
      env: { runner },
      turns: [
        // The model asks for approval: the person approves on the card.
        { steps: [{ tool: "execute_command", args: { command: line, requires_approval: true } }] },
        // The same line, auto-approved (reading outside is switched on): no click, no bind.
        { steps: [{ tool: "execute_command", args: { command: line } }] },
        { steps: [{ tool: "attempt_completion", args: { result: "done" } }] },
      ],
      answer: () => ({ kind: "approve" }),
    });
    await h.task.run();
    const asks = h.asks.asks.filter((a) => a.message.kind === "tool");
    expect(asks).toHaveLength(1);
    expect(asks[0]!.message.tool?.sandboxOutlook?.readPaths).toEqual([todo]);
    // The model's request after the second command carries both results, in order.
    const [clicked = "", auto = ""] = toolResultsIn(h.model, 2);
    expect(clicked).toMatch(/Exit code: 0/);
    expect(clicked).toContain("TODO-CONTENT");
    expect(auto).not.toContain("TODO-CONTENT");
    expect(auto).toMatch(/No such file/);
    for (const row of h.view.filter((m) => m.tool?.name === "execute_command")) expect(row.tool?.sandboxed).toBe(true);
  });
});
