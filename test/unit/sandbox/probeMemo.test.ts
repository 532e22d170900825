/**
 * The sandbox probe a hook remembers (src/agent/sandbox/probeMemo.ts), with the real bubblewrap: a working probe
 * is remembered and reused while its bwrap, user and kernel settings stay put and for ten minutes; a failed
 * probe is never remembered; a forged, damaged or foreign file is a fresh probe.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROBE_MEMO_MS, probeKey, probeSandboxRemembered } from "../../../src/agent/sandbox/probeMemo";
import { probeSandbox, type SandboxProbe } from "../../../src/agent/sandbox/sandboxProbe";
import { tempTree } from "../../support/workspace";

const t = tempTree({ "cache/.keep": "", "bin/.keep": "", "broken/.keep": "" });
afterAll(() => t.cleanup());
const real = probeSandbox(true);
const works = real.available && real.mechanism === "bubblewrap";

/** The real probe, counted. */
function counted(env: NodeJS.ProcessEnv): { probe: () => SandboxProbe; calls: () => number } {
  let n = 0;
  return {
    probe: () => {
      n++;
      return probeSandbox(true, env);
    },
    calls: () => n,
  };
}

describe.skipIf(!works)("the remembered sandbox probe", () => {
  const file = t.path("cache/toolgate/sandbox-probe.json");
  const env = { ...process.env };

  it("probes once, then answers from the file while nothing changed, for ten minutes", () => {
    const c = counted(env);
    const now = Date.now();
    const first = probeSandboxRemembered(env, { file, now, probe: c.probe });
    expect(first).toMatchObject({ available: true, mechanism: "bubblewrap" });
    expect(c.calls()).toBe(1);
    const again = probeSandboxRemembered(env, { file, now: now + 1000, probe: c.probe });
    expect(again).toEqual(first);
    expect(c.calls()).toBe(1);
    probeSandboxRemembered(env, { file, now: now + PROBE_MEMO_MS, probe: c.probe });
    expect(c.calls()).toBe(2);
    // A clock that went back does not stretch the ten minutes.
    probeSandboxRemembered(env, { file, now: now - 1000, probe: c.probe });
    expect(c.calls()).toBe(3);
  });

  it("probes again when the bwrap on PATH is another one", () => {
    const now = Date.now();
    probeSandboxRemembered(env, { file, now, probe: counted(env).probe });
    copyFileSync(real.executable!, t.path("bin/bwrap"));
    chmodSync(t.path("bin/bwrap"), 0o755);
    const other = { ...env, PATH: `${t.path("bin")}:${env.PATH ?? ""}` };
    expect(probeKey(other)?.bwrap).toBe(t.path("bin/bwrap"));
    const c = counted(other);
    const p = probeSandboxRemembered(other, { file, now: now + 1, probe: c.probe });
    expect(c.calls()).toBe(1);
    expect(p.executable).toBe(t.path("bin/bwrap"));
  });

  it("never remembers a probe that found no sandbox", () => {
    writeFileSync(
      t.path("broken/bwrap"),
      "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
    );
    chmodSync(t.path("broken/bwrap"), 0o755);
    const broken = { ...env, PATH: `${t.path("broken")}:${env.PATH ?? ""}` };
    const memo = t.path("cache/broken.json");
    const c = counted(broken);
    const now = Date.now();
    expect(probeSandboxRemembered(broken, { file: memo, now, probe: c.probe }).available).toBe(false);
    expect(probeSandboxRemembered(broken, { file: memo, now: now + 1, probe: c.probe }).available).toBe(false);
    expect(c.calls()).toBe(2);
  });

  it("does not trust a damaged, forged or open file: it probes afresh", () => {
    const now = Date.now();
    probeSandboxRemembered(env, { file, now, probe: counted(env).probe });
    const good = readFileSync(file, "utf8");
    const memo = JSON.parse(good) as { probe: Record<string, unknown>; key: string };
    const forged: Record<string, string> = {
      garbage: "{not json",
      "another machine's key": JSON.stringify({ ...memo, key: memo.key.replace("]", ",1]") }),
      "another bwrap": JSON.stringify({ ...memo, probe: { ...memo.probe, executable: "/tmp/evil-bwrap" } }),
      "another mechanism": JSON.stringify({ ...memo, probe: { ...memo.probe, mechanism: "seatbelt" } }),
    };
    for (const [what, text] of Object.entries(forged)) {
      writeFileSync(file, text);
      const c = counted(env);
      const p = probeSandboxRemembered(env, { file, now: now + 1, probe: c.probe });
      expect(c.calls(), what).toBe(1);
      expect(p.executable, what).toBe(real.executable);
    }
    writeFileSync(file, good);
    chmodSync(file, 0o666);
    const c = counted(env);
    probeSandboxRemembered(env, { file, now: now + 1, probe: c.probe });
    expect(c.calls()).toBe(1);
    chmodSync(file, 0o600);
    mkdirSync(path.dirname(file), { recursive: true });
    chmodSync(path.dirname(file), 0o777);
    const d = counted(env);
    probeSandboxRemembered(env, { file, now: now + 2, probe: d.probe });
    expect(d.calls()).toBe(1);
    chmodSync(path.dirname(file), 0o700);
  });
});
