import { afterAll, describe, expect, it } from "vitest";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

// A quoted or escaped `~` is a name in the working directory to bash. Found by running the analyzer tests
// over the real path gate: `cat '~/.env'` was judged as `$HOME/.env` while bash reads `./~/.env` — here a link
// to the workspace, so the ignored `.env` was read with readFilesExternally on, and in auto mode.
const t = tempTree({ "ws/.env": "SECRET=1", "ws/.toolgateignore": ".env\n" }, { "ws/~": "ws" });
afterAll(() => t.cleanup());
const cmd = (command: string) => call("execute_command", { command });

describe("a quoted ~ in a command is judged as the name bash uses", () => {
  it("an ignored file reached through a quoted or escaped ~ is refused in every profile", async () => {
    for (const flat of [
      {},
      { "toolgate.autoApprove.actions": { readFilesExternally: true } },
      { "toolgate.mode": "auto" },
    ]) {
      const g = await gateWith(flat, [t.path("ws")]);
      for (const c of ["cat '~/.env'", 'cat "~/.env"', "cat \\~/.env", "cat ./~/.env", "cp '~/.env' /tmp/x"])
        expect([c, g.decide(cmd(c)).decision, g.decide(cmd(c)).rule]).toEqual([
          c,
          "deny",
          "ignoreFile: .toolgateignore",
        ]);
    }
  });

  it("an unquoted ~ is still the home directory", async () => {
    const g = await gateWith({ "toolgate.autoApprove.actions": { readFilesExternally: true } }, [t.path("ws")]);
    expect(g.decide(cmd("cat ~/.env")).decision).not.toBe("deny");
  });
});
