import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

const t = tempTree({ "ws/src/a.ts": "a" });
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const settings = { "toolgate.autoApprove.actions": { readFiles: true, editFiles: true } };
const read = (path: string) => call("read_file", { path });
const write = (path: string) => call("write_to_file", { path, content: "x" });

describe("rules and protected paths match as their globs do, pre-filters included", () => {
  // minimatch folds case the Unicode way (`ſ` is `s`, `K` is `k`), as case-insensitive file systems may:
  // the fast pre-filters in front of it must never say no where the glob says yes.
  it("a deny rule holds for a spelling that differs only by Unicode case folding", async () => {
    const g = await gateWith({ ...settings, "toolgate.permissions.deny": ["Read(secrets/**)"] }, roots);
    expect(g.decide(read("secrets/a.txt")).decision).toBe("deny");
    expect(g.decide(read("\u017Fecrets/a.txt")).decision).toBe("deny");
    expect(g.decide(read("SECRETS/a.txt")).decision).toBe("deny");
  });

  it("a protected path asks for such a spelling too", async () => {
    const g = await gateWith(settings, roots);
    expect(g.decide(write(".v\u017Fcode/settings.json")).rule).toMatch(/^protected: /);
    expect(g.decide(write("home/.\u017Fsh/config")).rule).toMatch(/^protected: /);
  });
});
