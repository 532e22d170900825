import { describe, expect, it } from "vitest";
import { FsFacts, type DirEntry, type DirWatcher, type EntryKind, type FsCalls } from "../../../src/core/fsFacts";

/** An in-memory tree: dirs, files and links by absolute path; every system call is counted. */
class FakeFs implements FsCalls {
  readonly nodes = new Map<string, { kind: EntryKind; target?: string }>([["/", { kind: "dir" }]]);
  count = 0;
  dir(p: string): this {
    this.nodes.set(p, { kind: "dir" });
    return this;
  }
  file(p: string): this {
    this.nodes.set(p, { kind: "file" });
    return this;
  }
  link(p: string, target: string): this {
    this.nodes.set(p, { kind: "link", target });
    return this;
  }
  remove(p: string): void {
    for (const k of [...this.nodes.keys()]) if (k === p || k.startsWith(p + "/")) this.nodes.delete(k);
  }
  private resolve(p: string, hops = 0): string | undefined {
    if (hops > 40) return undefined;
    const parts = p.split("/").filter((x) => x !== "");
    let cur = "";
    for (const part of parts) {
      const next = `${cur}/${part}`;
      const n = this.nodes.get(next);
      if (!n) return undefined;
      if (n.kind === "link") {
        const t = n.target!.startsWith("/") ? n.target! : `${cur}/${n.target}`;
        const r = this.resolve(t, hops + 1);
        if (r === undefined) return undefined;
        cur = r;
      } else cur = next;
    }
    return cur === "" ? "/" : cur;
  }
  realpath(p: string): string | undefined {
    this.count++;
    return this.resolve(p);
  }
  lstat(p: string): EntryKind {
    this.count++;
    const parent = this.resolve(p.slice(0, p.lastIndexOf("/")) || "/");
    if (parent === undefined) return "missing";
    return this.nodes.get(`${parent === "/" ? "" : parent}/${p.slice(p.lastIndexOf("/") + 1)}`)?.kind ?? "missing";
  }
  stat(p: string): EntryKind {
    this.count++;
    const r = this.resolve(p);
    return r === undefined ? "missing" : this.nodes.get(r)!.kind;
  }
  readlink(p: string): string | undefined {
    this.count++;
    return this.nodes.get(p)?.target;
  }
  list(d: string): readonly DirEntry[] | undefined {
    this.count++;
    const r = this.resolve(d);
    if (r === undefined || this.nodes.get(r)?.kind !== "dir") return undefined;
    const out: DirEntry[] = [];
    for (const [k, n] of this.nodes)
      if (k !== r && k.startsWith(r === "/" ? "/" : r + "/") && !k.slice(r.length + 1).includes("/"))
        out.push({ name: k.slice(k.lastIndexOf("/") + 1), kind: n.kind });
    return out;
  }
}

/** Records which directories the cache asked to watch; `refuse` makes it decline some. */
class FakeWatcher implements DirWatcher {
  readonly watched = new Set<string>();
  refuse = new Set<string>();
  watch(dir: string): boolean {
    if (this.refuse.has(dir)) return false;
    this.watched.add(dir);
    return true;
  }
}

function setup() {
  const fs = new FakeFs().dir("/ws").dir("/ws/src").file("/ws/src/a.ts").dir("/out").file("/out/x");
  const watcher = new FakeWatcher();
  const facts = new FsFacts(["/ws"], watcher, fs);
  return { fs, watcher, facts };
}

/** Calls made by `f` after a fresh `beginDecision`. */
function callsOf(fs: FakeFs, facts: FsFacts, f: () => unknown): number {
  facts.beginDecision();
  const before = fs.count;
  f();
  return fs.count - before;
}

describe("FsFacts: what is kept across decisions", () => {
  it("answers a second decision about link-free workspace paths from memory, and watches their directories first", () => {
    const { fs, watcher, facts } = setup();
    const ask = () => [facts.realpath("/ws/src/a.ts"), facts.stat("/ws/src/a.ts"), facts.list("/ws/src")];
    expect(callsOf(fs, facts, ask)).toBeGreaterThan(0);
    expect(callsOf(fs, facts, ask)).toBe(0);
    expect([...watcher.watched].sort()).toEqual(["/ws", "/ws/src"]);
    expect(ask()[0]).toBe("/ws/src/a.ts");
  });

  it("fetches paths outside the roots afresh every time", () => {
    const { fs, facts } = setup();
    callsOf(fs, facts, () => facts.realpath("/out/x"));
    expect(callsOf(fs, facts, () => facts.realpath("/out/x"))).toBe(1);
  });

  it("never keeps a path reached through a link (its target can change unwatched)", () => {
    const { fs, facts } = setup();
    fs.link("/ws/l", "/out");
    callsOf(fs, facts, () => facts.realpath("/ws/l/x"));
    expect(callsOf(fs, facts, () => facts.realpath("/ws/l/x"))).toBeGreaterThan(0);
    // Where the link leads changes, with no event in the workspace: the next decision sees it.
    fs.remove("/out/x");
    facts.beginDecision();
    expect(facts.realpath("/ws/l/x")).toBeUndefined();
  });

  it("keeps nothing in a directory the watcher could not watch", () => {
    const { fs, watcher, facts } = setup();
    watcher.refuse.add("/ws/src");
    callsOf(fs, facts, () => facts.lstat("/ws/src/a.ts"));
    expect(callsOf(fs, facts, () => facts.lstat("/ws/src/a.ts"))).toBe(1);
  });

  it("without a watcher keeps facts for one decision only", () => {
    const fs = new FakeFs().dir("/ws").file("/ws/a");
    const facts = FsFacts.perDecision(fs);
    facts.beginDecision();
    facts.realpath("/ws/a");
    const within = fs.count;
    facts.realpath("/ws/a");
    expect(fs.count).toBe(within);
    expect(callsOf(fs, facts, () => facts.realpath("/ws/a"))).toBe(1);
  });
});

describe("FsFacts: invalidation", () => {
  it("a reported change to a path forgets it and everything below it, at the next decision", () => {
    const { fs, facts } = setup();
    facts.beginDecision();
    expect(facts.realpath("/ws/src/a.ts")).toBe("/ws/src/a.ts");
    // src becomes a link out of the workspace.
    fs.remove("/ws/src");
    fs.link("/ws/src", "/out");
    fs.file("/out/a.ts");
    expect(facts.realpath("/ws/src/a.ts")).toBe("/ws/src/a.ts"); // same decision: one state
    facts.changed("/ws/src");
    facts.beginDecision();
    expect(facts.realpath("/ws/src/a.ts")).toBe("/out/a.ts");
  });

  it("a change below a directory forgets its listing and every tree result above it", () => {
    const { fs, facts } = setup();
    fs.dir("/ws/src/deep");
    let walks = 0;
    const walk = () =>
      facts.tree("/ws", "t", () => {
        walks++;
        return { value: facts.list("/ws/src/deep")!.length, cacheable: true };
      });
    facts.beginDecision();
    expect(walk()).toBe(0);
    facts.beginDecision();
    expect(walk()).toBe(0);
    expect(walks).toBe(1);
    fs.file("/ws/src/deep/new");
    facts.changed("/ws/src/deep/new");
    facts.beginDecision();
    expect(walk()).toBe(1);
    expect(walks).toBe(2);
    // A sibling's change leaves other trees alone but not the root's.
    const other = () => facts.tree("/ws/src/deep", "u", () => ({ value: walks, cacheable: true }));
    facts.beginDecision();
    const first = other();
    facts.changed("/ws/elsewhere");
    facts.beginDecision();
    expect(other()).toBe(first);
  });

  it("a tree computed over a fact that could not be kept is not kept", () => {
    const { fs, facts } = setup();
    fs.link("/ws/src/l", "/out");
    let walks = 0;
    const walk = () =>
      facts.tree("/ws/src", "t", () => {
        walks++;
        facts.lstat("/ws/src/l/x");
        return { value: 1, cacheable: true };
      });
    facts.beginDecision();
    walk();
    facts.beginDecision();
    walk();
    expect(walks).toBe(2);
  });

  it("many changes, or an unknown one, forget everything", () => {
    const { fs, facts } = setup();
    facts.beginDecision();
    facts.realpath("/ws/src/a.ts");
    for (let i = 0; i < 100; i++) facts.changed(`/ws/other${i}`);
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/a.ts"))).toBeGreaterThan(0);
    facts.changedAll();
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/a.ts"))).toBeGreaterThan(0);
  });

  it("a missing path is kept missing until its directory reports the creation", () => {
    const { fs, facts } = setup();
    facts.beginDecision();
    expect(facts.realpath("/ws/src/new")).toBeUndefined();
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/new"))).toBe(0);
    fs.dir("/ws/src/new").file("/ws/src/new/x");
    facts.beginDecision();
    expect(facts.realpath("/ws/src/new")).toBeUndefined(); // no event yet: as last reported
    facts.changed("/ws/src/new");
    facts.beginDecision();
    expect(facts.realpath("/ws/src/new")).toBe("/ws/src/new");
    // Below a directory kept as missing nothing exists, without a system call, until its creation is reported.
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/gone/y"))).toBeGreaterThan(0);
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/gone/y/z"))).toBe(0);
    fs.dir("/ws/src/gone").file("/ws/src/gone/y");
    facts.changed("/ws/src/gone");
    facts.beginDecision();
    expect(facts.realpath("/ws/src/gone/y")).toBe("/ws/src/gone/y");
  });

  it("after the watcher stops, every fact lasts one decision", () => {
    const { fs, facts } = setup();
    facts.beginDecision();
    facts.realpath("/ws/src/a.ts");
    facts.stopWatching();
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/a.ts"))).toBe(1);
    expect(callsOf(fs, facts, () => facts.realpath("/ws/src/a.ts"))).toBe(1);
  });
});
