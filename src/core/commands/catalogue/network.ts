/**
 * The catalogue's **network** effect: programs, and subcommands of programs, whose purpose is to talk to another
 * machine (DESIGN step 5, "Commands in the sandbox"). One reviewed list, consulted by the analysis for every
 * simple command it resolves — wrapped (`env`, `timeout`, `xargs`), nested in a payload (`sh -c '…'`) or at the top.
 *
 * What the list is for: under `executeInSandbox` a line that reaches the network is a boundary and asks (or runs
 * with the hosts the person listed in `toolgate.sandbox.network`). The sandbox has no network anyway, so a
 * program missing here fails inside it instead of leaking; programs that fetch only implicitly (`cargo build`,
 * `go test`, `gradle`) are left out on purpose: they run and, with a cold cache, fail with the no-network hint.
 *
 * Matching over-approximates: for package managers any argument before `--` that spells a network subcommand
 * counts, so an option taking a value (`npm --prefix dir install`) cannot move the subcommand out of sight.
 */

/** Programs that reach the network whatever their arguments. */
const ALWAYS = new Set([
  "curl",
  "wget",
  "aria2c",
  "ssh",
  "scp",
  "sftp",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "telnet",
  "ftp",
  "lftp",
  "tftp",
  "docker",
  "podman",
  "gh",
  "glab",
  "kubectl",
  "helm",
  "aws",
  "gcloud",
  "az",
]);

/** Subcommands (any argument before `--`) that reach the network, by program. */
const SUBCOMMANDS: ReadonlyMap<string, ReadonlySet<string>> = new Map(
  Object.entries({
    npm: [
      // install and its aliases, as npm spells them
      ...["install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add"],
      ...["ci", "clean-install", "ic", "install-clean", "isntall-clean", "install-test", "it", "install-ci-test"],
      ...["cit", "update", "up", "upgrade", "udpate", "publish", "unpublish", "deprecate", "dist-tag", "owner"],
      ...["audit", "outdated", "view", "info", "show", "v", "search", "s", "se", "find", "login", "adduser"],
      ...["logout", "whoami", "ping", "exec", "x", "create", "init", "innit", "access", "team", "org", "token"],
      ...["star", "unstar", "stars", "hook", "profile", "doctor", "dedupe", "ddp"],
    ],
    pnpm: [
      ...["install", "i", "add", "update", "up", "upgrade", "publish", "dlx", "create", "outdated", "audit"],
      ...["fetch", "install-test", "it", "import", "env", "self-update", "login", "logout", "whoami", "view"],
      ...["info", "show", "search"],
    ],
    yarn: [
      ...["install", "add", "upgrade", "upgrade-interactive", "up", "publish", "dlx", "npm", "info", "outdated"],
      ...["audit", "create", "set", "plugin", "login", "logout", "import", "global"],
    ],
    bun: ["install", "i", "add", "a", "update", "publish", "x", "create", "upgrade", "outdated", "audit"],
    pip: ["install", "download", "index", "search", "wheel"],
    pipx: ["install", "run", "upgrade", "upgrade-all", "reinstall", "reinstall-all", "inject"],
    uv: ["pip", "add", "sync", "lock", "run", "tool", "python", "publish", "self", "venv"],
    poetry: ["install", "add", "update", "lock", "publish", "search", "self"],
    cargo: ["install", "publish", "fetch", "update", "search", "login", "add", "yank", "owner", "vendor"],
    go: ["get"],
    gem: ["install", "update", "push", "fetch", "search", "sources", "yank", "owner", "signin"],
    bundle: ["install", "update", "add", "outdated", "lock"],
    composer: ["install", "require", "update", "create-project", "global", "outdated", "self-update"],
  }).map(([k, v]) => [k, new Set(v)]),
);

/** Spellings that are the same program for this list (`pip3.12` is `pip`, `yarnpkg` is `yarn`). */
function canonical(program: string): string {
  if (/^pip[0-9.]*$/.test(program)) return "pip";
  if (program === "yarnpkg") return "yarn";
  if (program === "netcat.openbsd" || program === "netcat.traditional") return "netcat";
  return program;
}

/** git subcommands that reach a remote (`git` global options are already removed by the caller). */
function gitReaches(args: readonly string[]): string | undefined {
  const [sub, next] = args;
  if (sub === undefined) return undefined;
  if (["push", "pull", "fetch", "clone", "ls-remote", "send-email", "request-pull"].includes(sub)) return `git ${sub}`;
  if (sub === "submodule" && args.some((a) => a === "update" || a === "add" || a === "foreach")) return "git submodule";
  if (sub === "remote" && (next === "update" || next === "show" || next === "prune" || args.includes("-f")))
    return `git remote ${next ?? ""}`.trim();
  if (sub === "archive" && args.some((a) => a === "--remote" || a.startsWith("--remote="))) return "git archive";
  return undefined;
}

/** `rsync` reaches the network when a source or destination names a host (`host:path`, `rsync://`, `-e`). */
function rsyncReaches(args: readonly string[]): boolean {
  return args.some(
    (a) =>
      a.startsWith("rsync://") ||
      a === "-e" ||
      a.startsWith("--rsh") ||
      // `host:path` / `user@host:path`: a colon before any slash (a local path with a colon has a slash first).
      (!a.startsWith("-") && /^[^/]*:/.test(a)),
  );
}

/** The words before `--` (after it, arguments belong to a script or program the manager runs). */
function beforeDashDash(args: readonly string[]): readonly string[] {
  const end = args.indexOf("--");
  return end < 0 ? args : args.slice(0, end);
}

/**
 * What in `argv` reaches the network, as the person should read it (`curl`, `git push`, `npm install`), or
 * undefined. `program` is the base name the analysis resolved; `argv[0]` is the program word itself.
 */
export function networkUse(program: string, argv: readonly string[]): string | undefined {
  const name = canonical(program);
  const args = argv.slice(1);
  if (ALWAYS.has(name)) return name;
  if (name === "git") return gitReaches(args);
  if (name === "rsync") return rsyncReaches(args) ? "rsync to a host" : undefined;
  if (/^python[0-9.]*$/.test(name)) {
    // `python -m pip install …` is pip.
    const m = args.indexOf("-m");
    const mod = m >= 0 ? args[m + 1] : undefined;
    return mod !== undefined && /^pip[0-9.]*$/.test(mod)
      ? networkUse("pip", args.slice(m + 1)) && `${name} -m pip`
      : undefined;
  }
  const subs = SUBCOMMANDS.get(name);
  if (!subs) return undefined;
  const words = beforeDashDash(args);
  const hit = words.find((w) => subs.has(w));
  if (hit !== undefined) return `${name} ${hit}`;
  // A bare `yarn` (only options) installs.
  if (name === "yarn" && words.every((w) => w.startsWith("-"))) return "yarn";
  if (name === "go" && words[0] === "install" && words.some((w) => w.includes("@"))) return "go install";
  if (name === "go" && words[0] === "mod" && words[1] === "download") return "go mod download";
  return undefined;
}
