/**
 * Building the VSIX exactly as a release does (`npm run package`) and reading back the manifest that
 * code-server actually installed.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type PackageResult =
  | { readonly status: "built"; readonly vsix: string; readonly seconds: number }
  /** The extension cannot be packaged: every scenario that needs it fails. */
  | { readonly status: "failed"; readonly reason: string };

function lastLines(text: string, n: number): string {
  return text.trimEnd().split("\n").slice(-n).join("\n");
}

export async function packageVsix(repoRoot: string, logFile: string): Promise<PackageResult> {
  const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { name: string; version: string };
  const vsix = join(repoRoot, `${pkg.name}-${pkg.version}.vsix`);
  const t = Date.now();
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["run", "package"], {
      cwd: repoRoot,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("close", (c) => {
      clearTimeout(timer);
      resolve({ code: c, output: out });
    });
  });
  writeFileSync(logFile, output);
  if (code !== 0) {
    return {
      status: "failed",
      reason: `npm run package exited ${code}:\n${lastLines(output, 8)}\n(full log: ${logFile})`,
    };
  }
  if (!existsSync(vsix))
    return { status: "failed", reason: `npm run package succeeded but ${vsix} is missing (log: ${logFile})` };
  return { status: "built", vsix, seconds: (Date.now() - t) / 1000 };
}

export interface Manifest {
  readonly name: string;
  readonly publisher: string;
  readonly version: string;
  readonly main?: string;
  readonly contributes?: {
    readonly configuration?: { readonly properties?: Record<string, { default?: unknown; type?: string | string[] }> };
    readonly viewsContainers?: { readonly activitybar?: ReadonlyArray<{ id: string; title: string }> };
    readonly views?: Record<string, ReadonlyArray<{ id: string; name: string; type?: string }>>;
    readonly commands?: ReadonlyArray<{ command: string; title: string; category?: string }>;
  };
}

/**
 * The package.json code-server extracted into the extensions folder, i.e. what a user really has, with its
 * `%key%` strings replaced from the package.nls.json next to it, as VS Code shows them. A key without a text
 * throws: VS Code would show the raw `%key%`.
 */
export function installedManifest(extensionsDir: string, id: string): Manifest | undefined {
  const folder = readdirSync(extensionsDir).find((d) => d.toLowerCase().startsWith(`${id.toLowerCase()}-`));
  if (!folder) return undefined;
  const raw = JSON.parse(readFileSync(join(extensionsDir, folder, "package.json"), "utf8")) as unknown;
  const nlsFile = join(extensionsDir, folder, "package.nls.json");
  const nls = existsSync(nlsFile) ? (JSON.parse(readFileSync(nlsFile, "utf8")) as Record<string, string>) : {};
  return localized(raw, nls) as Manifest;
}

function localized(value: unknown, nls: Record<string, string>): unknown {
  if (typeof value === "string") {
    const key = /^%(.+)%$/.exec(value)?.[1];
    if (key === undefined) return value;
    const text = nls[key];
    if (text === undefined)
      throw new Error(`the installed manifest uses %${key}% but package.nls.json has no text for it`);
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => localized(v, nls));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, localized(v, nls)]));
  return value;
}
