/**
 * code-server (VS Code 1.139 in the browser) from the cached toolchain: installing a VSIX the way a user
 * does, and starting one server per scenario on loopback with its own user-data and XDG folders, so nothing
 * leaks into $HOME or from one scenario into the next.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { startGroup } from "./processes";

/** The cached toolchain, as scripts/e2e/setup.mjs returns it. */
export interface Toolchain {
  readonly dir: string;
  readonly node: string;
  readonly codeServerEntry: string;
}

/**
 * code-server's extension gallery is open-vsx.org; this machine must not reach out, so the gallery points
 * at a closed loopback port (searches fail at once with ECONNREFUSED instead of a DNS lookup outside).
 */
const NO_GALLERY = JSON.stringify({ serviceUrl: "http://127.0.0.1:9/gallery", itemUrl: "http://127.0.0.1:9/item" });

/** XDG folders and TMPDIR (the extension host's IPC sockets land there) inside `home`, removed with the run. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const tmp = join(home, "tmp");
  mkdirSync(tmp, { recursive: true });
  return {
    ...process.env,
    TMPDIR: tmp,
    EXTENSIONS_GALLERY: NO_GALLERY,
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    XDG_CACHE_HOME: join(home, "cache"),
  };
}

function runCli(tc: Toolchain, args: readonly string[], scratch: string, logFile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tc.node, [tc.codeServerEntry, ...args], {
      env: isolatedEnv(scratch),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      createWriteStream(logFile, { flags: "a" }).end(`$ code-server ${args.join(" ")}\n${out}\n`);
      if (code === 0) resolve(out);
      else reject(new Error(`code-server ${args.join(" ")} exited ${code}:\n${out}`));
    });
  });
}

/** `code-server --install-extension <vsix>`, then checks the extension is listed with its version. */
export async function installVsix(
  tc: Toolchain,
  vsix: string,
  extensionsDir: string,
  scratch: string,
  logFile: string,
): Promise<string> {
  mkdirSync(extensionsDir, { recursive: true });
  const common = ["--extensions-dir", extensionsDir, "--user-data-dir", join(scratch, "install-user-data")];
  const out = await runCli(tc, ["--install-extension", vsix, ...common], scratch, logFile);
  if (!/successfully installed/i.test(out)) throw new Error(`--install-extension did not report success:\n${out}`);
  return runCli(tc, ["--list-extensions", "--show-versions", ...common], scratch, logFile);
}

export interface CodeServer {
  readonly url: string;
  readonly logFile: string;
  /** Workbench URL opening `folder`. */
  folderUrl(folder: string): string;
  stop(): Promise<void>;
}

export interface CodeServerOptions {
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** Session folder for config.yaml, XDG folders and the log. */
  readonly home: string;
  readonly folder: string;
  readonly env?: NodeJS.ProcessEnv;
}

export async function startCodeServer(tc: Toolchain, o: CodeServerOptions): Promise<CodeServer> {
  mkdirSync(o.home, { recursive: true });
  const logFile = join(o.home, "code-server.log");
  const log = createWriteStream(logFile);
  const args = [
    tc.codeServerEntry,
    "--auth",
    "none",
    "--bind-addr",
    "127.0.0.1:0", // code-server picks a free port and logs it: no race with other runs
    "--disable-telemetry",
    "--disable-update-check",
    "--config",
    join(o.home, "config.yaml"),
    "--user-data-dir",
    o.userDataDir,
    "--extensions-dir",
    o.extensionsDir,
    o.folder,
  ];
  const proc = startGroup(tc.node, args, {
    env: { ...isolatedEnv(o.home), ...o.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.child.stdout?.pipe(log, { end: false });
  proc.child.stderr?.pipe(log, { end: false });

  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`code-server did not listen within 30 s; log ${logFile}:\n${seen}`)),
      30_000,
    );
    const onData = (d: Buffer): void => {
      seen += d.toString();
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.child.stdout?.on("data", onData);
    proc.child.stderr?.on("data", onData);
    void proc.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited (${code}) before listening; log ${logFile}:\n${seen}`));
    });
  }).catch(async (e: unknown) => {
    await proc.stop();
    throw e;
  });

  return {
    url,
    logFile,
    folderUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder)}`,
    stop: async () => {
      await proc.stop();
      log.end();
    },
  };
}

/** The remote extension host's log of the newest window: activation lines and errors of every extension. */
export function extensionHostLog(userDataDir: string): string {
  const logs = join(userDataDir, "logs");
  let text = "";
  for (const session of safeList(logs).sort()) {
    for (const exthost of safeList(join(logs, session)).filter((d) => d.startsWith("exthost"))) {
      try {
        text += readFileSync(join(logs, session, exthost, "remoteexthost.log"), "utf8");
      } catch {
        // not written yet
      }
    }
  }
  return text;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
