/**
 * Doctor for the agents whose hooks live in JSON settings layers: Claude Code and Gemini CLI. Reads every
 * layer the agent reads (managed/system, user, project) and reports whatever would switch Toolgate's hook off
 * or let a call through.
 */
import * as path from "node:path";
import { CLAUDE_ON_FAILURE_SINCE, claudeUserDir, FACTS, home, isToolgateCommand } from "./agentConfigs";
import { compareVersions } from "./agentVersion";
import { checkCommand, envTruthy, finding, readText, type DoctorContext, type Finding } from "./doctorCommon";
import { agentVersionFindings } from "./doctorVersion";
import { readJsoncObject } from "./jsoncHooks";

interface Layer {
  readonly name: string;
  readonly file: string;
  readonly value: Record<string, unknown>;
}

interface Entry {
  readonly layer: Layer;
  readonly matcher: unknown;
  readonly hook: Record<string, unknown>;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function readLayers(files: readonly (readonly [string, string])[], out: Finding[]): Layer[] {
  const layers: Layer[] = [];
  for (const [name, file] of files) {
    const text = readText(file);
    if (text === undefined) continue;
    try {
      layers.push({ name, file, value: readJsoncObject(text, file) });
    } catch (e) {
      out.push(
        finding(
          "fails-open",
          "settings-unreadable",
          `${(e as Error).message}: the agent may skip this file and any hook in it`,
        ),
      );
    }
  }
  return layers;
}

function toolgateEntries(layers: readonly Layer[], event: string): Entry[] {
  const entries: Entry[] = [];
  for (const layer of layers) {
    const groups = obj(layer.value.hooks)?.[event];
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const hooks = obj(g)?.hooks;
      if (!Array.isArray(hooks)) continue;
      for (const h of hooks) {
        const hook = obj(h);
        if (hook !== undefined && isToolgateCommand(hook.command, "/toolgate/hooks/"))
          entries.push({ layer, matcher: obj(g)?.matcher, hook });
      }
    }
  }
  return entries;
}

const catchAll = (m: unknown): boolean => m === undefined || m === "" || m === "*" || m === ".*";

function commonEntryFindings(
  agent: "claude-code" | "gemini-cli",
  entries: readonly Entry[],
  ctx: DoctorContext,
  toSeconds: (t: unknown) => number | undefined,
  blocks: (e: Entry) => boolean,
): Finding[] {
  const out: Finding[] = [];
  for (const e of entries) {
    const where = `${e.layer.name} ${e.layer.file}`;
    if (!catchAll(e.matcher))
      out.push(
        finding(
          "fails-open",
          "matcher-narrow",
          `the Toolgate hook in ${where} runs only for tools matching ${JSON.stringify(e.matcher)}: every other tool goes unchecked`,
        ),
      );
    out.push(
      ...checkCommand(
        {
          command: typeof e.hook.command === "string" ? e.hook.command : "",
          where,
          timeoutSeconds: toSeconds(e.hook.timeout),
          defaultTimeoutSeconds: FACTS[agent].defaultTimeoutSeconds,
          agentBlocksOnFailure: blocks(e),
        },
        ctx,
      ),
    );
  }
  return out;
}

export function doctorClaudeCode(ctx: DoctorContext): Finding[] {
  const out: Finding[] = [];
  const managed = ctx.managedFile ?? "/etc/claude-code/managed-settings.json";
  const layers = readLayers(
    [
      ["managed", managed],
      ["user", path.join(claudeUserDir(ctx.env), "settings.json")],
      ["project", path.join(ctx.dir, ".claude", "settings.json")],
      ["project-local", path.join(ctx.dir, ".claude", "settings.local.json")],
    ],
    out,
  );
  const entries = toolgateEntries(layers, "PreToolUse");
  const inManaged = entries.some((e) => e.layer.name === "managed");
  if (entries.length === 0)
    out.push(
      finding(
        "fails-open",
        "not-installed",
        "no Toolgate PreToolUse hook in any Claude Code settings file: run `toolgate hook install claude-code`",
      ),
    );
  const hasOnFailure = ctx.version === undefined || compareVersions(ctx.version, CLAUDE_ON_FAILURE_SINCE) >= 0;
  out.push(
    ...commonEntryFindings(
      "claude-code",
      entries,
      ctx,
      (t) => (typeof t === "number" ? t : undefined),
      (e) => hasOnFailure && e.hook.onFailure === "block",
    ),
  );
  for (const e of entries)
    if (hasOnFailure && e.hook.onFailure !== "block")
      out.push(
        finding(
          "warn",
          "on-failure-missing",
          `the Toolgate hook in ${e.layer.file} has no onFailure: "block": if the wrapper itself cannot answer, Claude Code lets the call through`,
        ),
      );
  if (!hasOnFailure)
    out.push(
      finding(
        "warn",
        "on-failure-unsupported",
        `Claude Code ${ctx.version ?? ""} predates onFailure (${CLAUDE_ON_FAILURE_SINCE}): only the wrapper stands between a failure and the call; upgrade`,
      ),
    );
  for (const l of layers)
    if (l.value.disableAllHooks === true) {
      const spared = l.name !== "managed" && inManaged;
      out.push(
        spared
          ? finding("info", "hooks-disabled", `${l.file} sets disableAllHooks; the managed Toolgate hook still runs`)
          : finding(
              "fails-open",
              "hooks-disabled",
              `${l.file} sets disableAllHooks: true, which turns Toolgate's hook off`,
            ),
      );
    }
  const managedLayer = layers.find((l) => l.name === "managed");
  if (managedLayer?.value.allowManagedHooksOnly === true && !inManaged && entries.length > 0)
    out.push(
      finding(
        "fails-open",
        "managed-only",
        `${managedLayer.file} sets allowManagedHooksOnly, so the Toolgate hook in user or project settings never runs`,
      ),
    );
  if (envTruthy(ctx.env.CLAUDE_CODE_SIMPLE))
    out.push(
      finding(
        "fails-open",
        "bare-mode",
        "CLAUDE_CODE_SIMPLE is set (bare mode, as --bare): Claude Code runs no settings hooks, Toolgate's included",
      ),
    );
  out.push(...agentVersionFindings("claude-code", ctx.version));
  if (!inManaged)
    out.push(
      finding(
        "info",
        "managed-recommended",
        `for a hook no project or user setting can switch off, an administrator puts the same entry in ${managed} (Claude Code's managed settings), with "allowManagedHooksOnly": true`,
      ),
    );
  return out;
}

function geminiEnabled(layers: readonly Layer[]): { enabled: boolean; layer?: Layer } {
  // Gemini CLI's precedence for a plain setting: system over project over user.
  for (const name of ["system", "project", "user"]) {
    const l = layers.find((x) => x.name === name);
    const v = obj(l?.value.hooksConfig)?.enabled;
    if (typeof v === "boolean" && l !== undefined) return { enabled: v, layer: l };
  }
  return { enabled: true };
}

export function doctorGemini(ctx: DoctorContext): Finding[] {
  const out: Finding[] = [];
  const system = ctx.managedFile ?? ctx.env.GEMINI_CLI_SYSTEM_SETTINGS_PATH ?? "/etc/gemini-cli/settings.json";
  const layers = readLayers(
    [
      ["system", system],
      ["user", path.join(home(ctx.env), ".gemini", "settings.json")],
      ["project", path.join(ctx.dir, ".gemini", "settings.json")],
    ],
    out,
  );
  const entries = toolgateEntries(layers, "BeforeTool");
  if (entries.length === 0)
    out.push(
      finding(
        "fails-open",
        "not-installed",
        "no Toolgate BeforeTool hook in any Gemini CLI settings file: run `toolgate hook install gemini-cli`",
      ),
    );
  out.push(
    ...commonEntryFindings(
      "gemini-cli",
      entries,
      ctx,
      (t) => (typeof t === "number" ? t / 1000 : undefined),
      () => false,
    ),
  );
  const enabled = geminiEnabled(layers);
  if (!enabled.enabled)
    out.push(
      finding(
        "fails-open",
        "hooks-disabled",
        `${enabled.layer?.file ?? "a settings file"} sets hooksConfig.enabled: false: Gemini CLI runs no hooks`,
      ),
    );
  for (const l of layers) {
    const disabled = obj(l.value.hooksConfig)?.disabled;
    if (!Array.isArray(disabled)) continue;
    const hit = disabled.find(
      (d) => d === "toolgate" || entries.some((e) => e.hook.command === d || e.hook.name === d),
    );
    if (hit !== undefined)
      out.push(
        finding(
          "fails-open",
          "hook-disabled",
          `${l.file} lists ${JSON.stringify(hit)} in hooksConfig.disabled: Toolgate's hook does not run`,
        ),
      );
  }
  if (entries.length > 0 && entries.every((e) => e.layer.name === "project"))
    out.push(
      finding(
        "warn",
        "project-hook-trust",
        "the Toolgate hook is only in the project's settings: Gemini CLI runs project hooks only in a trusted folder and warns when they change; prefer --user",
      ),
    );
  out.push(...agentVersionFindings("gemini-cli", ctx.version));
  if (!entries.some((e) => e.layer.name === "system"))
    out.push(
      finding(
        "info",
        "managed-recommended",
        `for a hook a project cannot switch off, an administrator adds the entry to ${system} (Gemini CLI's system settings, which override the others)`,
      ),
    );
  return out;
}
