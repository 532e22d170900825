import type { IgnoreRules } from "./ignoreFile";
import type { ResolvedPath, WorkspacePaths } from "./paths";
import { isToolName, type ToolCall, type ToolName } from "./types";

/**
 * The first gate: is the call well-formed, and are its paths legal? Returns a result and never throws, whatever
 * shape the params have. Blank or whitespace-only counts as missing, except `write_to_file.content`, where an
 * empty file is a legitimate thing to write.
 */

interface ParamSpec {
  readonly required: readonly string[];
  readonly optional?: readonly string[];
  /** Required params that may be "" (but must still be present and a string). */
  readonly mayBeEmpty?: readonly string[];
  readonly pathParam?: string;
}

export const TOOL_PARAMS: Readonly<Record<ToolName, ParamSpec>> = {
  read_file: { required: ["path"], pathParam: "path" },
  write_to_file: { required: ["path", "content"], mayBeEmpty: ["content"], pathParam: "path" },
  replace_in_file: { required: ["path", "diff"], pathParam: "path" },
  list_files: { required: ["path"], optional: ["recursive"], pathParam: "path" },
  search_files: { required: ["path", "regex"], optional: ["file_pattern"], pathParam: "path" },
  execute_command: { required: ["command"], optional: ["requires_approval", "sandbox", "reason"] },
  use_mcp_tool: { required: ["server_name", "tool_name"], optional: ["arguments"] },
  access_mcp_resource: { required: ["server_name", "uri"] },
  web_fetch: { required: ["url"] },
  ask_followup_question: { required: ["question"], optional: ["options"] },
  attempt_completion: { required: ["result"], optional: ["command"] },
  new_task: { required: ["context"] },
};

export type ValidationResult =
  | { readonly ok: true; readonly tool: ToolName; readonly path?: ResolvedPath }
  | { readonly ok: false; readonly reason: string; readonly rule: string };

const BOOLEAN_PARAMS = new Set(["recursive", "requires_approval", "sandbox"]);

/** Reads a boolean-ish param the way models send them: true/false or "true"/"false". */
export function boolParam(v: unknown): boolean | undefined {
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  return undefined;
}

export class ToolValidator {
  constructor(
    private readonly paths: WorkspacePaths,
    readonly ignore: IgnoreRules,
  ) {}

  validate(call: ToolCall): ValidationResult {
    try {
      return this.check(call);
    } catch (e) {
      return { ok: false, reason: `the call could not be validated: ${(e as Error).message}`, rule: "validator:error" };
    }
  }

  private check(call: ToolCall): ValidationResult {
    if (typeof call?.tool !== "string" || !isToolName(call.tool)) {
      return { ok: false, reason: `unknown tool \`${String(call?.tool)}\``, rule: "validator:unknown-tool" };
    }
    const tool = call.tool;
    const params = call.params;
    if (typeof params !== "object" || params === null || Array.isArray(params)) {
      return { ok: false, reason: `\`${tool}\` needs its parameters as an object`, rule: "validator:params" };
    }
    const spec = TOOL_PARAMS[tool];
    for (const name of spec.required) {
      const v = params[name];
      if (v === undefined || v === null) return missing(tool, name);
      if (typeof v !== "string")
        return {
          ok: false,
          reason: `\`${tool}\` parameter \`${name}\` must be a string`,
          rule: "validator:param-type",
        };
      if (v.trim() === "" && !spec.mayBeEmpty?.includes(name)) return missing(tool, name);
    }
    for (const name of spec.optional ?? []) {
      const v = params[name];
      if (v === undefined || v === null) continue;
      if (
        BOOLEAN_PARAMS.has(name)
          ? boolParam(v) === undefined
          : typeof v !== "string" && !(name === "options" && Array.isArray(v))
      ) {
        return {
          ok: false,
          reason: `\`${tool}\` parameter \`${name}\` has the wrong type`,
          rule: "validator:param-type",
        };
      }
    }
    // Leaving the sandbox is the person's decision, made on the model's stated reason: no reason, no request.
    if (tool === "execute_command" && boolParam(params.sandbox) === false) {
      const reason = params.reason;
      if (typeof reason !== "string" || reason.trim() === "")
        return {
          ok: false,
          reason: "`execute_command` with `sandbox: false` needs a `reason` (why it must run outside the sandbox)",
          rule: "validator:missing-param",
        };
    }
    if (tool === "use_mcp_tool" && typeof params.arguments === "string" && params.arguments.trim() !== "") {
      let parsed: unknown;
      try {
        parsed = JSON.parse(params.arguments);
      } catch {
        return {
          ok: false,
          reason: "`use_mcp_tool` `arguments` must be a JSON object",
          rule: "validator:mcp-arguments",
        };
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
        return {
          ok: false,
          reason: "`use_mcp_tool` `arguments` must be a JSON object",
          rule: "validator:mcp-arguments",
        };
      }
    }
    if (tool === "web_fetch" && !/^https?:\/\//i.test((params.url as string).trim())) {
      return { ok: false, reason: "`web_fetch` takes an http:// or https:// URL", rule: "validator:url" };
    }
    // The address checks read the URL as the fetch will: one the URL parser refuses (`http://[fe80::1%25eth0]/`)
    // has no host to check, so it never gets that far.
    if (tool === "web_fetch" && !URL.canParse((params.url as string).trim())) {
      return { ok: false, reason: "`web_fetch` got a URL that is not valid", rule: "validator:url" };
    }
    if (!spec.pathParam) return { ok: true, tool };
    return this.checkPath(tool, params[spec.pathParam] as string);
  }

  /** Canonicalises and checks one path against the ignore file (both its spelling and its realpath). */
  checkPath(tool: ToolName, raw: string, cwd?: string): ValidationResult {
    const r = this.paths.resolve(raw, cwd);
    if (!r.ok) return { ok: false, reason: `\`${tool}\`: ${r.reason}`, rule: "validator:path" };
    const ignored = this.ignoredBy(r.path);
    if (ignored) {
      return {
        ok: false,
        reason: `\`${raw}\` is excluded by ${this.ignore.fileName}; do not access it (ask the user to change ${this.ignore.fileName} if it is needed)`,
        rule: `ignoreFile: ${this.ignore.fileName}`,
      };
    }
    return { ok: true, tool, path: r.path };
  }

  ignoredBy(p: ResolvedPath): boolean {
    const real = p.realRoot;
    const lexical = p.lexicalRoot;
    if (real && this.ignore.ignores(real.index, real.relative)) return true;
    if (!lexical || (real && real.index === lexical.index && real.relative === lexical.relative)) return false;
    return this.ignore.ignores(lexical.index, lexical.relative);
  }
}

function missing(tool: string, name: string): ValidationResult {
  return {
    ok: false,
    reason: `\`${tool}\` is missing its required parameter \`${name}\``,
    rule: "validator:missing-param",
  };
}
