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

/** The package.json code-server extracted into the extensions folder, i.e. what a user really has. */
export function installedManifest(extensionsDir: string, id: string): Manifest | undefined {
  const folder = readdirSync(extensionsDir).find((d) => d.toLowerCase().startsWith(`${id.toLowerCase()}-`));
  if (!folder) return undefined;
  return JSON.parse(readFileSync(join(extensionsDir, folder, "package.json"), "utf8")) as Manifest;
}
