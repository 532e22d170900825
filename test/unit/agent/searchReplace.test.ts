import { describe, expect, it } from "vitest";
import { applyBlocks, parseBlocks } from "../../../src/agent/tools/handlers/searchReplace";

const block = (s: string, r: string) => `------- SEARCH\n${s}\n=======\n${r}\n+++++++ REPLACE`;

describe("SEARCH/REPLACE blocks", () => {
  it("applies blocks in file order", () => {
    const file = "a\nb\nc\nd\n";
    expect(applyBlocks(file, parseBlocks(`${block("b", "B")}\n${block("d", "D1\nD2")}`))).toBe("a\nB\nc\nD1\nD2\n");
  });

  it("accepts the <<<<<<< / >>>>>>> markers", () => {
    expect(applyBlocks("x = 1\n", parseBlocks("<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE"))).toBe(
      "x = 2\n",
    );
  });

  it("falls back to matching lines without trailing whitespace, and keeps CRLF files CRLF", () => {
    expect(
      applyBlocks("if (a) {  \r\n  go();\r\n}\r\n", parseBlocks(block("if (a) {\n  go();", "if (b) {\n  stop();"))),
    ).toBe("if (b) {\r\n  stop();\r\n}\r\n");
  });

  it("says what is wrong: no match, out of order, unclosed", () => {
    expect(() => applyBlocks("a\nb\n", parseBlocks(block("zzz", "y")))).toThrow(/does not match the file/);
    expect(() => applyBlocks("a\nb\n", parseBlocks(`${block("b", "B")}\n${block("a", "A")}`))).toThrow(
      /order the blocks/,
    );
    expect(() => parseBlocks("------- SEARCH\na\n=======\nb")).toThrow(/not closed/);
    expect(() => parseBlocks("just text")).toThrow(/no SEARCH\/REPLACE block/);
  });

  it("replaces only the first occurrence at or after the cursor", () => {
    expect(applyBlocks("x\nx\nx\n", parseBlocks(`${block("x", "1")}\n${block("x", "2")}`))).toBe("1\n2\nx\n");
  });
});
