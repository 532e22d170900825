import { afterEach, describe, expect, it } from "vitest";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as nodePath from "node:path";
import { NodeFs } from "../../../src/agent/node/nodeFs";
import { readResolved, writeResolved } from "../../../src/agent/node/noFollowFs";
import type { AskResponse, TaskMessage } from "../../../src/shared/messages";
import { startHarness, toolResultsIn, type Harness } from "../../support/agentHarness";

/**
 * Writes never follow a link that appeared after the decision (DESIGN, "Writes never follow a final link").
 * The gate decides on the realpath, then — in the window between that decision and the write — the test's
 * file system adapter swaps the final component, or a parent directory, for a link to a folder outside the
 * workspace. The real handler, the real no-follow I/O and the real file system then run: the write must not
 * land outside; the gate decides again (now: editing outside the workspace, which asks and is refused).
 */
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

/**
 * The node adapter, with one action run just before the first resolved write (or read) reaches the disk: after
 * the gate decided and the edit was prepared (which reads the old content), before the bytes go out.
 */
class SwapFirst extends NodeFs {
  swapped = 0;
  constructor(
    private readonly swap: () => void,
    private readonly on: "write" | "read",
  ) {
    super();
  }
  private once(op: "write" | "read"): void {
    if (op === this.on && this.swapped++ === 0) this.swap();
  }
  override readonly writeResolved = async (real: string, data: Uint8Array): Promise<void> => {
    this.once("write");
    return writeResolved(real, data);
  };
  override readonly readResolved = async (real: string): Promise<Uint8Array> => {
    this.once("read");
    return readResolved(real);
  };
}

const complete = { steps: [{ tool: "attempt_completion", args: { result: "done" } }] };
const person = (m: TaskMessage): AskResponse => (m.kind === "completion" ? { kind: "approve" } : { kind: "reject" });
const settings = { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } };
const toolAskRules = (x: Harness) =>
  x.asks.asks.filter((a) => a.message.kind !== "completion").map((a) => a.message.tool?.decision?.rule);

describe("a link swapped in between the decision and the write is never followed", () => {
  it("the final component becomes a link to a file outside: the outside file keeps its content", async () => {
    const outside = outsideDir();
    const target = nodePath.join(outside, "target.txt");
    writeFileSync(target, "outside stays");
    let ws = "";
    const fs = new SwapFirst(() => {
      rmSync(nodePath.join(ws, "src/a.txt"));
      symlinkSync(target, nodePath.join(ws, "src/a.txt"));
    }, "write");
    h = await startHarness({
      settings,
      files: { "src/a.txt": "old" },
      env: { fs },
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "src/a.txt", content: "written" } }] }, complete],
      answer: person,
    });
    ws = h.dir;
    await h.task.run();
    expect(fs.swapped).toBeGreaterThan(0);
    expect(readFileSync(target, "utf8")).toBe("outside stays");
    expect(lstatSync(nodePath.join(ws, "src/a.txt")).isSymbolicLink()).toBe(true);
    // The gate decided again on where the path leads now, and that asks (refused here).
    expect(toolAskRules(h)).toEqual(["autoApprove.editFilesExternally"]);
    expect(toolResultsIn(h.model, 1)[0]).not.toMatch(/^Wrote|success/i);
  });

  it("a parent directory becomes a link to a folder outside: nothing is written there", async () => {
    const outside = outsideDir();
    writeFileSync(nodePath.join(outside, "a.txt"), "outside stays");
    let ws = "";
    const fs = new SwapFirst(() => {
      rmSync(nodePath.join(ws, "deep/dir"), { recursive: true, force: true });
      symlinkSync(outside, nodePath.join(ws, "deep/dir"));
    }, "write");
    h = await startHarness({
      settings,
      files: { "deep/dir/a.txt": "old" },
      env: { fs },
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "deep/dir/a.txt", content: "written" } }] }, complete],
      answer: person,
    });
    ws = h.dir;
    await h.task.run();
    expect(fs.swapped).toBeGreaterThan(0);
    expect(readFileSync(nodePath.join(outside, "a.txt"), "utf8")).toBe("outside stays");
    expect(toolAskRules(h)).toEqual(["autoApprove.editFilesExternally"]);
  });

  it("a new file whose parent becomes a link: the file is not created outside", async () => {
    const outside = outsideDir();
    let ws = "";
    const fs = new SwapFirst(() => {
      rmSync(nodePath.join(ws, "gen"), { recursive: true, force: true });
      symlinkSync(outside, nodePath.join(ws, "gen"));
    }, "write");
    h = await startHarness({
      settings,
      files: { "gen/keep": "" },
      env: { fs },
      turns: [{ steps: [{ tool: "write_to_file", args: { path: "gen/new.txt", content: "written" } }] }, complete],
      answer: person,
    });
    ws = h.dir;
    await h.task.run();
    expect(fs.swapped).toBeGreaterThan(0);
    expect(() => readFileSync(nodePath.join(outside, "new.txt"))).toThrow();
    expect(toolAskRules(h)).toEqual(["autoApprove.editFilesExternally"]);
  });

  it("read_file: a file swapped for a link to a secret outside is not read through it", async () => {
    const outside = outsideDir();
    mkdirSync(nodePath.join(outside, "s"));
    const secret = nodePath.join(outside, "s/secret.txt");
    writeFileSync(secret, "TOP-SECRET-42");
    let ws = "";
    const fs = new SwapFirst(() => {
      rmSync(nodePath.join(ws, "notes.txt"));
      symlinkSync(secret, nodePath.join(ws, "notes.txt"));
    }, "read");
    h = await startHarness({
      settings,
      files: { "notes.txt": "plain notes" },
      env: { fs },
      turns: [{ steps: [{ tool: "read_file", args: { path: "notes.txt" } }] }, complete],
      answer: person,
    });
    ws = h.dir;
    await h.task.run();
    expect(fs.swapped).toBeGreaterThan(0);
    expect(toolResultsIn(h.model, 1).join("\n")).not.toContain("TOP-SECRET-42");
    expect(toolAskRules(h)).toEqual(["autoApprove.readFilesExternally"]);
  });
});
