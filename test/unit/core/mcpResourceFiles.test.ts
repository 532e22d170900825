import { afterAll, describe, expect, it } from "vitest";
import type { Judged } from "../../../src/core/resolvedCall";
import { resourceFiles } from "../../../src/core/mcpResource";
import { call, gateWith } from "../../support/gate";
import { tempTree } from "../../support/workspace";

// access_mcp_resource with a file URI is read_file on that file: ignore file, Read rules, the workspace boundary.
const t = tempTree(
  {
    "ws/src/a.ts": "a",
    "ws/.env": "SECRET=1",
    "ws/sub/x.txt": "x",
    "ws/.toolgateignore": ".env\n",
    "outside/x.txt": "x",
  },
  { "ws/out": "outside" },
);
afterAll(() => t.cleanup());
const ws = t.path("ws");
const roots = [ws];
const servers = { ev: { command: "node", alwaysAllow: [] } };
const res = (uri: string) => call("access_mcp_resource", { server_name: "ev", uri });
const base = { "toolgate.mcpServers": servers, "toolgate.autoApprove.actions": { useMcp: true, readFiles: true } };

describe("resourceFiles: the files a URI may name", () => {
  it("only file: (any case) and scheme-less URIs name files", () => {
    expect(resourceFiles("demo://resource/static/document/a.md")).toEqual({ kind: "none" });
    expect(resourceFiles("filesystem://allowed-directories")).toEqual({ kind: "none" });
    expect(resourceFiles("FILE:///w/x")).toEqual({ kind: "files", paths: ["/w/x"] });
    expect(resourceFiles(".env")).toEqual({ kind: "files", paths: [".env"] });
  });

  it("gives every reading a server may make of the same text", () => {
    // WHATWG turns `file:.env` into `/.env`; a hand-rolled server reads `.env` in its directory.
    expect(resourceFiles("file:.env")).toEqual({ kind: "files", paths: ["/.env", ".env"] });
    expect(resourceFiles("file://localhost/w/%2Eenv")).toEqual({ kind: "files", paths: ["/w/.env"] });
    // Lexical `..` for WHATWG, the kernel's `..` (after links) for a naive reader.
    expect(resourceFiles("file:///w/a/../.env")).toEqual({ kind: "files", paths: ["/w/.env", "/w/a/../.env"] });
    expect(resourceFiles("file:///w/x?q#h")).toEqual({ kind: "files", paths: ["/w/x", "/w/x?q#h"] });
    expect(resourceFiles("file://docs/a.md")).toEqual({
      kind: "files",
      paths: ["//docs/a.md", "docs/a.md"],
      host: "docs",
    });
  });

  it("cannot read encoded separators, bad escapes, control characters", () => {
    expect(resourceFiles("file:///w/a%2F..%2F.env").kind).toBe("unparseable");
    expect(resourceFiles("file:///w/%E0%A4%A").kind).toBe("unparseable");
    expect(resourceFiles("file:///w/\u0000x").kind).toBe("unparseable");
    expect(resourceFiles("file:///w/\tx").kind).toBe("unparseable");
    expect(resourceFiles("file://").kind).toBe("unparseable");
  });
});

describe("access_mcp_resource with a file URI passes read_file's path gates", () => {
  it("an ignored file is denied, in every spelling, in the default profile, plan mode and auto", async () => {
    for (const extra of [{}, { "toolgate.mode": "plan" }, { "toolgate.mode": "auto" }]) {
      const g = await gateWith({ "toolgate.mcpServers": servers, ...extra }, roots);
      for (const uri of [
        `file://${ws}/.env`,
        `file://${ws}/%2Eenv`,
        `file://${ws}/%2e%65nv`,
        `file://localhost${ws}/.env`,
        `file://${ws}/sub/../.env`,
        `file://${ws}/out/../ws/.env`,
        `file:${ws}/.env`,
        `file://.env`,
        `file:.env`,
        `${ws}/.env`,
        `.env`,
      ]) {
        const d = g.decide(res(uri));
        expect([uri, d.decision, d.rule]).toEqual([uri, "deny", "ignoreFile: .toolgateignore"]);
        expect(d.reason).toMatch(/excluded by \.toolgateignore/);
      }
    }
  });

  it("a Read deny rule binds the resource; a Read ask rule asks", async () => {
    const deny = await gateWith({ ...base, "toolgate.permissions.deny": ["Read(src/**)"] }, roots);
    expect(deny.decide(res(`file://${ws}/src/a.ts`))).toMatchObject({
      decision: "deny",
      rule: "permissions.deny: Read(src/**)",
    });
    const ask = await gateWith(
      { ...base, "toolgate.mode": "auto", "toolgate.permissions.ask": ["Read(src/**)"] },
      roots,
    );
    expect(ask.decide(res(`file://${ws}/src/a.ts`))).toMatchObject({
      decision: "ask",
      rule: "permissions.ask: Read(src/**)",
    });
  });

  it("inside the workspace it needs useMcp and readFiles; outside, readFilesExternally too", async () => {
    const g = await gateWith(base, roots);
    const inside = g.decide(res(`file://${ws}/src/a.ts`)) as Judged;
    expect(inside).toMatchObject({ decision: "allow", rule: "autoApprove.useMcp" });
    expect(inside.resolved?.path?.real).toBe(`${ws}/src/a.ts`);
    expect(g.decide(res(`file://${t.path("outside")}/x.txt`))).toMatchObject({
      decision: "ask",
      rule: "autoApprove.readFilesExternally",
      danger: ["outside"],
    });
    // Through a link out of the workspace: the realpath decides.
    expect(g.decide(res(`file://${ws}/out/x.txt`)).rule).toBe("autoApprove.readFilesExternally");
    const external = await gateWith(
      { ...base, "toolgate.autoApprove.actions": { useMcp: true, readFiles: true, readFilesExternally: true } },
      roots,
    );
    expect(external.decide(res(`file://${t.path("outside")}/x.txt`)).decision).toBe("allow");
    const noRead = await gateWith(
      { ...base, "toolgate.autoApprove.actions": { useMcp: true, readFiles: false } },
      roots,
    );
    expect(noRead.decide(res(`file://${ws}/src/a.ts`))).toMatchObject({
      decision: "ask",
      rule: "autoApprove.readFiles",
    });
    // Other schemes are still useMcp's alone.
    expect(noRead.decide(res("demo://resource/static/document/a.md")).decision).toBe("allow");
  });

  it("a URI that cannot be read with certainty asks in every mode, auto included", async () => {
    const g = await gateWith({ ...base, "toolgate.mode": "auto" }, roots);
    for (const uri of [
      `file://${ws}/src%2Fa.ts`,
      `file://${ws}/%zz`,
      // WHATWG says `/src/a.ts`, a naive reader `src/a.ts` in the workspace: two files.
      "file:src/a.ts",
      `file://${ws}/src/a.ts?x`,
      "file://fileserver/share/a.ts",
    ]) {
      const d = g.decide(res(uri));
      expect([uri, d.decision, d.rule]).toEqual([uri, "ask", "mcp:resource-file-unsure"]);
    }
    // One file however it is read: auto runs it.
    expect(g.decide(res(`file://${ws}/src/a.ts`)).decision).toBe("allow");
  });
});
