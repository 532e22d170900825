import { describe, expect, it } from "vitest";
import { context, loadedAnalyzer } from "./helpers";

describe("reasons a person reads", () => {
  it.each([
    ["x=1 $y", "the program is the value of `$y`"],
    ['"$tool" --version', "the program is the value of `$tool`"],
    ["$(echo ls) -la", "the program's name is computed by an expansion or substitution"],
    ["/bin/$x", "the program `/bin/…` (… stands for the parts computed then)"],
  ])("a program known only at run time: %s says where it comes from", async (line, text) => {
    const a = await loadedAnalyzer();
    const r = a.analyze(line, context());
    expect(r.verdict).toBe("unparseable");
    expect(r.reason).toContain(text);
    // Never a bare placeholder where the name should be.
    expect(r.reason).not.toContain("`…`");
  });
});
