import * as esbuild from "esbuild";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";

/** Bundles src/cli.ts the way `npm run build` does, so CLI tests run the real entry point. */
export async function buildCli(): Promise<string> {
  const outfile = path.join(mkdtempSync(path.join(tmpdir(), "toolgate-cli-")), "cli.js");
  await esbuild.build({
    entryPoints: ["src/cli.ts"],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    logLevel: "error",
    alias: { "web-tree-sitter": "./node_modules/web-tree-sitter/tree-sitter.cjs" },
  });
  // The grammar ships next to the bundle, as in dist/.
  copyFileSync("node_modules/web-tree-sitter/tree-sitter.wasm", path.join(path.dirname(outfile), "tree-sitter.wasm"));
  copyFileSync(
    "node_modules/tree-sitter-bash/tree-sitter-bash.wasm",
    path.join(path.dirname(outfile), "tree-sitter-bash.wasm"),
  );
  return outfile;
}

export interface CliRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly lines: Record<string, unknown>[];
}

export function runCli(cli: string, args: readonly string[], input: readonly unknown[] | string, cwd?: string): CliRun {
  const stdin = typeof input === "string" ? input : input.map((l) => JSON.stringify(l)).join("\n") + "\n";
  const r = spawnSync(process.execPath, [cli, ...args], {
    input: stdin,
    encoding: "utf8",
    cwd,
    env: { ...process.env, TOOLGATE_DIST: path.resolve("dist") },
  });
  const lines =
    args[0] === "check" && r.status === 0
      ? r.stdout
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as Record<string, unknown>)
      : [];
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines };
}
