import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { commandGrant, gitConfigRemoteUrls, npmrcRegistries } from "../../../src/core/sandbox/commandGrant";
import { grantHosts, hostsNamed, type LineHostFacts } from "../../../src/core/sandbox/namedHosts";

const none: LineHostFacts = { gitRemotes: [], npmRegistries: [] };
const safeRead = { verdict: "safe", readOnly: true };

describe("the grant a decided line carries", () => {
  it("read-only only for a safe read-only verdict, or in plan mode whatever the analysis said", () => {
    const base = { line: "x", roots: [], allowList: [] };
    expect(commandGrant({ ...base, mode: "normal", analysis: safeRead }).kind).toBe("read-only");
    expect(commandGrant({ ...base, mode: "auto", analysis: safeRead }).kind).toBe("read-only");
    expect(commandGrant({ ...base, mode: "normal", analysis: { verdict: "safe", readOnly: false } }).kind).toBe(
      "workspace-write",
    );
    expect(commandGrant({ ...base, mode: "normal", analysis: { verdict: "unsafe", readOnly: true } }).kind).toBe(
      "workspace-write",
    );
    expect(commandGrant({ ...base, mode: "normal" }).kind).toBe("workspace-write");
    expect(commandGrant({ ...base, mode: "plan", analysis: { verdict: "unsafe", readOnly: false } }).kind).toBe(
      "read-only",
    );
    expect(commandGrant({ ...base, mode: "plan" }).kind).toBe("read-only");
  });

  it("a host list never gives a line that names no host the network", () => {
    const g = commandGrant({
      mode: "auto",
      line: "ls -la",
      roots: [],
      allowList: ["registry.npmjs.org", "*.github.com"],
    });
    expect(g.hosts).toEqual([]);
  });

  it("hosts are the named ones intersected with the list, entries kept as written", () => {
    const allowList = ["registry.npmjs.org", "*.github.com", "example.org:8443"];
    const g = (line: string) => commandGrant({ mode: "normal", line, roots: [], allowList }, () => none).hosts;
    expect(g("curl -fsS https://api.github.com/repos")).toEqual(["*.github.com"]);
    expect(g("curl https://github.com/")).toEqual([]); // the wildcard is below github.com, not github.com itself
    expect(g("npm install")).toEqual(["registry.npmjs.org"]);
    expect(g("curl https://example.org:8443/x")).toEqual(["example.org:8443"]);
    // Over-approximated: the entry is granted for any mention of its host; its port is the proxy's to enforce.
    expect(g("curl https://example.org:443/x")).toEqual(["example.org:8443"]);
    expect(g("wget evil.example.net")).toEqual([]);
  });

  it("no list: no hosts, and nothing is read", () => {
    let read = false;
    const g = commandGrant({ mode: "normal", line: "git push", roots: ["/x"], allowList: [] }, () => {
      read = true;
      return none;
    });
    expect(g.hosts).toEqual([]);
    expect(read).toBe(false);
  });
});

describe("hosts a line names (lexical over-approximation)", () => {
  const hosts = (line: string, facts = none) => hostsNamed(line, facts).map((h) => h.host);

  it("URL arguments, scp-like remotes, flag values and bare names", () => {
    expect(hosts("curl https://a.example.com/x")).toContain("a.example.com");
    expect(hosts("git clone git@gitlab.example.com:me/r.git")).toContain("gitlab.example.com");
    expect(hosts("npm --registry=https://npm.corp.example/ install")).toContain("npm.corp.example");
    expect(hosts("ping -c1 host.example.net")).toContain("host.example.net");
    expect(hosts("curl 'http://[::1]:9/'")).toContain("::1");
    expect(hosts("curl http://127.0.0.1:8080/")).toContain("127.0.0.1");
  });

  it("git remotes only for a git subcommand that talks to a remote", () => {
    const facts = { gitRemotes: ["https://git.example.com/r.git"], npmRegistries: [] };
    expect(hosts("git push origin main", facts)).toContain("git.example.com");
    expect(hosts("git fetch", facts)).toContain("git.example.com");
    expect(hosts("git log", facts)).not.toContain("git.example.com");
    expect(hosts("cat README", facts)).not.toContain("git.example.com");
  });

  it("a package manager's registry: the default, or the one the root's .npmrc configures", () => {
    expect(hosts("npm ci")).toContain("registry.npmjs.org");
    expect(hosts("pip install x")).toContain("pypi.org");
    const facts = { gitRemotes: [], npmRegistries: ["https://npm.internal.example/"] };
    expect(hosts("pnpm install", facts)).toContain("npm.internal.example");
    expect(hosts("ls", facts)).toEqual([]);
  });

  it("plain words and file names with dots that are not hosts name nothing the list would match", () => {
    expect(grantHosts(hostsNamed("cat package.json src/a.ts", none), ["registry.npmjs.org"])).toEqual([]);
  });
});

describe("what the workspace configures", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "tg-grant-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads remote URLs (and insteadOf bases) and .npmrc registries", () => {
    expect(
      gitConfigRemoteUrls(
        '[remote "origin"]\n\turl = git@host.example:r.git\n\tpushurl = "https://p.example/r"\n[url "https://mirror.example/"]\n\tinsteadOf = https://x/\n',
      ),
    ).toEqual(["git@host.example:r.git", "https://p.example/r", "https://mirror.example/"]);
    expect(
      npmrcRegistries("registry=https://r.example/\n@me:registry = https://s.example/\n//r.example/:_authToken=x\n"),
    ).toEqual(["https://r.example/", "https://s.example/"]);
  });

  it("from the roots' files, for the grant", () => {
    mkdirSync(path.join(dir, ".git"));
    writeFileSync(path.join(dir, ".git", "config"), '[remote "origin"]\n\turl = https://code.example.com/r.git\n');
    writeFileSync(path.join(dir, ".npmrc"), "registry=https://npm.example.com/\n");
    const allowList = ["code.example.com", "npm.example.com"];
    expect(commandGrant({ mode: "normal", line: "git pull", roots: [dir], allowList }).hosts).toEqual([
      "code.example.com",
    ]);
    expect(commandGrant({ mode: "normal", line: "npm install", roots: [dir], allowList }).hosts).toEqual([
      "npm.example.com",
    ]);
    expect(commandGrant({ mode: "normal", line: "git status", roots: [dir], allowList }).hosts).toEqual([]);
  });
});
