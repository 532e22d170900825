/**
 * The execution oracle's sandbox: real bash in a bubblewrap mount namespace whose program directories
 * (`/usr/bin`, `/usr/sbin`, `/usr/local/bin`; `/bin` and `/sbin` are links to them) hold one shim per program.
 * The shim (shim.c, compiled once per run) logs argv, cwd and its ancestors, then execs the real program
 * through `/.real`, a tree of links into the real `/usr` bound read-only at `/.realusr`. Only the bash that
 * runs the line is started directly; every other program, `bash` and `sh` included, passes a shim.
 *
 * Paths inside equal paths outside: the workspace, the outside directory and the fake HOME are bound at their
 * own host paths, so the gate (running in this process) judges exactly the files bash sees. The sandbox root
 * `/` is a host directory too, so a write anywhere but the read-only binds lands where the snapshot sees it.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { buildTemplate, SENTINELS, type Layout } from "./workspace";
import { bashArgv, commandEnvironment } from "../../src/agent/node/commandEnv";

const SHIM_DIRS = ["usr/bin", "usr/sbin", "usr/local/bin"];
/** Programs missing on this machine that the generators use: a shim that runs a harmless stand-in. */
const STAND_INS: Record<string, string> = {
  rg: "/usr/bin/true",
  nc: "/usr/bin/true",
  tree: "/usr/bin/true",
  // `sudo -u root CMD` becomes `env -u root CMD`: the nested command still runs and is still logged.
  sudo: "/usr/bin/env",
};

/**
 * Pid 2 of the sandbox: runs the executor's own argv (its arguments), then waits (up to 3 s) until every
 * process the line left behind (`<(...)`, `&`, a trap) has ended, so that what they do is seen on every run,
 * not only when they win a race against the end of the namespace. It sleeps with the real `sleep`, which logs
 * nothing.
 */
const WAIT_FOR_ALL =
  '"$@"; rc=$?; for _ in {1..300}; do n=0; ' +
  "for p in /proc/[0-9]*; do n=$((n + 1)); done; [ $n -le 2 ] && break; /.real/usr/bin/sleep 0.01; done; exit $rc";

/**
 * The executor's own bash argv for `line` (`bashArgv`), with its program resolved to the real bash: inside the
 * sandbox `bash` on PATH is a logging shim. A runner that stops running `bash` must be modelled here first.
 */
export function executorArgv(line: string): string[] {
  const { file, args } = bashArgv(line);
  if (file !== "bash") throw new Error(`the executor runs \`${file}\`, which the oracle does not model`);
  return ["/.real/usr/bin/bash", ...args];
}

export interface RunResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number | null;
  readonly timedOut: boolean;
  /** The shim log, raw. */
  readonly log: Buffer;
}

/** Why bwrap cannot run here, or undefined when it can. */
export function bwrapProblem(): string | undefined {
  try {
    execFileSync("bwrap", ["--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "true"], {
      stdio: "pipe",
      timeout: 10_000,
    });
    return undefined;
  } catch (e) {
    return `bwrap cannot run: ${(e as Error).message.split("\n")[0]}`;
  }
}

export class Sandbox {
  readonly layout: Layout;
  private readonly bwrapArgs: string[];

  private constructor(
    readonly dir: string,
    layout: Layout,
  ) {
    this.layout = layout;
    this.bwrapArgs = this.argv();
  }

  /** Builds shims, the real-program links, the root and the template workspace under a fresh directory. */
  static create(shimBinary: string): Sandbox {
    const dir = fs.realpathSync(fs.mkdtempSync("/var/tmp/toolgate-oracle-"));
    const shim = path.join(dir, "shim");
    fs.copyFileSync(shimBinary, shim);
    fs.chmodSync(shim, 0o755);
    for (const d of SHIM_DIRS) {
      fs.mkdirSync(path.join(dir, "shims", d), { recursive: true });
      fs.mkdirSync(path.join(dir, "real", d), { recursive: true });
      for (const name of fs.readdirSync("/" + d)) {
        const target = realProgram(path.join("/", d, name));
        if (!target) continue;
        fs.linkSync(shim, path.join(dir, "shims", d, name));
        fs.symlinkSync("/.realusr" + target.slice("/usr".length), path.join(dir, "real", d, name));
      }
    }
    for (const [name, target] of Object.entries(STAND_INS)) {
      if (fs.existsSync(path.join(dir, "shims/usr/bin", name))) continue;
      fs.linkSync(shim, path.join(dir, "shims/usr/bin", name));
      fs.symlinkSync("/.realusr" + target.slice("/usr".length), path.join(dir, "real/usr/bin", name));
    }
    const layout = buildTemplate(dir);
    return new Sandbox(dir, layout);
  }

  private argv(): string[] {
    const { root, ws, outside, home } = this.layout;
    const a = ["--bind", root, "/", "--ro-bind", "/usr", "/usr", "--ro-bind", "/usr", "/.realusr"];
    for (const d of SHIM_DIRS) a.push("--ro-bind", path.join(this.dir, "shims", d), "/" + d);
    a.push("--ro-bind", path.join(this.dir, "real"), "/.real");
    a.push("--ro-bind", "/etc", "/etc", "--bind", ws, ws, "--bind", outside, outside, "--bind", home, home);
    a.push("--proc", "/proc", "--dev", "/dev", "--unshare-all", "--die-with-parent", "--new-session");
    a.push("--cap-drop", "ALL", "--chdir", ws, "--clearenv");
    // The executor's environment, made by the executor's own function from a host environment (a change to what
    // it strips or adds reaches the oracle's runs too).
    const env = commandEnvironment({
      PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",
      HOME: home,
      USER: "root",
      LANG: "C.UTF-8",
      TERM: "dumb",
      PWD: ws,
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_logs_max: "0",
    });
    for (const [k, v] of Object.entries(env)) if (v !== undefined) a.push("--setenv", k, v);
    return a;
  }

  /** Runs one line as the executor would (`bash --noprofile --norc -c LINE`), stdin empty. */
  run(line: string, timeoutMs: number): Promise<RunResult> {
    const logFile = path.join(this.layout.root, ".oracle", "log");
    fs.writeFileSync(logFile, "");
    return new Promise((resolve, reject) => {
      const child = spawn(
        "bwrap",
        [
          ...this.bwrapArgs,
          "/.real/usr/bin/bash",
          "--noprofile",
          "--norc",
          "-c",
          WAIT_FOR_ALL,
          "oracle",
          ...executorArgv(line),
        ],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      const take = (into: Buffer[]) => (b: Buffer) => {
        size += b.length;
        if (size < 1 << 20) into.push(b);
      };
      child.stdout.on("data", take(out));
      child.stderr.on("data", take(err));
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill("SIGKILL");
      }, timeoutMs);
      child.on("close", (code) => {
        clearTimeout(timer);
        const stderr = Buffer.concat(err).toString("utf8");
        // bwrap's own failure is the oracle's failure, never a line's result.
        if (stderr.startsWith("bwrap:")) return reject(new Error(`the oracle sandbox failed: ${stderr}`));
        resolve({
          stdout: Buffer.concat(out).toString("utf8"),
          stderr,
          code,
          timedOut,
          log: fs.readFileSync(logFile),
        });
      });
    });
  }

  /** One empty run: bwrap creates its mount points in the root, which then become part of the template. */
  async warmUp(): Promise<void> {
    const r = await this.run("true", 10_000);
    if (r.code !== 0) throw new Error(`the oracle sandbox does not start: ${r.stderr}`);
    const tpl = this.layout.template.root;
    fs.rmSync(tpl, { recursive: true, force: true });
    fs.cpSync(this.layout.root, tpl, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  }

  /** Puts everything back as the template left it (slow: a full copy). */
  restore(): void {
    for (const key of ["ws", "outside", "home", "root"] as const) {
      const live = this.layout[key];
      fs.rmSync(live, { recursive: true, force: true });
      fs.cpSync(this.layout.template[key], live, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    }
    this.resetAtimes();
  }

  /**
   * Undoes the changes a line made, entry by entry (copying whole trees back costs half a second here): what
   * it created goes, what it changed or deleted comes back from the template. `paths` are host paths.
   */
  undo(paths: readonly string[]): void {
    const done: string[] = [];
    for (const p of [...paths].sort((a, b) => a.length - b.length)) {
      if (done.some((d) => p.startsWith(d + "/"))) continue;
      done.push(p);
      fs.rmSync(p, { recursive: true, force: true });
      const tpl = this.templatePath(p);
      if (tpl && fs.existsSync(tpl))
        fs.cpSync(tpl, p, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    }
    this.resetAtimes();
  }

  private templatePath(p: string): string | undefined {
    for (const key of ["ws", "outside", "home", "root"] as const) {
      const live = this.layout[key];
      if (p === live || p.startsWith(live + "/")) return this.layout.template[key] + p.slice(live.length);
    }
    return undefined;
  }

  /** Sentinel files get an access time older than their modification time: relatime then records any read. */
  resetAtimes(): void {
    for (const s of SENTINELS) {
      const p = path.join(this.layout[s.dir], s.path);
      const st = fs.statSync(p);
      fs.utimesSync(p, new Date("2001-01-01T00:00:00Z"), st.mtime);
    }
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The final file a program name leads to, when it is an executable file under /usr. */
function realProgram(p: string): string | undefined {
  try {
    const real = fs.realpathSync(p);
    const st = fs.statSync(real);
    if (!st.isFile() || (st.mode & 0o111) === 0 || !real.startsWith("/usr/")) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

/** Compiles the shim once into `dir`; returns its path. */
export function compileShim(dir: string): string {
  const out = path.join(dir, "oracle-shim");
  execFileSync("cc", ["-O2", "-static", "-o", out, path.join(path.dirname(fileURLToPath(import.meta.url)), "shim.c")], {
    stdio: "pipe",
  });
  return out;
}
