/**
 * Bundle sizes, from esbuild's metafiles: builds the production bundles (minified, as the VSIX ships them)
 * into a temp folder with `node esbuild.mjs --production --metafile`, then prints each bundle's size and
 * its largest npm packages and own folders. Also says whether a schema library reached the webview bundle
 * (it must not: the webview imports the protocol's types only). Figures, not pass/fail.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

interface Metafile {
  readonly outputs: Record<
    string,
    { readonly bytes: number; readonly inputs: Record<string, { readonly bytesInOutput: number }> }
  >;
}

const BUNDLES = [
  "extension",
  "runtime",
  "htmlToText",
  "cli",
  "cli-hook",
  "cli-analyzer",
  "cli-sandbox",
  "cli-check",
  "cli-run",
  "cli-checkpoints",
  "webview",
] as const;
const TOP = 6;

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

/** `node_modules/@scope/pkg/…` → `@scope/pkg`; own files → their folder (`src/host`, `webview-ui/src/chat`). */
function owner(input: string): string {
  const at = input.lastIndexOf("node_modules/");
  if (at >= 0) {
    const parts = input.slice(at + "node_modules/".length).split("/");
    return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return input.split("/").slice(0, -1).join("/") || input;
}

function main(): void {
  const out = mkdtempSync(join(tmpdir(), "toolgate-size-"));
  try {
    const r = spawnSync(process.execPath, ["esbuild.mjs", "--production", "--metafile", `--outdir=${out}`], {
      encoding: "utf8",
    });
    if (r.status !== 0) throw new Error(`esbuild.mjs failed:\n${r.stderr}`);
    console.log("production bundles (minified):");
    for (const name of BUNDLES) {
      const file = join(out, `meta-${name}.json`);
      if (!existsSync(file)) continue;
      const meta = JSON.parse(readFileSync(file, "utf8")) as Metafile;
      for (const [path, o] of Object.entries(meta.outputs)) {
        if (path.endsWith(".map")) continue;
        const byOwner = new Map<string, number>();
        for (const [input, i] of Object.entries(o.inputs)) {
          byOwner.set(owner(input), (byOwner.get(owner(input)) ?? 0) + i.bytesInOutput);
        }
        const top = [...byOwner.entries()].sort((a, b) => b[1] - a[1]).slice(0, TOP);
        const shown = top.map(([k, v]) => `${k} ${((100 * v) / o.bytes).toFixed(0)}%`).join(", ");
        console.log(`  ${basename(path).padEnd(15)} ${kib(o.bytes).padStart(11)}   ${shown}`);
        if (name === "webview" && path.endsWith(".js")) {
          const schema = Object.keys(o.inputs).filter((i) => /node_modules\/zod\/|protocolSchema/.test(i));
          console.log(`  schema code in the webview bundle: ${schema.length === 0 ? "none" : schema.join(", ")}`);
        }
      }
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main();
