/** Grammar loading, the platform switch, and failing closed before the grammar is ready. */
import { mkdtempSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, GRAMMAR } from "./helpers";

describe("BashAnalyzer loading", () => {
  it("loads both wasm files from one directory (the dist/ layout)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-grammar-"));
    copyFileSync(GRAMMAR.runtime, join(dir, "tree-sitter.wasm"));
    copyFileSync(GRAMMAR.bash, join(dir, "tree-sitter-bash.wasm"));
    const a = new BashAnalyzer({ grammarDir: dir });
    await a.ready();
    await a.ready();
    expect(a.loadMs).toBeGreaterThan(0);
    expect(a.analyze("echo ${x:-y} | wc -c", context()).verdict).toBe("safe");
  });

  it("before the grammar is loaded, simple lines are analysed and the rest fail closed", () => {
    const a = new BashAnalyzer({ grammarFiles: GRAMMAR });
    expect(a.analyze("git status && git diff", context()).verdict).toBe("safe");
    expect(a.analyze("echo ${x:-y}", context())).toMatchObject({
      verdict: "unparseable",
      rule: "commands:parse-error",
    });
    expect(a.analyze("rm x; echo ${x:-y}", context({ deny: ["rm"] })).verdict).toBe("deny");
  });

  it("a missing grammar file rejects ready() and can be retried", async () => {
    const a = new BashAnalyzer({
      grammarFiles: { runtime: GRAMMAR.runtime, bash: "/nonexistent/tree-sitter-bash.wasm" },
    });
    await expect(a.ready()).rejects.toThrow();
    expect(a.analyze("echo $((1))", context()).verdict).toBe("unparseable");
  });

  it("on Windows only exact allow-list matches of plain lines are safe", () => {
    const a = new BashAnalyzer({ grammarFiles: GRAMMAR });
    const ctx = context({ platform: "windows", allow: ["npm test"], deny: ["del"] });
    expect(a.analyze("npm test", ctx).verdict).toBe("safe");
    expect(a.analyze("npm test; calc", ctx).verdict).toBe("unparseable");
    expect(a.analyze("cmd /c del x", ctx).verdict).toBe("deny");
  });

  it("never throws, even with a path gate that does", () => {
    const a = new BashAnalyzer({ grammarFiles: GRAMMAR });
    const ctx = {
      ...context(),
      paths: {
        check: () => {
          throw new Error("boom");
        },
      },
    };
    expect(a.analyze("cat x", ctx)).toMatchObject({ verdict: "unparseable", rule: "commands:internal-error" });
  });
});
