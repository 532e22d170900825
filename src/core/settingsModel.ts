import { CHECKPOINT_SETTING_KEYS } from "./checkpointSettings";
import { HOOK_SETTING_KEYS } from "./hookSettings";
import type { Mode } from "./types";
import { SANDBOX_SETTING_KEYS } from "./sandbox/sandboxSettings";

/**
 * The one typed model of Toolgate's settings, parsed from the flat `toolgate.*` keys of settings.json.
 * Parsing is strict: a value of the wrong shape is an error the caller must surface, never a silent
 * default, because a default can be more permissive than what the person meant.
 */

export const ACTION_KEYS = [
  "readFiles",
  "readFilesExternally",
  "editFiles",
  "editFilesExternally",
  "executeSafeCommands",
  "executeInSandbox",
  "executeAllCommands",
  "useMcp",
  "webFetch",
] as const;
/** `toolgate.untrustedContent` (core/taint.ts): `ask` (the default and the reading of anything malformed) or `off`. */
export type UntrustedContentSetting = "ask" | "off";

export type ActionKey = (typeof ACTION_KEYS)[number];
export type AutoApproveActions = Readonly<Record<ActionKey, boolean>>;

export interface McpServerConfig {
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly alwaysAllow: readonly string[];
  readonly disabled: boolean;
  readonly disabledTools: readonly string[];
  /**
   * Its tool results and resources are not untrusted content (they do not taint a task). Honoured from user
   * and managed settings only: a workspace cannot set `toolgate.mcpServers`, and `--mcp` files lose it.
   * Absent: false.
   */
  readonly trusted?: boolean;
}

export type McpServers = Readonly<Record<string, McpServerConfig>>;

export interface ToolgateSettings {
  readonly mode: Mode;
  readonly autoApprove: {
    readonly enabled: boolean;
    readonly all: boolean;
    readonly actions: AutoApproveActions;
    readonly maxRequests: number;
    readonly maxCost: number;
  };
  readonly commands: { readonly allow: readonly string[]; readonly deny: readonly string[] };
  readonly permissions: {
    readonly allow: readonly string[];
    readonly ask: readonly string[];
    readonly deny: readonly string[];
  };
  readonly ignoreFile: string;
  readonly mcpServers: McpServers;
  /** `ask`: once a task read untrusted content, every way out asks (DESIGN step 3); `off`: no such ask. */
  readonly untrustedContent: UntrustedContentSetting;
}

export const DEFAULT_ACTIONS: AutoApproveActions = {
  readFiles: true,
  readFilesExternally: false,
  editFiles: false,
  editFilesExternally: false,
  executeSafeCommands: true,
  executeInSandbox: false,
  executeAllCommands: false,
  useMcp: false,
  webFetch: false,
};

export const DEFAULT_SETTINGS: ToolgateSettings = {
  mode: "normal",
  autoApprove: { enabled: true, all: false, actions: DEFAULT_ACTIONS, maxRequests: 0, maxCost: 0 },
  commands: { allow: [], deny: [] },
  permissions: { allow: [], ask: [], deny: [] },
  ignoreFile: ".toolgateignore",
  mcpServers: {},
  untrustedContent: "ask",
};

/** Every flat key Toolgate reads. Keys that can only tighten may also come from a workspace. */
export const SETTING_KEYS = {
  mode: "toolgate.mode",
  enabled: "toolgate.autoApprove.enabled",
  all: "toolgate.autoApprove.all",
  actions: "toolgate.autoApprove.actions",
  maxRequests: "toolgate.autoApprove.maxRequests",
  maxCost: "toolgate.autoApprove.maxCost",
  commandsAllow: "toolgate.commands.allow",
  commandsDeny: "toolgate.commands.deny",
  permissionsAllow: "toolgate.permissions.allow",
  permissionsAsk: "toolgate.permissions.ask",
  permissionsDeny: "toolgate.permissions.deny",
  ignoreFile: "toolgate.ignoreFile",
  mcpServers: "toolgate.mcpServers",
  untrustedContent: "toolgate.untrustedContent",
} as const;

/** Settings of the agent (which model to talk to), not of the gate: known, so a settings file holding them is not an error. */
export const AGENT_SETTING_KEYS = {
  provider: "toolgate.provider",
  openAiBaseUrl: "toolgate.openai.baseUrl",
  openAiModel: "toolgate.openai.model",
  anthropicBaseUrl: "toolgate.anthropic.baseUrl",
  anthropicModel: "toolgate.anthropic.model",
} as const;

/**
 * Settings read by other parts (the OS sandbox, checkpoints, the host's ask notifications): known here so a file holding them is not an error, and so a
 * managed policy can fix them like any other key. Their values are checked by the part that reads them.
 */
export const OTHER_SETTING_KEYS = {
  ...SANDBOX_SETTING_KEYS,
  ...CHECKPOINT_SETTING_KEYS,
  ...HOOK_SETTING_KEYS,
  notifyOnAsk: "toolgate.notifyOnAsk",
} as const;

/** Every `toolgate.*` key a settings file may hold. */
export const KNOWN_SETTING_KEYS: ReadonlySet<string> = new Set<string>([
  ...Object.values(SETTING_KEYS),
  ...Object.values(AGENT_SETTING_KEYS),
  ...Object.values(OTHER_SETTING_KEYS),
]);

/** The lists that can only make the gate stricter: every layer's entries add up, and a workspace may set them. */
export const TIGHTEN_ONLY_KEYS: readonly string[] = [
  SETTING_KEYS.commandsDeny,
  SETTING_KEYS.permissionsAsk,
  SETTING_KEYS.permissionsDeny,
];

export type ParseResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly errors: readonly string[] };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

class Reader {
  readonly errors: string[] = [];
  constructor(private readonly source: string) {}

  fail(key: string, expected: string, got: unknown): void {
    this.errors.push(`${this.source}: \`${key}\` must be ${expected}, got ${JSON.stringify(got)}`);
  }

  bool(key: string, v: unknown, fallback: boolean): boolean {
    if (v === undefined) return fallback;
    if (typeof v === "boolean") return v;
    this.fail(key, "true or false", v);
    return fallback;
  }

  limit(key: string, v: unknown): number {
    if (v === undefined) return 0;
    if (typeof v === "number" && Number.isFinite(v) && v >= 0) return v;
    this.fail(key, "a number ≥ 0 (0 = no limit)", v);
    return 0;
  }

  strings(key: string, v: unknown): readonly string[] {
    if (v === undefined) return [];
    if (Array.isArray(v) && v.every((s) => typeof s === "string")) return v as string[];
    this.fail(key, "a list of strings", v);
    return [];
  }
}

function parseActions(r: Reader, v: unknown): AutoApproveActions {
  if (v === undefined) return DEFAULT_ACTIONS;
  if (!isRecord(v)) {
    r.fail(SETTING_KEYS.actions, "an object of switches", v);
    return DEFAULT_ACTIONS;
  }
  const out: Record<string, boolean> = { ...DEFAULT_ACTIONS };
  for (const [k, val] of Object.entries(v)) {
    if (!(ACTION_KEYS as readonly string[]).includes(k)) {
      r.errors.push(`unknown auto-approve action \`${k}\` (known: ${ACTION_KEYS.join(", ")})`);
      continue;
    }
    out[k] = r.bool(`${SETTING_KEYS.actions}.${k}`, val, DEFAULT_ACTIONS[k as ActionKey]);
  }
  return out as AutoApproveActions;
}

export function parseMcpServers(r: Reader, key: string, v: unknown): McpServers {
  if (v === undefined) return {};
  if (!isRecord(v)) {
    r.fail(key, "an object of servers", v);
    return {};
  }
  const out: Record<string, McpServerConfig> = {};
  for (const [name, raw] of Object.entries(v)) {
    const at = `${key}.${name}`;
    if (!isRecord(raw)) {
      r.fail(at, "an object", raw);
      continue;
    }
    const str = (k: string): string | undefined => {
      const s = raw[k];
      if (s === undefined) return undefined;
      if (typeof s === "string") return s;
      r.fail(`${at}.${k}`, "a string", s);
      return undefined;
    };
    let env: Record<string, string> | undefined;
    if (raw.env !== undefined) {
      if (isRecord(raw.env) && Object.values(raw.env).every((x) => typeof x === "string"))
        env = raw.env as Record<string, string>;
      else r.fail(`${at}.env`, "an object of strings", raw.env);
    }
    const command = str("command");
    const url = str("url");
    if (command === undefined && url === undefined) r.errors.push(`${at}: a server needs \`command\` or \`url\``);
    out[name] = {
      ...(command !== undefined ? { command } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(raw.args !== undefined ? { args: r.strings(`${at}.args`, raw.args) } : {}),
      ...(env ? { env } : {}),
      alwaysAllow: r.strings(`${at}.alwaysAllow`, raw.alwaysAllow),
      disabled: r.bool(`${at}.disabled`, raw.disabled, false),
      disabledTools: r.strings(`${at}.disabledTools`, raw.disabledTools),
      ...(r.bool(`${at}.trusted`, raw.trusted, false) ? { trusted: true } : {}),
    };
  }
  return out;
}

/**
 * Parses the flat `toolgate.*` keys of one settings object. Keys outside `toolgate.` are ignored (a real
 * settings.json holds many); an unknown `toolgate.*` key is an error, so a typo never goes unnoticed.
 */
export function parseSettings(flat: unknown, source = "settings"): ParseResult<ToolgateSettings> {
  if (!isRecord(flat)) return { ok: false, errors: [`${source}: expected a JSON object of settings`] };
  const r = new Reader(source);
  for (const k of Object.keys(flat)) {
    if (k.startsWith("toolgate.") && !KNOWN_SETTING_KEYS.has(k)) r.errors.push(`${source}: unknown setting \`${k}\``);
  }
  const modeRaw = flat[SETTING_KEYS.mode];
  let mode: Mode = "normal";
  if (modeRaw !== undefined) {
    if (modeRaw === "normal" || modeRaw === "plan" || modeRaw === "auto") mode = modeRaw;
    else r.fail(SETTING_KEYS.mode, '"normal", "plan" or "auto"', modeRaw);
  }
  const ignoreRaw = flat[SETTING_KEYS.ignoreFile];
  let ignoreFile = DEFAULT_SETTINGS.ignoreFile;
  if (ignoreRaw !== undefined) {
    if (typeof ignoreRaw === "string" && ignoreRaw.trim() !== "" && !ignoreRaw.includes("\0"))
      ignoreFile = ignoreRaw.trim();
    else r.fail(SETTING_KEYS.ignoreFile, "a file name", ignoreRaw);
  }
  const untrustedRaw = flat[SETTING_KEYS.untrustedContent];
  let untrustedContent: UntrustedContentSetting = "ask";
  if (untrustedRaw !== undefined) {
    if (untrustedRaw === "ask" || untrustedRaw === "off") untrustedContent = untrustedRaw;
    else r.fail(SETTING_KEYS.untrustedContent, '"ask" or "off"', untrustedRaw);
  }
  const settings: ToolgateSettings = {
    mode,
    autoApprove: {
      enabled: r.bool(SETTING_KEYS.enabled, flat[SETTING_KEYS.enabled], true),
      all: r.bool(SETTING_KEYS.all, flat[SETTING_KEYS.all], false),
      actions: parseActions(r, flat[SETTING_KEYS.actions]),
      maxRequests: r.limit(SETTING_KEYS.maxRequests, flat[SETTING_KEYS.maxRequests]),
      maxCost: r.limit(SETTING_KEYS.maxCost, flat[SETTING_KEYS.maxCost]),
    },
    commands: {
      allow: r.strings(SETTING_KEYS.commandsAllow, flat[SETTING_KEYS.commandsAllow]),
      deny: r.strings(SETTING_KEYS.commandsDeny, flat[SETTING_KEYS.commandsDeny]),
    },
    permissions: {
      allow: r.strings(SETTING_KEYS.permissionsAllow, flat[SETTING_KEYS.permissionsAllow]),
      ask: r.strings(SETTING_KEYS.permissionsAsk, flat[SETTING_KEYS.permissionsAsk]),
      deny: r.strings(SETTING_KEYS.permissionsDeny, flat[SETTING_KEYS.permissionsDeny]),
    },
    ignoreFile,
    mcpServers: parseMcpServers(r, SETTING_KEYS.mcpServers, flat[SETTING_KEYS.mcpServers]),
    untrustedContent,
  };
  return r.errors.length > 0 ? { ok: false, errors: r.errors } : { ok: true, value: settings };
}

/** Parses an `{"mcpServers": {...}}` file (the MCP convention). */
export function parseMcpFile(json: unknown, source = "mcp config"): ParseResult<McpServers> {
  if (!isRecord(json) || !isRecord(json.mcpServers))
    return { ok: false, errors: [`${source}: expected {"mcpServers": {...}}`] };
  const r = new Reader(source);
  const servers = parseMcpServers(r, "mcpServers", json.mcpServers);
  return r.errors.length > 0 ? { ok: false, errors: r.errors } : { ok: true, value: servers };
}
