import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { JsonArgumentsError, PartialJsonParser, parseToolArguments } from "../../../src/agent/streaming/partialJson";

function feedAll(chunks: readonly string[]): PartialJsonParser {
  const p = new PartialJsonParser();
  for (const c of chunks) p.feed(c);
  return p;
}

function splitAt(text: string, cuts: number[]): string[] {
  const sorted = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let prev = 0;
  for (const c of sorted) {
    out.push(text.slice(prev, c));
    prev = c;
  }
  out.push(text.slice(prev));
  return out;
}

describe("PartialJsonParser", () => {
  it("gives the open string's text so far while the path is already complete", () => {
    const p = new PartialJsonParser();
    p.feed('{"path": "src/a.ts", "content": "line 1\\nli');
    expect(p.value).toEqual({ path: "src/a.ts", content: "line 1\nli" });
    expect(p.complete).toBe(false);
    p.feed('ne 2"}');
    expect(p.end()).toEqual({ path: "src/a.ts", content: "line 1\nline 2" });
  });

  it("reports top-level string deltas once each, and field completion", () => {
    const deltas: string[] = [];
    const completed: string[] = [];
    const p = new PartialJsonParser({
      onStringDelta: (k, d) => deltas.push(`${k}:${d}`),
      onFieldComplete: (k) => completed.push(k),
    });
    for (const c of ['{"pa', 'th":"a', '.ts","con', 'tent":"x\\', 'u00e9y"', ', "n": 12', "}"]) p.feed(c);
    // One delta per chunk per field: what a chunk decoded to, never repeated.
    expect(deltas.join("|")).toBe("path:a|path:.ts|content:x|content:éy");
    expect(completed).toEqual(["path", "content", "n"]);
    expect(p.end()).toEqual({ path: "a.ts", content: "xéy", n: 12 });
  });

  it("decodes a \\u escape and a surrogate pair split across chunks", () => {
    const p = feedAll(['{"s":"\\ud8', "3d\\", "ude0", '0 ok"}']);
    expect(p.end()).toEqual({ s: "😀 ok" });
  });

  it("shows nested containers as they fill, numbers only once complete", () => {
    const p = new PartialJsonParser();
    p.feed('{"options": ["yes", "n');
    expect(p.value).toEqual({ options: ["yes", "n"] });
    p.feed('o"], "depth": 1');
    expect(p.value).toEqual({ options: ["yes", "no"] });
    p.feed('0, "ok": true, "x": null, "o": {"a": [1, {"b": -2.5e3}]}}');
    expect(p.end()).toEqual({ options: ["yes", "no"], depth: 10, ok: true, x: null, o: { a: [1, { b: -2500 }] } });
  });

  it("keeps a __proto__ key as an own property, as JSON.parse does", () => {
    const v = parseToolArguments('{"__proto__": {"polluted": true}, "a": 1}');
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(["__proto__", "a"]);
    expect((v as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("treats empty arguments as an argument-less call", () => {
    expect(feedAll(["", "  "]).end()).toEqual({});
  });

  it.each([
    ['{"a": 1,}', /expected a property name/],
    ['{"a" 1}', /expected ":"/],
    ['["a"]', /must be a JSON object/],
    ['{"a": tru }', /invalid value "tru"/],
    ['{"a": 01}', /invalid value "01"/],
    ['{"a": "x\\q"}', /invalid escape/],
    ['{"a": "x\\u12G4"}', /invalid \\u escape/],
    ['{"a": "line\nbreak"}', /control character/],
    ['{"a": 1}}', /after the end/],
    ['{"a": 1} {"b": 2}', /after the end/],
    ['{"a": [1 2]}', /expected "," or "]"/],
  ])("rejects malformed %j with a clear message", (text, message) => {
    expect(() => parseToolArguments(text)).toThrow(message);
  });

  it("fails an unterminated stream at end(), naming what was open", () => {
    const p = feedAll(['{"path": "a", "content": "abc']);
    expect(() => p.end()).toThrow(/ended early \(unterminated string\)/);
    expect(p.error).toBeInstanceOf(JsonArgumentsError);
  });

  it("stays failed after an error and keeps the position", () => {
    const p = new PartialJsonParser();
    p.feed('{"a": ');
    expect(() => p.feed("]")).toThrow(JsonArgumentsError);
    expect(p.error?.position).toBe(6);
    expect(() => p.feed("1}")).toThrow(JsonArgumentsError);
  });

  it("agrees with JSON.parse for any object split anywhere", () => {
    const obj = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(obj, fc.array(fc.nat(), { maxLength: 12 }), fc.boolean(), (o, cuts, pretty) => {
        const text = JSON.stringify(o, null, pretty ? 2 : undefined);
        const p = feedAll(splitAt(text, cuts));
        expect(p.end()).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("rebuilds every top-level string exactly from its deltas", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.string({ unit: "binary" })),
        fc.array(fc.nat(), { maxLength: 20 }),
        (o, cuts) => {
          const text = JSON.stringify(o);
          const seen = new Map<string, string>();
          const p = new PartialJsonParser({ onStringDelta: (k, d) => seen.set(k, (seen.get(k) ?? "") + d) });
          for (const c of splitAt(text, cuts)) p.feed(c);
          p.end();
          for (const [k, v] of Object.entries(o)) if (v !== "") expect(seen.get(k)).toBe(v);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("takes a 1 MB string in 8,000 chunks without re-reading (consumed count equals input)", () => {
    const content = "x".repeat(1 << 20);
    const text = JSON.stringify({ path: "big.txt", content });
    const p = new PartialJsonParser();
    const size = Math.ceil(text.length / 8000);
    for (let i = 0; i < text.length; i += size) p.feed(text.slice(i, i + size));
    expect(p.length).toBe(text.length);
    expect((p.end().content as string).length).toBe(content.length);
  });
});
