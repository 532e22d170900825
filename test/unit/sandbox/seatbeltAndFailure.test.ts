import { describe, expect, it } from "vitest";
import { classifySandboxFailure } from "../../../src/core/sandbox/sandboxFailure";
import type { SandboxPolicy } from "../../../src/core/sandbox/sandboxPolicy";
import { sbplString, seatbeltProfile } from "../../../src/core/sandbox/seatbeltProfile";

const policy: SandboxPolicy = {
  writableRoots: ["/Users/u/ws"],
  readOnly: ["/Users/u/ws/.git/config"],
  hiddenFiles: ["/Users/u/ws/.env"],
  hiddenDirs: ["/Users/u/ws/private dir"],
  privateDirs: ["/tmp"],
  secretFiles: ["/Users/u/.npmrc"],
  secretDirs: ["/Users/u/.ssh"],
  network: "off",
};

describe("Seatbelt profile", () => {
  const text = seatbeltProfile(policy, {
    scratchDir: "/private/var/folders/x/scratch",
    ignoreFileName: ".toolgateignore",
  });
  const lines = text.split("\n");
  const at = (needle: string) => lines.findIndex((l) => l.includes(needle));

  it("denies by default, reads everywhere, writes only the roots and the scratch directory, no network", () => {
    expect(lines[0]).toBe("(version 1)");
    expect(lines[1]).toBe("(deny default)");
    expect(text).toContain("(allow file-read*)");
    expect(text).toMatch(
      /\(allow file-write\*\n {2}\(subpath "\/Users\/u\/ws"\)\n {2}\(subpath "\/private\/var\/folders\/x\/scratch"\)/,
    );
    expect(text).not.toMatch(/\(allow network/);
    expect(lines.at(-2)).toBe("(deny network*)");
  });

  it("hides ignored paths and credential stores after the read allow (the last matching rule wins)", () => {
    const denyRead = at("(deny file-read*");
    expect(denyRead).toBeGreaterThan(at("(allow file-read*)"));
    expect(lines.slice(denyRead).join("\n")).toMatch(
      /\(literal "\/Users\/u\/ws\/\.env"\)\n {2}\(literal "\/Users\/u\/\.npmrc"\)\n {2}\(subpath "\/Users\/u\/ws\/private dir"\)\n {2}\(subpath "\/Users\/u\/\.ssh"\)/,
    );
  });

  it("refuses writes to protected paths after the write allow, including ones that do not exist yet", () => {
    const denyWrite = lines.findIndex((l, i) => i > at("(allow file-write*") && l === "(deny file-write*");
    expect(denyWrite).toBeGreaterThan(at("(allow file-write*"));
    const block = lines.slice(denyWrite).join("\n");
    expect(block).toContain('(subpath "/Users/u/ws/.git/config")');
    const res = [...block.matchAll(/\(regex #"([^"]+)"\)/g)].map((m) => new RegExp(m[1]!));
    const hits = (p: string) => res.some((r) => r.test(p));
    for (const p of [
      "/Users/u/ws/.git/hooks/pre-commit",
      "/Users/u/ws/sub/dir/.git/config",
      "/Users/u/ws/.vscode/settings.json",
      "/Users/u/ws/.github/workflows/ci.yml",
      "/Users/u/ws/.husky/pre-push",
      "/Users/u/ws/a/.toolgateignore",
      "/Users/u/ws/.mcp.json",
      "/Users/u/ws/x.code-workspace",
    ])
      expect(hits(p), p).toBe(true);
    for (const p of ["/Users/u/ws/src/a.ts", "/Users/u/ws/.git/objects/ab/cd", "/Users/u/ws2/.git/config"])
      expect(hits(p), p).toBe(false);
  });

  it("quotes paths", () => {
    expect(sbplString('a"b\\c')).toBe('"a\\"b\\\\c"');
  });
});

describe("sandbox-caused failures", () => {
  const ctx = { hidden: ["/w/.env", ".env"], networkOff: true };

  it("tells the sandbox's own start failure apart", () => {
    expect(
      classifySandboxFailure({ exitCode: 1, output: "bwrap: Can't find source path /x: No such file" }, ctx),
    ).toEqual({
      kind: "start",
      reason: "Can't find source path /x: No such file",
    });
  });

  it("names a read-only write, a hidden path and a missing network for the model", () => {
    const ro = classifySandboxFailure(
      { exitCode: 1, output: "touch: cannot touch '/etc/x': Read-only file system" },
      ctx,
    );
    expect(ro).toMatchObject({ kind: "blocked", cause: "read-only" });
    expect(ro?.kind === "blocked" && ro.message).toMatch(/sandbox/);
    expect(
      classifySandboxFailure({ exitCode: 1, output: "cat: .env/x: No such file or directory" }, ctx),
    ).toMatchObject({ cause: "hidden" });
    expect(
      classifySandboxFailure({ exitCode: 6, output: "curl: (6) Could not resolve host: example.com" }, ctx),
    ).toMatchObject({ cause: "network" });
  });

  it("leaves ordinary failures alone", () => {
    expect(classifySandboxFailure({ exitCode: 0, output: "Read-only file system" }, ctx)).toBeUndefined();
    expect(
      classifySandboxFailure({ exitCode: 1, output: "cat: nope: No such file or directory" }, ctx),
    ).toBeUndefined();
    expect(
      classifySandboxFailure({ exitCode: 6, output: "Could not resolve host" }, { ...ctx, networkOff: false }),
    ).toBeUndefined();
  });
});
