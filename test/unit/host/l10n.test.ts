import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Translating needs no code change: every manifest string is a %key% of package.nls.json, and every host
// string passed to vscode.l10n.t (or statusText's `t`) is in l10n/bundle.l10n.json, the file translators copy.
const root = join(__dirname, "../../..");
const read = (p: string) => readFileSync(join(root, p), "utf8");

function files(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    return statSync(join(root, p)).isDirectory() ? files(p) : p.endsWith(".ts") ? [p] : [];
  });
}

function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}

describe("localisation", () => {
  const manifest = JSON.parse(read("package.json")) as Record<string, unknown> & { contributes: unknown };
  const nls = JSON.parse(read("package.nls.json")) as Record<string, string>;

  it("every %key% of the manifest has its English text in package.nls.json, and no text is unused", () => {
    const used = stringsIn(manifest)
      .map((s) => /^%(.+)%$/.exec(s)?.[1])
      .filter((k): k is string => k !== undefined);
    expect(used.filter((k) => !(k in nls))).toEqual([]);
    expect(Object.keys(nls).filter((k) => !used.includes(k))).toEqual([]);
  });

  it("titles, descriptions and setting texts of the manifest are all keys", () => {
    const props = (manifest.contributes as { configuration: { properties: Record<string, Record<string, unknown>> } })
      .configuration.properties;
    for (const [key, p] of Object.entries(props)) {
      for (const field of ["markdownDescription", "description"] as const)
        if (p[field] !== undefined) expect(p[field], `${key}.${field}`).toMatch(/^%.+%$/);
      for (const d of (p.enumDescriptions as string[] | undefined) ?? []) expect(d, key).toMatch(/^%.+%$/);
    }
    const commands = (manifest.contributes as { commands: Array<{ title: string }> }).commands;
    for (const c of commands) expect(c.title).toMatch(/^%.+%$/);
    expect(manifest.l10n).toBe("./l10n");
  });

  it("every host string given to l10n.t is in l10n/bundle.l10n.json", () => {
    const bundle = JSON.parse(read("l10n/bundle.l10n.json")) as Record<string, string>;
    const used = new Set<string>();
    for (const f of [...files("src/host"), "src/extension.ts"]) {
      for (const m of read(f).matchAll(/(?:l10n\.t|\bt)\(\s*"((?:[^"\\]|\\.)*)"/g))
        used.add(JSON.parse(`"${m[1]!}"`) as string);
    }
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((k) => !(k in bundle))).toEqual([]);
    expect(Object.keys(bundle).filter((k) => !used.has(k))).toEqual([]);
  });
});
