/**
 * Doctor for Cline (hook files in folders), Codex (a marked block in config.toml) and Cursor (hooks.json,
 * from its documentation only).
 */
import { readdirSync } from "node:fs";
import * as path from "node:path";
import {
  CLINE_MARKER,
  clineProjectHookDirs,
  clineUserHookDirs,
  codexHome,
  CURSOR_EVENTS,
  FACTS,
  home,
  isToolgateCommand,
} from "./agentConfigs";
import { codexBlockText, outsideCodexBlock } from "./codexToml";
import { checkCommand, finding, readText, type DoctorContext, type Finding } from "./doctorCommon";
import { agentVersionFindings } from "./doctorVersion";
import { readJsoncObject } from "./jsoncHooks";
import { isExecutableFile } from "./programs";

const CLINE_EXTENSIONS = new Set([
  "",
  ".sh",
  ".bash",
  ".zsh",
  ".js",
  ".mjs",
  ".cjs",
  ".ts",
  ".mts",
  ".cts",
  ".py",
  ".ps1",
]);

/** The files Cline 3.0.65 runs as PreToolUse hooks in one folder (name case-insensitive, script extensions). */
function clinePreToolUseFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => {
      const ext = path.extname(n).toLowerCase();
      return CLINE_EXTENSIONS.has(ext) && path.basename(n, path.extname(n)).trim().toLowerCase() === "pretooluse";
    })
    .map((n) => path.join(dir, n));
}

export function doctorCline(ctx: DoctorContext): Finding[] {
  const out: Finding[] = [];
  const files = [...clineUserHookDirs(ctx.env), ...clineProjectHookDirs(ctx.dir)].flatMap(clinePreToolUseFiles);
  const ours = files.filter((f) => readText(f)?.includes(CLINE_MARKER) === true);
  if (ours.length === 0)
    out.push(
      finding(
        "fails-open",
        "not-installed",
        "no Toolgate PreToolUse hook file in Cline's hook folders: run `toolgate hook install cline`",
      ),
    );
  for (const f of ours) {
    const line = (readText(f) ?? "").split("\n").find((l) => l.includes("/toolgate/hooks/")) ?? "";
    if (!isExecutableFile(f))
      out.push(
        finding("warn", "hook-file-mode", `${f} is not executable (Cline 3.0.65 runs it through its shebang anyway)`),
      );
    out.push(
      ...checkCommand(
        {
          command: line,
          where: f,
          timeoutSeconds: undefined,
          defaultTimeoutSeconds: FACTS.cline.defaultTimeoutSeconds,
          agentBlocksOnFailure: false,
        },
        ctx,
      ),
    );
  }
  for (const f of files.filter((x) => !ours.includes(x)))
    out.push(
      finding(
        "warn",
        "other-hook",
        `${f} also runs before every tool: it cannot undo Toolgate's cancel, but an overrideInput it returns replaces the input Toolgate judged`,
      ),
    );
  out.push(
    finding(
      "info",
      "cline-no-switch",
      "the Cline 3.0.65 CLI has no hooks setting: every hook file found runs; Cline's VS Code extension has its own hooks switch (not checked here)",
    ),
  );
  out.push(...agentVersionFindings("cline", ctx.version));
  return out;
}

function tomlNumber(block: string, key: string): number | undefined {
  const m = new RegExp(`^\\s*${key}\\s*=\\s*(\\d+)\\s*$`, "m").exec(block);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

function tomlStringValue(block: string, key: string): string | undefined {
  const m = new RegExp(`^\\s*${key}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*")\\s*$`, "m").exec(block);
  if (m?.[1] === undefined) return undefined;
  try {
    return JSON.parse(m[1]) as string;
  } catch {
    return undefined;
  }
}

/** `[features]` … `hooks = false` (or the deprecated `codex_hooks`), in the text outside our block. */
function codexHooksOff(text: string): boolean {
  let inFeatures = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/#.*$/, "").trim();
    if (/^\[.*\]$/.test(line)) inFeatures = line === "[features]";
    else if (inFeatures && /^(hooks|codex_hooks)\s*=\s*false$/.test(line)) return true;
    if (/^features\.(hooks|codex_hooks)\s*=\s*false$/.test(line)) return true;
  }
  return false;
}

/** What Codex itself reports about the Toolgate hook: loaded, enabled, trusted. */
function codexListed(ctx: DoctorContext): Finding[] {
  if (ctx.codexHooks === undefined)
    return [
      finding(
        "warn",
        "codex-trust",
        "Codex runs a non-managed hook only after it is reviewed and trusted (/hooks in the TUI), again after each change; Codex was not asked here (give --agent-bin)",
      ),
    ];
  const ours = ctx.codexHooks.filter((h) => isToolgateCommand(h.command, "/toolgate/hooks/"));
  if (ours.length === 0)
    return [
      finding(
        "fails-open",
        "codex-not-loaded",
        "Codex does not list the Toolgate hook (is the project trusted, the file loaded?): no call is checked",
      ),
    ];
  return ours.flatMap((h) => {
    if (!h.enabled)
      return [
        finding("fails-open", "codex-hook-disabled", `Codex lists the Toolgate hook in ${h.sourcePath} as disabled`),
      ];
    // Codex 0.171.0's HookTrustStatus: "managed" | "untrusted" | "trusted"; anything else is taken as not running.
    if (!h.isManaged && h.trustStatus !== "trusted" && h.trustStatus !== "managed")
      return [
        finding(
          "fails-open",
          "codex-untrusted",
          `Codex has not trusted the Toolgate hook in ${h.sourcePath} (${h.trustStatus}), so it does not run: trust it with /hooks in Codex's TUI`,
        ),
      ];
    return [];
  });
}

export function doctorCodex(ctx: DoctorContext): Finding[] {
  const out: Finding[] = [];
  const files = [
    ["user", path.join(codexHome(ctx.env), "config.toml")],
    ["project", path.join(ctx.dir, ".codex", "config.toml")],
  ] as const;
  let found = 0;
  for (const [scope, file] of files) {
    const text = readText(file);
    if (text === undefined) continue;
    let block: string | undefined;
    try {
      block = codexBlockText(text, file);
    } catch (e) {
      out.push(finding("fails-open", "block-broken", (e as Error).message));
      continue;
    }
    const outside = outsideCodexBlock(text, file);
    if (codexHooksOff(outside))
      out.push(finding("fails-open", "hooks-disabled", `${file} sets [features] hooks = false: Codex runs no hooks`));
    if (isToolgateCommand(outside, "/toolgate/hooks/codex.sh"))
      out.push(
        finding(
          "warn",
          "unmarked-hook",
          `${file} names Toolgate outside the marked block: an older hand-written entry? remove it`,
        ),
      );
    if (block === undefined) continue;
    found++;
    out.push(
      ...checkCommand(
        {
          command: tomlStringValue(block, "command") ?? "",
          where: `${scope} ${file}`,
          timeoutSeconds: tomlNumber(block, "timeout"),
          defaultTimeoutSeconds: FACTS.codex.defaultTimeoutSeconds,
          agentBlocksOnFailure: false,
        },
        ctx,
      ),
    );
    if (scope === "project")
      out.push(
        finding("warn", "project-config-trust", `Codex reads ${file} only for a trusted project; prefer --user`),
      );
  }
  if (found === 0)
    out.push(
      finding(
        "fails-open",
        "not-installed",
        "no Toolgate block in Codex's config.toml: run `toolgate hook install codex`",
      ),
    );
  else out.push(...codexListed(ctx));
  out.push(...agentVersionFindings("codex", ctx.version));
  out.push(
    finding(
      "info",
      "managed-recommended",
      "an administrator can deliver the hook through Codex's managed configuration, which needs no per-user trust",
    ),
  );
  return out;
}

export function doctorCursor(ctx: DoctorContext): Finding[] {
  const out: Finding[] = [
    finding(
      "info",
      "unverified",
      "Cursor could not be installed here: its hook format is taken from its documentation, unverified",
    ),
  ];
  const layers: [string, Record<string, unknown>][] = [];
  for (const file of [path.join(ctx.dir, ".cursor", "hooks.json"), path.join(home(ctx.env), ".cursor", "hooks.json")]) {
    const text = readText(file);
    if (text === undefined) continue;
    try {
      layers.push([file, readJsoncObject(text, file)]);
    } catch (e) {
      out.push(finding("fails-open", "settings-unreadable", (e as Error).message));
    }
  }
  for (const event of CURSOR_EVENTS) {
    const hits = layers.flatMap(([file, v]) => {
      const list = (v.hooks as Record<string, unknown> | undefined)?.[event];
      return Array.isArray(list)
        ? list.flatMap((h) => {
            const command = (h as { command?: unknown } | null)?.command;
            return isToolgateCommand(command, "/toolgate/hooks/") && typeof command === "string"
              ? [{ file, command }]
              : [];
          })
        : [];
    });
    if (hits.length === 0)
      out.push(
        finding(
          "fails-open",
          "not-installed",
          `no Toolgate ${event} hook in Cursor's hooks.json: those calls go unchecked`,
        ),
      );
    for (const h of hits)
      out.push(
        ...checkCommand(
          {
            command: h.command,
            where: `${event} in ${h.file}`,
            timeoutSeconds: undefined,
            defaultTimeoutSeconds: undefined,
            agentBlocksOnFailure: false,
          },
          ctx,
        ).filter((f) => f.code !== "timeout-unknown"),
      );
  }
  return out;
}
