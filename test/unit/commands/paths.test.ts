/**
 * File effects go through the same path gate as the file tools, from every directory the line may be in.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import type { RecordingPathGate } from "./helpers";
import { context, HOME, loadedAnalyzer, WS } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

function gateCalls(command: string, allow: string[] = []): { path: string; cwd: string; access: string }[] {
  const ctx = context({ allow });
  a.analyze(command, ctx);
  return (ctx.paths as RecordingPathGate).calls;
}

describe("path effects", () => {
  it("checks redirect targets as writes and reader arguments as reads", () => {
    expect(gateCalls("cat a.txt > b.txt")).toEqual([
      { path: "b.txt", cwd: WS, access: "write" },
      { path: "a.txt", cwd: WS, access: "read" },
    ]);
  });

  it("leaves /dev/null, descriptor duplication and here-documents alone", () => {
    expect(gateCalls("cat x <<< hi 2>/dev/null 2>&1 >&2")).toEqual([{ path: "x", cwd: WS, access: "read" }]);
    expect(gateCalls("cat <<EOF > /dev/stderr\nhi\nEOF")).toEqual([]);
  });

  it("follows cd: after `&&` only the new directory, after `;` the old one too (a cd may fail)", () => {
    expect(gateCalls("cd packages/a && cat b.txt")).toEqual([
      { path: "b.txt", cwd: `${WS}/packages/a`, access: "read" },
    ]);
    expect(gateCalls("cd packages/a; cat b.txt")).toEqual([
      { path: "b.txt", cwd: WS, access: "read" },
      { path: "b.txt", cwd: `${WS}/packages/a`, access: "read" },
    ]);
  });

  it("expands ~ to the home directory", () => {
    expect(gateCalls("echo x > ~/notes.txt")).toEqual([{ path: `${HOME}/notes.txt`, cwd: WS, access: "write" }]);
    expect(a.analyze("echo x > ~root/x", context()).verdict).toBe("unsafe");
    expect(a.analyze("echo x > '~/x'", context()).verdict).toBe("safe");
  });

  it("resolves git -C against the working directory", () => {
    // The directory (names), the repository git finds there, its history, then the file.
    expect(gateCalls("git -C pkg show HEAD:a.ts")).toEqual([
      { path: "pkg", cwd: WS, access: "read" },
      { path: "pkg", cwd: WS, access: "read" },
      { path: "pkg", cwd: WS, access: "read" },
      { path: "pkg/a.ts", cwd: WS, access: "read" },
    ]);
  });

  it("refuses relative paths once the directory is unknown", () => {
    for (const line of [
      'cd "$d" && cat x',
      "cd - && cat x",
      "popd && cat x",
      "for d in a b; do cd $d; cat x; done",
      "cd -P link && cat x",
    ]) {
      const r = a.analyze(line, context());
      expect(r.verdict, line).toBe("unsafe");
    }
    // Absolute paths are still checked normally.
    expect(a.analyze(`cd "$d"; cat ${WS}/a.txt`, context()).verdict).toBe("safe");
  });

  it("checks loop bodies after everything else, against every directory seen", () => {
    const calls = gateCalls("while read l; do cat x; done < list.txt; cd sub");
    expect(calls.map((c) => `${c.path}@${c.cwd}`)).toEqual([`list.txt@${WS}`, `x@${WS}`, `x@${WS}/sub`]);
  });

  it("gives up on too many directory changes", () => {
    const line = Array.from({ length: 10 }, (_, i) => `cd d${i}`).join("; ") + "; cat x";
    expect(a.analyze(line, context()).verdict).toBe("unsafe");
  });

  it("treats a glob as a pattern: names only may list its directory, content readers meet the pattern gate", () => {
    expect(gateCalls("ls src/*.ts")).toEqual([{ path: "src", cwd: WS, access: "read" }]);
    expect(a.analyze("cat src/*.ts", context()).verdict).toBe("safe");
    expect(a.analyze("cat *", context())).toMatchObject({ verdict: "unsafe", rule: "path:pattern" });
    expect(a.analyze("cat secrets/*", context())).toMatchObject({
      verdict: "unsafe",
      rule: "ignoreFile: .toolgateignore",
    });
    expect(a.analyze("cat 'src/*.ts'", context()).verdict).toBe("safe");
  });

  it("marks writes inside the workspace as not read-only, and refuses protected ones", () => {
    expect(a.analyze("echo x > notes.md", context())).toMatchObject({ verdict: "safe", readOnly: false });
    expect(a.analyze("echo x > .vscode/tasks.json", context())).toMatchObject({
      verdict: "unsafe",
      rule: "protected: **/.vscode/*.json",
    });
    expect(a.analyze("echo x > src/.git/hooks/x", context())).toMatchObject({
      verdict: "unsafe",
      rule: "protected: **/.git/**",
    });
  });
});
