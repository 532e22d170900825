import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

/**
 * `for f in WORDS; do … "$f" …; done`: a path argument that is exactly the loop variable is judged as each of
 * the loop's words, so everyday loops run without a question — and only while nothing else in the line can
 * change the variable, so no loop smuggles an ignored or protected path past the gate.
 */
const t = tempTree({
  "ws/src/a.ts": "a",
  "ws/src/b.ts": "b",
  "ws/.env": "SECRET=1",
  "ws/.toolgateignore": ".env\n",
});
afterAll(() => t.cleanup());
const roots = [t.path("ws")];
const decide = async (command: string, flat: Record<string, unknown> = {}) =>
  (await gateWith(flat, roots)).decide(call("execute_command", { command })).decision;

describe("for-loop variables as path arguments", () => {
  it("everyday loops over files run unasked, in both parsers' forms", async () => {
    for (const line of [
      'for f in src/*.ts; do wc -l "$f"; done',
      "for f in src/a.ts src/b.ts; do cat $f; done",
      'for f in src/*.ts; do grep -c x "$f"; done',
      'for f in src/a.ts; do git log --oneline -- "$f"; done',
      'for d in src; do\n  ls "$d"\ndone',
    ])
      expect({ line, d: await decide(line) }).toEqual({ line, d: "allow" });
  });

  it("each word is checked like a written argument: ignored files are refused, patterns that may reach them ask", async () => {
    expect(await decide('for f in src/a.ts .env; do cat "$f"; done')).toBe("deny");
    expect(await decide('for f in .*; do cat "$f"; done')).toBe("ask");
    expect(await decide('for f in src/a.ts; do echo x > "$f"; done')).toBe("ask");
  });

  it("a variable something else could change stays unknown", async () => {
    for (const line of [
      'for f in src/a.ts; do f=.env; cat "$f"; done',
      'for f in src/a.ts; do eval "f=.env"; cat "$f"; done',
      'for f in src/a.ts; do read f; cat "$f"; done',
      'for f in src/a.ts; do printf -v f %s .env; cat "$f"; done',
      'for f in src/a.ts; do declare -n r=f; r=.env; cat "$f"; done',
      'for f in src/a.ts; do source ./vars.sh; cat "$f"; done',
      'for f in .env; do :; done; for f in src/a.ts; do cat "$f"; done',
      'for f in src/a.ts; do bash -c "f=.env"; : $((f++)); cat "$f"; done',
    ])
      expect({ line, d: await decide(line) }).toEqual({ line, d: "ask" });
  });

  it("outside its loop, or where a value could be an option or split again, the variable stays unknown", async () => {
    expect(await decide('cat "$f"; for f in src/a.ts; do :; done')).toBe("ask");
    expect(await decide('for f in --files0-from=.env; do wc "$f"; done')).not.toBe("allow");
    expect(await decide("for f in src/*.ts; do cat $f; done")).toBe("ask");
    expect(await decide('for f in "src/a.ts .env"; do cat $f; done')).not.toBe("allow");
  });

  it("the program word is never taken from the loop", async () => {
    expect(await decide("for p in cat; do $p src/a.ts; done")).toBe("ask");
    expect(await decide("for p in rm; do $p -rf src; done", { "toolgate.commands.deny": ["rm"] })).toBe("deny");
  });
});
