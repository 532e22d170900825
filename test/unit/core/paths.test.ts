import { afterAll, describe, expect, it } from "vitest";
import { WorkspacePaths } from "../../../src/core/paths";
import { tempTree } from "../../support/workspace";

const t = tempTree(
  { "ws/src/a.ts": "a", "ws2/b.ts": "b", "outside/secret.txt": "s", "ws-evil/x": "x" },
  {
    "ws/link-out": "outside",
    "ws/src/link-file": "outside/secret.txt",
    "outside/link-in": "ws/src",
    "ws/dangling": "outside/not-yet.txt",
    "ws/loop-a": "ws/loop-b",
    "ws/loop-b": "ws/loop-a",
  },
);
afterAll(() => t.cleanup());

describe("WorkspacePaths", () => {
  const paths = new WorkspacePaths([t.path("ws"), t.path("ws2")], undefined, "/home/tester");

  it("resolves relative paths against the first root", () => {
    const r = paths.resolve("src/a.ts");
    expect(r.ok && r.path.realRoot?.relative).toBe("src/a.ts");
  });

  it("rejects empty, NUL and URL paths", () => {
    for (const bad of ["", "   ", "src/\0a", "file:///etc/passwd", "https://x.test/a", "vscode-remote://h/x"]) {
      expect(paths.resolve(bad).ok, bad).toBe(false);
    }
  });

  it("accepts a Windows-style drive letter is not taken for a URL scheme", () => {
    expect(paths.resolve("C:").ok).toBe(true);
  });

  it("counts containment by segments, never by string prefix", () => {
    const r = paths.resolve(t.path("ws-evil/x"));
    expect(r.ok && r.path.realRoot).toBeUndefined();
    const dots = paths.resolve("..foo/x");
    expect(dots.ok && dots.path.realRoot?.relative).toBe("..foo/x");
  });

  it("treats `..` escapes as external", () => {
    const r = paths.resolve("../outside/secret.txt");
    expect(r.ok && r.path.realRoot).toBeUndefined();
  });

  it("finds the second root of a multi-root workspace", () => {
    const r = paths.resolve(t.path("ws2/b.ts"));
    expect(r.ok && r.path.realRoot).toMatchObject({ index: 1, relative: "b.ts" });
  });

  it("follows a symlink inside a root that points out: external", () => {
    const dir = paths.resolve("link-out/secret.txt");
    expect(dir.ok && dir.path.realRoot).toBeUndefined();
    expect(dir.ok && dir.path.lexicalRoot?.relative).toBe("link-out/secret.txt");
    const file = paths.resolve("src/link-file");
    expect(file.ok && file.path.realRoot).toBeUndefined();
  });

  it("resolves a path that does not exist yet through its nearest existing ancestor", () => {
    const r = paths.resolve("link-out/new/dir/file.txt");
    expect(r.ok && r.path.real).toBe(t.path("outside/new/dir/file.txt"));
    expect(r.ok && r.path.realRoot).toBeUndefined();
    const local = paths.resolve("src/new.ts");
    expect(local.ok && local.path.realRoot?.relative).toBe("src/new.ts");
  });

  it("follows a dangling link to where a write would land", () => {
    const r = paths.resolve("dangling");
    expect(r.ok && r.path.real).toBe(t.path("outside/not-yet.txt"));
    expect(r.ok && r.path.realRoot).toBeUndefined();
  });

  it("resolves each `..` from the real directory reached so far, across links and missing names", () => {
    const real = (p: string) => {
      const r = paths.resolve(p);
      return r.ok ? r.path.real : undefined;
    };
    // `link-out` leads to `outside`, so `link-out/..` is the tree's top, not the workspace.
    expect(real("link-out/../ws/src/a.ts")).toBe(t.path("ws/src/a.ts"));
    expect(real("link-out/../outside/secret.txt")).toBe(t.path("outside/secret.txt"));
    expect(real("src/../link-out/secret.txt")).toBe(t.path("outside/secret.txt"));
    expect(real("src/not-yet/../a.ts")).toBe(t.path("ws/src/a.ts"));
    expect(real("link-out/new/../../ws/x.ts")).toBe(t.path("ws/x.ts"));
    expect(real("src/..")).toBe(t.path("ws"));
    expect(real(`${t.dir}/outside/link-in/../a.ts`)).toBe(t.path("ws/a.ts"));
    const loop = paths.resolve("loop-a/../src/a.ts");
    expect(loop.ok && loop.path.realRoot).toBeUndefined();
  });

  it("a symlink loop counts as external, never local", () => {
    const r = paths.resolve("loop-a/x");
    expect(r.ok && r.path.realRoot).toBeUndefined();
  });

  it("counts a link from outside into a root as local (the realpath decides)", () => {
    const r = paths.resolve(t.path("outside/link-in/a.ts"));
    expect(r.ok && r.path.realRoot?.relative).toBe("src/a.ts");
  });

  it("expands ~/ to the home directory, which is outside the workspace", () => {
    const r = paths.resolve("~/.bashrc");
    expect(r.ok && r.path.lexical).toBe("/home/tester/.bashrc");
    expect(r.ok && r.path.realRoot).toBeUndefined();
  });

  it("with no roots, every path is external", () => {
    const none = new WorkspacePaths([]);
    const r = none.resolve(t.path("ws/src/a.ts"));
    expect(r.ok && r.path.realRoot).toBeUndefined();
  });
});
