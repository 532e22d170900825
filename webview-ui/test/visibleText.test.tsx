// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { hasHiddenCharacters, visibleSegments } from "../src/util/visibleText";

const render = (s: string, o = {}) =>
  visibleSegments(s, o)
    .map((x) => (x.kind === "text" ? x.text : `[${x.text}]`))
    .join("");

describe("visible text", () => {
  it("marks zero-width, bidi, BOM, soft hyphen, no-break and other odd spaces", () => {
    expect(render("a\u200bb")).toBe("a[⟨U+200B⟩]b");
    expect(render("x\u202Ey")).toBe("x[⟨U+202E⟩]y");
    expect(render("\ufeffls")).toBe("[⟨U+FEFF⟩]ls");
    expect(render("r\u00adm")).toBe("r[⟨U+00AD⟩]m");
    expect(render("a\u00a0b\u3000c\u2028d")).toBe("a[⟨U+00A0⟩]b[⟨U+3000⟩]c[⟨U+2028⟩]d");
    expect(render("tag\u{E0041}")).toBe("tag[⟨U+E0041⟩]");
  });

  it("marks control characters: CR, TAB, ESC, NUL, DEL, C1", () => {
    expect(render("ls\rrm")).toBe("ls[⟨CR⟩]rm");
    expect(render("a\tb\u001b[31m\u0000\u007f\u0085")).toBe("a[⟨TAB⟩]b[⟨ESC⟩][31m[⟨NUL⟩][⟨DEL⟩][⟨U+0085⟩]");
  });

  it("collapses long runs of spaces and keeps short ones", () => {
    expect(render(`echo ok${" ".repeat(200)}; rm -rf ~`)).toBe("echo ok[⟨200 spaces⟩]; rm -rf ~");
    expect(render("a    b")).toBe("a    b");
  });

  it("optionally marks line ends and non-ASCII look-alike letters", () => {
    expect(render("ls\nrm", { markNewlines: true })).toBe("ls[⏎]\nrm");
    expect(render("ls\nrm")).toBe("ls\nrm");
    expect(render("c\u0430t", { markNonAscii: true })).toBe("c[а]t");
    expect(visibleSegments("c\u0430t", { markNonAscii: true })[1]).toMatchObject({
      label: "non-ASCII letter а (U+0430)",
    });
  });

  it("leaves ordinary text alone", () => {
    expect(visibleSegments("git status && git diff")).toEqual([{ kind: "text", text: "git status && git diff" }]);
    expect(hasHiddenCharacters("echo 'a;b'")).toBe(false);
    expect(hasHiddenCharacters("echo\u200b")).toBe(true);
  });
});
