/**
 * readFilter.ts: a file is left out only when no plain glob matches any component or name suffix of any
 * spelling of its path (a superset of what ripgrep's `-g` and GNU grep's `--include` select).
 */
import { describe, expect, it } from "vitest";
import { mayRead, readFilter } from "../../../src/core/readFilter";

describe("readFilter", () => {
  it("takes only plain globs", () => {
    expect(readFilter(["*.ts", "a?c.md", "x-y_z.1"])).toEqual({ globs: ["*.ts", "a?c.md", "x-y_z.1"] });
    for (const g of ["*.{ts,pem}", "[.]env", "a\\b", "src/*.ts", "!*.md", "é*", ""])
      expect({ g, f: readFilter(["*.ts", g]) }).toEqual({ g, f: undefined });
    expect(readFilter([])).toBeUndefined();
  });

  it("leaves out a file no glob matches in any component or suffix", () => {
    const ts = readFilter(["*.ts"])!;
    expect(mayRead(ts, ["secrets/key.pem", "./secrets/key.pem"])).toBe(false);
    expect(mayRead(ts, [".env"])).toBe(false);
    expect(mayRead(ts, ["src/a.ts"])).toBe(true);
    // A directory whose name matches: counted, though neither program reads its files for that.
    expect(mayRead(ts, ["x.ts/inner.md"])).toBe(true);
    // Letter case and `*`/`?` across `/` (fnmatch without FNM_PATHNAME).
    expect(mayRead(ts, ["A.TS"])).toBe(true);
    expect(mayRead(readFilter(["s*m"])!, ["secrets/key.pem"])).toBe(true);
    expect(mayRead(readFilter(["*s*k*"])!, ["secrets/key.pem"])).toBe(true);
    expect(mayRead(readFilter(["?"])!, ["a/b"])).toBe(true);
    expect(mayRead(readFilter(["??"])!, ["abc/def"])).toBe(false);
    // Any spelling that matches is enough.
    expect(mayRead(ts, ["secrets/key.pem", "link.ts/key.pem"])).toBe(true);
  });

  it("may always read a path with a character outside printable ASCII", () => {
    expect(mayRead(readFilter(["*.ts"])!, ["secrets/clé.pem"])).toBe(true);
    expect(mayRead(readFilter(["*.ts"])!, ["secrets/a\tb"])).toBe(true);
  });
});
