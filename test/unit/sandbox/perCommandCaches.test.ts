import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { currentHostSecrets } from "../../../src/agent/sandbox/hostSecrets";
import { compareSnapshots, takeSnapshot } from "../../../src/agent/sandbox/protectedSnapshot";
import { SandboxSession } from "../../../src/agent/sandbox/sandboxedSpawn";
import { tempTree, type TempTree } from "../../support/workspace";

/** What the runtime reuses from one command to the next must never hide a change made in between. */

const trees: TempTree[] = [];
afterEach(() => {
  for (const t of trees.splice(0)) t.cleanup();
});
const tree = (files: Record<string, string>) => {
  const t = tempTree(files);
  trees.push(t);
  return t;
};
const settle = () => new Promise((r) => setTimeout(r, 1100)); // past the one-second freshness guard

describe("protected-path fingerprints reused between commands", () => {
  it("still sees a hook rewritten with the same size and its mtime set back", async () => {
    const t = tree({ ".git/hooks/pre-commit": "ok-1\n", ".git/config": "[core]\n" });
    const old = new Date(1_000_000_000_000);
    utimesSync(t.path(".git/hooks/pre-commit"), old, old);
    await settle();
    const first = takeSnapshot([t.dir], ".toolgateignore");
    const second = takeSnapshot([t.dir], ".toolgateignore"); // from the cache
    expect(compareSnapshots(first, second)).toEqual([]);
    writeFileSync(t.path(".git/hooks/pre-commit"), "evil\n");
    utimesSync(t.path(".git/hooks/pre-commit"), old, old);
    const changes = compareSnapshots(second, takeSnapshot([t.dir], ".toolgateignore"));
    expect(changes.map((c) => `${c.kind} ${path.relative(t.dir, c.path)}`)).toEqual(["changed .git/hooks/pre-commit"]);
    expect(second.entries.get(t.path(".git/hooks/pre-commit"))?.content?.toString()).toBe("ok-1\n");
  });

  it("sees a change made right after a snapshot (within the same second)", () => {
    const t = tree({ ".vscode/settings.json": "{}" });
    const before = takeSnapshot([t.dir], ".toolgateignore");
    writeFileSync(t.path(".vscode/settings.json"), "[]");
    expect(compareSnapshots(before, takeSnapshot([t.dir], ".toolgateignore"))).toHaveLength(1);
  });
});

describe("credential stores reused between commands", () => {
  it("hides a credential store that appears mid-task from the next command on", async () => {
    const t = tree({ ".ssh/id_rsa": "k", ".config/other/x": "" });
    await settle();
    const first = currentHostSecrets(t.dir, {});
    expect(first.dirs).toContain(t.path(".ssh"));
    expect(currentHostSecrets(t.dir, {})).toBe(first); // reused: nothing changed
    mkdirSync(t.path(".config/gh"));
    writeFileSync(t.path(".npmrc"), "//registry/:_authToken=x");
    const next = currentHostSecrets(t.dir, {});
    expect(next.dirs).toContain(t.path(".config/gh"));
    expect(next.files).toContain(t.path(".npmrc"));
  });

  it("hides one that appears under a directory that did not exist before", async () => {
    const t = tree({ "a.txt": "" });
    await settle();
    expect(currentHostSecrets(t.dir, {}).dirs).not.toContain(t.path(".local/share/keyrings"));
    currentHostSecrets(t.dir, {});
    mkdirSync(t.path(".local/share/keyrings"), { recursive: true });
    expect(currentHostSecrets(t.dir, {}).dirs).toContain(t.path(".local/share/keyrings"));
  });
});

describe("the bubblewrap argv reused between commands", () => {
  const probe = {
    available: true,
    mechanism: "bubblewrap" as const,
    reason: "test",
    executable: "/usr/bin/bwrap",
    disableUserns: true,
  };
  const spec = (cwd: string) => ({ file: "/bin/bash", args: ["-c", "true"], env: { PATH: "/usr/bin" }, cwd });
  const before = (args: readonly string[]) => args.slice(0, args.indexOf("--"));

  it("is the same argv while nothing it is built from changed, and rebuilt on an ignore-file or cwd change", async () => {
    const t = tree({ ".toolgateignore": "secret.txt\n", "secret.txt": "s", "sub/a.txt": "", "other.key": "k" });
    await settle();
    const session = new SandboxSession(
      { roots: [t.dir], ignoreFileName: ".toolgateignore", network: { kind: "off" }, home: t.path("sub") },
      probe,
    );
    const first = session.prepare(spec(t.dir));
    await settle(); // the first command created Toolgate's cache folders in the home (a change to it)
    const second = session.prepare(spec(t.dir));
    expect(session.policy()).toBe(session.policy());
    expect(before(second.args)).toEqual(before(first.args));
    expect(before(first.args).join(" ")).toContain(`${t.path("secret.txt")} `);
    writeFileSync(t.path(".toolgateignore"), "secret.txt\nother.key\n");
    const third = before(session.prepare(spec(t.dir)).args);
    expect(third.join(" ")).toContain(t.path("other.key"));
    const inSub = before(session.prepare(spec(t.path("sub"))).args);
    expect(inSub.slice(-2)).toEqual(["--chdir", t.path("sub")]);
    for (const p of [first, second]) p.cleanup();
  });
});
