import * as nodePath from "node:path";
import { CommandPathGate, commandLists, type EffectFinding, type FileSwitches } from "./commandGate";
import type { CommandAnalysis, CommandAnalyzer, CommandContext } from "./commands/types";
import { defaultAnalyzer } from "./commands/defaultAnalyzer";
import { allow, ask, deny, Trace } from "./decisionSteps";
import { IgnoreRules } from "./ignoreFile";
import { TaskLimits } from "./limits";
import { lookupMcpTool, mcpServerNameProblem, repairMcpToolName, type McpListedTool } from "./mcp";
import { resourceFiles } from "./mcpResource";
import { FsFacts } from "./fsFacts";
import { WorkspacePaths, type FsProbe, type ResolvedPath } from "./paths";
import { ProtectedPaths } from "./protectedPaths";
import type { GitConfigSource } from "./gitConfigTargets";
import {
  FILE_TOOLS,
  parseRules,
  PRIMARY_ARG,
  RuleIndex,
  type CallSubject,
  type PermissionRule,
} from "./permissionRules";
import type { ToolgateSettings } from "./settingsModel";
import type { Judged, McpTarget, ResolvedCall, ResolvedCallParts, UrlTarget } from "./resolvedCall";
import type { CallDanger, Decision, ToolCall, ToolName } from "./types";
import { commandGrant } from "./sandbox/commandGrant";
import type { SandboxGrant } from "./sandbox/grant";
import { sandboxTier, type Availability, type SandboxAvailability } from "./sandboxTier";
import { privateAddressReason, privateHostReason, urlHost } from "./urls";
import { boolParam, ToolValidator } from "./validator";
import { untrustedContentStep } from "./taintStep";
import { taintSourceOf, type CallOutcome } from "./taint";

export interface GateOptions {
  /** User settings with workspace/managed tightenings already merged (see `withTightenings`). */
  readonly settings: ToolgateSettings;
  /** Absolute workspace roots, fetched once per task. */
  readonly roots: readonly string[];
  readonly trusted?: boolean;
  /** No person to ask: every ask becomes a deny carrying the reason. */
  readonly headless?: boolean;
  readonly analyzer?: CommandAnalyzer;
  /**
   * `create` does not wait for the analyzer: the caller awaits `prepare(call)` before deciding `call`, which
   * loads it only when the call has a command (a hook answering one file read never loads the grammar). A
   * command decided without `prepare` is unparseable: it asks.
   */
  readonly deferAnalyzer?: boolean;
  /** Replaces the path resolution's system calls (tests: an in-memory file system). */
  readonly fs?: FsProbe;
  /**
   * The task's file-system facts, kept true by a watcher (fsFacts.ts); shared by the gates of one task and its
   * rebuilds. Without one, each decision sees the file system afresh (facts last one decision).
   */
  readonly facts?: FsFacts;
  /** Defaults to reading the ignore file from each root. */
  readonly ignore?: IgnoreRules;
  /** Shared by a task tree; defaults to a fresh one from the settings. */
  readonly limits?: TaskLimits;
  readonly platform?: "posix" | "windows";
  /** Settings errors found by the caller: nothing is auto-approved while there are any. */
  readonly settingsErrors?: readonly string[];
  /** A running MCP server's tools (undefined: not started yet), for name repair and annotations. */
  readonly mcpTools?: (server: string) => readonly McpListedTool[] | undefined;
  /** `toolgate.sandbox.network`'s hosts (see `allowListOf`): a command's grant draws its hosts from them. */
  readonly sandboxNetwork?: readonly string[];
  /**
   * What each root's git configuration makes protected (hooks directory, included files), as git reads it.
   * Without one, a root inside a repository protects every write in it (see gitConfigTargets.ts).
   */
  readonly gitConfig?: GitConfigSource;
  /**
   * Whether an OS sandbox works for commands here (the host's probe and `toolgate.sandbox.mode`; the CLI's probe
   * or `--assume-sandbox`). Undefined: not known, so `executeInSandbox` asks.
   */
  readonly sandbox?: SandboxAvailability;
  /**
   * Whether a checkpoint is taken before each call that may change files (the agent with checkpoints on).
   * Undefined: none is taken where this gate decides (a hook), so `executeInSandbox` asks.
   */
  readonly checkpoints?: Availability;
}

/** The rule of the model's request to run a command outside the OS sandbox (`sandbox: false`). */
export const LEAVE_SANDBOX_RULE = "sandbox:leave";

/** The model's stated reason when it asks to leave the sandbox (`sandbox: false`; the validator made it required). */
/**
 * Where a command starts: the caller's `facts.cwd` (normalised), else `base` (the first root). Undefined for a
 * cwd that is not absolute (or holds NUL): the caller's claim cannot be judged, so the call is refused.
 */
function commandCwd(facts: ToolCall["facts"], base: string): string | undefined {
  const cwd = facts?.cwd;
  if (cwd === undefined) return base;
  if (typeof cwd !== "string") return undefined;
  if (cwd.includes("\0") || !nodePath.isAbsolute(cwd)) return undefined;
  return nodePath.resolve(cwd);
}

function leaveSandboxReason(params: ToolCall["params"]): string | undefined {
  if (boolParam(params.sandbox) !== false) return undefined;
  return typeof params.reason === "string" ? params.reason.trim() : "";
}

/** Tools that only read: running one changes no file-system fact. */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "list_files",
  "search_files",
  "web_fetch",
  "ask_followup_question",
  "access_mcp_resource",
]);

/** Whether a call that ran may have changed files (when unsure: yes). */
function mayChangeFiles(call: ResolvedCall): boolean {
  if (READ_ONLY_TOOLS.has(call.tool)) return false;
  if (call.command) return call.command.readOnly !== true;
  if (call.tool === "attempt_completion") return false;
  if (call.mcp) return call.mcp.readOnlyHint !== true;
  return true;
}

/** The one place a ResolvedCall is made: from what this gate judged. */
function mint(parts: ResolvedCallParts): ResolvedCall {
  return parts as ResolvedCall;
}

export interface Explained {
  readonly decision: Decision;
  readonly trace: readonly string[];
}

const EDIT_TOOLS: readonly ToolName[] = ["write_to_file", "replace_in_file"];
const READ_TOOLS: readonly ToolName[] = ["read_file", "list_files", "search_files"];
const NEVER_AUTO: readonly ToolName[] = ["ask_followup_question", "new_task"];

/** What the fine-grained tier says about a file tool, by kind and place (built once, not per decision). */
const FILE_SWITCH_TEXT = Object.fromEntries(
  (["read", "edit"] as const).map((kind) => {
    const what = kind === "read" ? "reading" : "editing";
    const place = (where: "inside" | "outside") => ({
      approved: `${what} files ${where} the workspace is auto-approved`,
      notApproved: `${what} files ${where} the workspace is not auto-approved`,
      rule: `autoApprove.${kind === "read" ? "readFiles" : "editFiles"}${where === "outside" ? "Externally" : ""}`,
    });
    return [kind, { inside: place("inside"), outside: place("outside") }];
  }),
) as Readonly<
  Record<
    "read" | "edit",
    Record<"inside" | "outside", { readonly approved: string; readonly notApproved: string; readonly rule: string }>
  >
>;

/** The command line a call runs, when it runs one: the only calls the command analyzer is needed for. */
function commandOf(tool: string, params: ToolCall["params"]): string | undefined {
  if (tool !== "execute_command" && tool !== "attempt_completion") return undefined;
  const command = params.command;
  return typeof command === "string" && command.trim() !== "" ? command : undefined;
}

/**
 * The gate: validator, then the decision order of DESIGN.md, first match wins — refusals and hard asks hold in
 * every mode, before auto and approve-all. `decide` is synchronous; its only I/O is the file-system facts it
 * needs (realpaths, kinds, listings for recursive reads, git probes), from `GateOptions.facts` — kept across
 * decisions while a watcher reports no change (fsFacts.ts) — or, without one, afresh for each decision. Every
 * decision past validation carries the resolved call it judged, the only thing a handler may run. The analyzer
 * must be ready (`Gate.create` awaits it).
 */
export class Gate {
  readonly limits: TaskLimits;
  private readonly paths: WorkspacePaths;
  private readonly facts: FsFacts;
  private readonly validator: ToolValidator;
  private readonly protectedPaths: ProtectedPaths;
  private readonly rules: readonly PermissionRule[];
  private readonly index: RuleIndex;
  private readonly configErrors: readonly string[];
  private readonly commandCtx: CommandContext;
  private readonly analyzer: CommandAnalyzer;
  /** The same gate with the workspace trusted: Restricted Mode asks show what it says (display only). */
  private trustedTwin: Gate | undefined;

  private constructor(private readonly opts: GateOptions) {
    const s = opts.settings;
    this.facts = opts.facts ?? FsFacts.perDecision();
    this.paths = new WorkspacePaths(opts.roots, opts.fs ?? this.facts);
    const ignore = opts.ignore ?? IgnoreRules.load(this.paths.roots, s.ignoreFile);
    this.validator = new ToolValidator(this.paths, ignore);
    this.protectedPaths = new ProtectedPaths(s.ignoreFile, this.paths.roots, opts.gitConfig, this.facts);
    const modeRules = s.mode === "plan" ? ["Edit"] : [];
    const parsed = parseRules([
      { effect: "deny", layer: "settings", sources: s.permissions.deny },
      { effect: "deny", layer: "mode:plan", sources: modeRules },
      { effect: "ask", layer: "settings", sources: s.permissions.ask },
      { effect: "allow", layer: "settings", sources: s.permissions.allow },
    ]);
    this.rules = parsed.rules;
    this.index = new RuleIndex(parsed.rules);
    this.configErrors = [...(opts.settingsErrors ?? []), ...parsed.errors];
    this.limits = opts.limits ?? new TaskLimits(s.autoApprove.maxRequests, s.autoApprove.maxCost);
    this.analyzer = opts.analyzer ?? defaultAnalyzer();
    const trusted = opts.trusted !== false;
    const yolo = trusted && (s.mode === "auto" || s.autoApprove.all);
    const fine = trusted && s.autoApprove.enabled;
    const a = s.autoApprove.actions;
    const switches: FileSwitches = {
      readLocal: yolo || (fine && a.readFiles),
      readExternal: yolo || (fine && a.readFilesExternally),
      editLocal: yolo || (fine && a.editFiles),
      editExternal: yolo || (fine && a.editFilesExternally),
    };
    const denyOrAsk = this.rules.filter((r) => r.effect !== "allow" && r.tools.some((t) => FILE_TOOLS.includes(t)));
    this.commandCtx = {
      ...commandLists(this.rules, s.commands.allow, s.commands.deny),
      cwd: this.paths.base,
      paths: new CommandPathGate(
        this.paths,
        this.validator,
        this.protectedPaths,
        denyOrAsk,
        switches,
        this.facts,
        // Deny rules come before ask rules in `this.rules`, so this is `denyOrAsk`'s first match.
        (subject) => this.index.find("deny", subject, false) ?? this.index.find("ask", subject, false),
      ),
      platform: opts.platform ?? (process.platform === "win32" ? "windows" : "posix"),
    };
  }

  static async create(opts: GateOptions): Promise<Gate> {
    const gate = new Gate(opts);
    if (opts.deferAnalyzer !== true) await gate.analyzer.ready();
    return gate;
  }

  /** Loads what deciding `call` needs (the command analyzer when it has a command); see `deferAnalyzer`. */
  async prepare(call: ToolCall): Promise<void> {
    if (commandOf(call.tool, call.params) !== undefined) await this.analyzer.ready();
  }

  /** Rule and settings errors: while there are any, nothing is auto-approved. */
  get errors(): readonly string[] {
    return this.configErrors;
  }

  /** The ignore rules this gate decides with (list/search filter with the same snapshot). */
  get ignore(): IgnoreRules {
    return this.validator.ignore;
  }

  get workspace(): WorkspacePaths {
    return this.paths;
  }

  /**
   * The context this gate's command analysis runs with for a command starting in `cwd` (default: the first
   * root): the command lists and the `CommandPathGate` a decision uses, begun afresh as a decision begins them
   * (file-system facts and findings of earlier analyses forgotten). For tests that call the analyzer directly
   * and must judge paths exactly as the product does; deciding a call does not go through it.
   */
  commandContext(cwd: string = this.paths.base): CommandContext {
    this.facts.beginDecision();
    this.paths.beginDecision();
    this.protectedPaths.beginDecision();
    (this.commandCtx.paths as CommandPathGate).begin();
    const at = nodePath.resolve(cwd);
    return at === this.commandCtx.cwd ? this.commandCtx : { ...this.commandCtx, cwd: at };
  }

  /** The decision for a complete call; `preview` (a streaming block) is a UI hint and counts no request. */
  decide(call: ToolCall, opts?: { readonly preview?: boolean }): Judged {
    return this.run(call, new Trace(false), opts?.preview === true);
  }

  explain(call: ToolCall): Explained {
    const trace = new Trace(true);
    const { resolved: _resolved, ...decision } = this.run(call, trace, false);
    return { decision, trace: trace.lines };
  }

  /** Tools the agent should hide from the model: denied outright by a rule without a pattern, or by the mode. */
  deniedTools(): readonly string[] {
    const out = new Set<string>();
    for (const r of this.rules) {
      if (r.effect !== "deny" || r.pattern !== undefined) continue;
      if (r.mcp) out.add(`mcp__${r.mcp.server}__${r.mcp.tool}`);
      else r.tools.forEach((t) => out.add(t));
    }
    return [...out];
  }

  /**
   * A call this gate judged has run (undefined: one whose judged form is gone). If it may have changed files
   * the facts are forgotten: the agent's own changes are seen by the next decision without waiting on a
   * watcher, whose delivery delay then only bounds changes made by others.
   */
  ran(call?: ResolvedCall): void {
    if (call === undefined || mayChangeFiles(call)) this.facts.changedAll();
  }

  recordCost(usd: number): void {
    this.limits.addCost(usd);
  }

  /** The untrusted source a call's result brings into the task (core/taint.ts), by this gate's MCP settings. */
  taintSourceOf(call: ResolvedCall, outcome?: CallOutcome): string | undefined {
    return taintSourceOf(call, this.opts.settings.mcpServers, outcome);
  }

  resetLimits(): void {
    this.limits.reset();
  }

  private run(call: ToolCall, trace: Trace, preview: boolean): Judged {
    const d = this.decideInner(call, trace, preview);
    const settled =
      d.decision === "allow" && this.configErrors.length > 0
        ? {
            ...ask(
              `your Toolgate settings have errors, so nothing is auto-approved: ${this.configErrors[0]}`,
              "settings:invalid",
            ),
            ...(d.resolved ? { resolved: d.resolved } : {}),
          }
        : d;
    if (settled.decision === "ask" && settled.rule === "workspace:untrusted" && !this.opts.headless) {
      const ifTrusted = this.asIfTrusted(call);
      if (ifTrusted) return { ...settled, ifTrusted };
    }
    if (settled.decision === "ask" && this.opts.headless) {
      trace.note("headless", "no one to ask, so the ask becomes a deny");
      return deny(`needs approval, and there is no one to ask (headless): ${settled.reason}`, settled.rule);
    }
    return settled;
  }

  /**
   * The rest of the decision order as if the workspace were trusted, for the person's view only: a preview (no
   * request counted), its resolved call dropped, never returned as the decision.
   */
  private asIfTrusted(call: ToolCall): Decision["ifTrusted"] {
    this.trustedTwin ??= new Gate({
      ...this.opts,
      trusted: true,
      limits: this.limits,
      ignore: this.validator.ignore,
      analyzer: this.analyzer,
    });
    const { resolved: _resolved, ...d } = this.trustedTwin.run(call, new Trace(false), true);
    return d;
  }

  /** What makes approving a call risky, for the card (see `CallDanger`); nothing decides on it. */
  private dangers(
    tool: ToolName,
    path: ResolvedPath | undefined,
    analysis: CommandAnalysis | undefined,
    effect: EffectFinding | undefined,
    commandPaths: CommandPathGate,
  ): CallDanger[] {
    const out: CallDanger[] = [];
    if (analysis?.deletes) out.push("deletes");
    if ((path && !path.realRoot) || (analysis && commandPaths.leftWorkspace)) out.push("outside");
    if ((path && EDIT_TOOLS.includes(tool) && this.protectedPaths.match(path)) || effect?.rule.startsWith("protected:"))
      out.push("protected");
    if (analysis?.verdict === "unparseable") out.push("unparseable");
    return out;
  }

  private decideInner(call: ToolCall, trace: Trace, preview: boolean): Judged {
    const s = this.opts.settings;
    // Every decision sees the file system as it is now, or as the task's watcher last reported it (fsFacts.ts):
    // the changes reported since the last decision are applied first.
    this.facts.beginDecision();
    this.paths.beginDecision();
    this.protectedPaths.beginDecision();
    // 1. Validate the complete call; MCP names are repaired before anything looks at them.
    const canonical = this.canonicalMcp(call);
    if ("decision" in canonical) return canonical;
    const v = this.validator.validate(canonical.call);
    if (!v.ok) {
      trace.note("1 validate", v.reason);
      return deny(v.reason, v.rule);
    }
    const tool = v.tool;
    const params = canonical.call.params;
    if (trace.enabled)
      trace.note(
        "1 validate",
        v.path
          ? `${tool} on ${v.path.real}${v.path.realRoot ? "" : " (outside the workspace)"}`
          : `${tool}: parameters present`,
      );
    const subject = this.subject(tool, params, v.path);
    // A resource URI that names local files is judged as read_file on each of them (DESIGN step 5).
    const resource = tool === "access_mcp_resource" ? this.resourcePaths(params.uri as string, trace) : undefined;
    if (resource && "decision" in resource) return resource;
    const command = commandOf(tool, params);
    const commandPaths = this.commandCtx.paths as CommandPathGate;
    const leave = tool === "execute_command" ? leaveSandboxReason(params) : undefined;
    // Where the line will run in the sandbox, its `/tmp` is the task's private one; anywhere else (no sandbox,
    // the model's request to leave it) the host's.
    const sandbox = this.opts.sandbox;
    commandPaths.begin({
      privateTmp: sandbox?.available === true && sandbox.privateTmp === true && leave === undefined,
    });
    // A command starts where the caller says it runs (a hook's agent after the model's `cd`), else in the first
    // root; relative paths, `cd` and "outside the workspace" are judged from there, the roots stay the workspace.
    const cwd = commandCwd(canonical.call.facts, this.paths.base);
    if (cwd === undefined) return deny("the command's working directory must be an absolute path", "validate:cwd");
    const ctx = cwd === this.commandCtx.cwd ? this.commandCtx : { ...this.commandCtx, cwd };
    const analysis = command !== undefined ? this.analyze(command, trace, ctx) : undefined;
    const effect = analysis ? commandPaths.worst() : undefined;
    // A completion that runs a command is a command to every rule as well (`Bash` deny holds for it).
    const subjects =
      tool === "attempt_completion" && analysis
        ? [subject, { ...subject, tool: "execute_command" as const }]
        : resource
          ? [subject, ...resource.files.map((path) => ({ tool: "read_file" as const, path, arg: path.input }))]
          : [subject];
    const mcp = subject.mcp ? lookupMcpTool(s.mcpServers, subject.mcp.server, subject.mcp.tool) : undefined;
    if (mcp && !mcp.ok) return deny(mcp.reason, mcp.rule);
    const url = tool === "web_fetch" ? this.urlTarget(params.url as string, call.facts) : undefined;
    const parts: { -readonly [K in keyof ResolvedCallParts]: ResolvedCallParts[K] } = { tool, params };
    if (v.path) parts.path = v.path;
    else if (resource?.files.length === 1) parts.path = resource.files[0];
    if (canonical.mcp) parts.mcp = resource ? { ...canonical.mcp, files: resource.files } : canonical.mcp;
    if (url) parts.url = url;
    if (command !== undefined && command.trim() !== "")
      parts.command = {
        line: command,
        shell: "bash",
        cwd,
        readOnly: analysis?.readOnly === true,
        // A line judged with the sandbox's private `/tmp` would use the host's outside it: not offered there
        // (the model's own request to leave is judged again, with the host's `/tmp`).
        mayRunOutside: s.mode !== "plan" && commandPaths.privateTmpPaths.length === 0,
        ...(commandPaths.outsideReads.length > 0 ? { outsideReads: [...commandPaths.outsideReads] } : {}),
        ...(commandPaths.privateTmpPaths.length > 0 ? { privateTmp: [...commandPaths.privateTmpPaths] } : {}),
        ...(leave !== undefined ? { leaveSandbox: { reason: leave } } : {}),
        ...(analysis?.readsEnvironment !== undefined ? { readsEnvironment: analysis.readsEnvironment } : {}),
        // What the OS sandbox lets it do: decided here, with the verdict, and nowhere else.
        grant: commandGrant({
          mode: s.mode,
          line: command,
          ...(analysis ? { analysis } : {}),
          roots: this.paths.roots,
          allowList: this.opts.sandboxNetwork ?? [],
        }),
      };
    const resolved = mint(parts);
    // Asks carry what the card shows: the risks, and the parts of a command line the analysis decided on.
    const withCall = (d: Decision): Judged => {
      if (d.decision === "allow") return { ...d, resolved };
      const danger = this.dangers(tool, v.path ?? parts.path, analysis, effect, commandPaths);
      const fromAnalysis =
        analysis?.spans !== undefined &&
        (d.rule === analysis.rule || d.rule === effect?.rule || d.rule === "commands:deletes");
      return {
        ...d,
        ...(fromAnalysis ? { spans: analysis.spans } : {}),
        ...(danger.length > 0 ? { danger } : {}),
        resolved,
      };
    };

    // 2. Refusals, in every mode.
    const denyRule = this.findRule("deny", subjects, false);
    if (denyRule?.layer === "mode:plan") return deny("plan mode is read-only: files cannot be edited", "mode:plan");
    if (denyRule)
      return deny(`\`${denyRule.source}\` is denied by your settings`, `permissions.deny: ${denyRule.source}`);
    if (analysis?.verdict === "deny") return deny(analysis.reason, analysis.rule);
    if (effect?.severity === "refusal") return deny(effect.reason, effect.rule);
    if (s.mode === "plan") {
      if (EDIT_TOOLS.includes(tool)) return deny("plan mode is read-only: files cannot be edited", "mode:plan");
      if (analysis && !analysis.readOnly)
        return deny(`plan mode is read-only, and this command may change things: ${analysis.reason}`, "mode:plan");
      if (tool === "use_mcp_tool" && canonical.mcp?.readOnlyHint !== true)
        return deny(
          `plan mode is read-only, and \`${canonical.mcp?.tool ?? ""}\` is not annotated readOnlyHint: true`,
          "mode:plan",
        );
    }
    if (leave !== undefined && s.mode === "plan")
      return deny("plan mode runs commands only inside the OS sandbox, so it cannot leave it", "mode:plan");
    trace.note(
      "2 refusals",
      s.mode === "plan" ? "no deny rule matches; plan: the call is read-only" : "no deny rule matches",
    );
    // The model's request to leave the sandbox is the person's call in every mode: never auto-approved, not by
    // auto mode or approve-all (headless, this ask becomes a refusal under the same rule).
    if (leave !== undefined)
      return withCall(ask(`the model asks to run this outside the OS sandbox: ${leave}`, LEAVE_SANDBOX_RULE));

    // 3. Hard asks, in every mode (auto and approve-all included).
    const egress = () => untrustedContentStep(this.index, s, subject, resolved, analysis, canonical.call.facts, trace);
    const hard =
      this.hardAsk(tool, subjects, params, analysis, effect, canonical.mcp, url, v.path, preview, egress) ??
      (resource?.unsure ? ask(resource.unsure, "mcp:resource-file-unsure") : undefined);
    if (hard) return withCall(hard);
    trace.note("3 hard asks", "trusted, within limits, no ask rule, no protected path");

    // 4. Auto mode and approve-all: everything left runs, except the never-auto tools.
    if (NEVER_AUTO.includes(tool)) return withCall(ask(`\`${tool}\` always waits for you`, "tool:never-auto"));
    if (s.mode === "auto") return withCall(allow("auto mode (YOLO) runs everything no rule refuses", "mode:auto"));
    if (tool === "attempt_completion" && !analysis)
      return withCall(allow("completing the task runs nothing", "tool:attempt_completion"));
    if (s.autoApprove.all) return withCall(allow("approve-all is on", "autoApprove.all"));

    // 5. The fine-grained tier.
    const allowRule = analysis ? undefined : this.findRule("allow", [subject], true);
    if (allowRule)
      return withCall(
        allow(`\`${allowRule.source}\` is in your allow rules`, `permissions.allow: ${allowRule.source}`),
      );
    if (!s.autoApprove.enabled)
      return withCall(ask("auto-approve is switched off", "autoApprove.enabled", analysis?.suggestion));
    return withCall(
      this.fineGrained(
        tool,
        subject,
        analysis,
        mcp?.ok === true && mcp.alwaysAllowed,
        resource?.files,
        parts.command?.grant,
      ),
    );
  }

  /** DESIGN step 3: what asks whatever the mode and the switches say. */
  private hardAsk(
    tool: ToolName,
    subjects: readonly CallSubject[],
    params: ToolCall["params"],
    analysis: CommandAnalysis | undefined,
    effect: EffectFinding | undefined,
    mcp: McpTarget | undefined,
    url: UrlTarget | undefined,
    path: ResolvedPath | undefined,
    preview: boolean,
    untrustedContent: () => Decision | undefined,
  ): Decision | undefined {
    if (this.opts.trusted === false)
      return ask(
        "the workspace is not trusted (Restricted Mode), so nothing is auto-approved",
        "workspace:untrusted",
        analysis?.suggestion,
      );
    const askRule = this.findRule("ask", subjects, false);
    if (askRule) return ask(`\`${askRule.source}\` always asks`, `permissions.ask: ${askRule.source}`);
    if (analysis?.verdict === "ask-rule") return ask(analysis.reason, analysis.rule);
    if (path && EDIT_TOOLS.includes(tool)) {
      const prot = this.protectedPaths.match(path);
      if (prot)
        return ask(
          `\`${path.input}\` is a protected path (editor, gate, git or CI configuration)`,
          `protected: ${prot}`,
        );
    }
    if (effect) return ask(effect.reason, effect.rule, analysis?.suggestion);
    if (analysis?.deletes)
      return ask(`${analysis.reason}, and deleting always waits for you`, "commands:deletes", analysis.suggestion);
    const tainted = untrustedContent();
    if (tainted) return tainted;
    if (url) {
      const local =
        privateHostReason(url.href) ?? url.addresses?.map(privateAddressReason).find((r) => r !== undefined);
      if (local) return ask(`fetches a local or private address: ${local}`, "webFetch:private-address");
    }
    if (analysis && boolParam(params.requires_approval) === true)
      return ask("the model asked for approval of this command", "requires_approval", analysis.suggestion);
    if (analysis?.verdict === "unparseable") return ask(analysis.reason, analysis.rule);
    if (tool === "use_mcp_tool" && mcp?.destructiveHint === true)
      return ask(`\`${mcp.tool ?? ""}\` is annotated destructiveHint: true`, "mcp:destructive");
    if (tool !== "ask_followup_question") {
      // A preview is a UI hint: it looks at the limits without counting a request.
      const limit = preview ? this.limits.reached() : this.limits.countRequest();
      if (limit) return ask(limit.reason, limit.rule);
    }
    return undefined;
  }

  /** The MCP names as they will really be called: the tool repaired against the server's tool list. */
  private canonicalMcp(call: ToolCall): { call: ToolCall; mcp?: McpTarget } | Decision {
    if ((call?.tool !== "use_mcp_tool" && call?.tool !== "access_mcp_resource") || typeof call.params !== "object")
      return { call };
    const server = call.params?.server_name;
    if (typeof server !== "string" || server.trim() === "") return { call };
    const bad = mcpServerNameProblem(server);
    if (bad) return deny(bad, "mcp:server-name");
    if (call.tool === "access_mcp_resource") return { call, mcp: { server, listed: false } };
    const requested = call.params.tool_name;
    if (typeof requested !== "string" || requested.trim() === "") return { call };
    const listed = this.opts.mcpTools?.(server);
    if (!listed) return { call, mcp: { server, tool: requested, listed: false } };
    const name = repairMcpToolName(
      requested,
      listed.map((t) => t.name),
    );
    if (name === undefined)
      return deny(`the MCP server \`${server}\` has no enabled tool \`${requested}\``, "mcp:unknown-tool");
    const info = listed.find((t) => t.name === name)!;
    return {
      call: name === requested ? call : { ...call, params: { ...call.params, tool_name: name } },
      mcp: {
        server,
        tool: name,
        listed: true,
        ...(info.readOnlyHint !== undefined ? { readOnlyHint: info.readOnlyHint } : {}),
        ...(info.destructiveHint !== undefined ? { destructiveHint: info.destructiveHint } : {}),
        ...(info.openWorldHint !== undefined ? { openWorldHint: info.openWorldHint } : {}),
      },
    };
  }

  /**
   * The local files an `access_mcp_resource` URI may name (see mcpResource.ts), each validated as read_file's
   * path: an ignored or invalid one is a deny. `unsure` (a person decides, in every mode) when the URI cannot be
   * read with certainty, names a host, or its readings lead to different files.
   */
  private resourcePaths(
    uri: string,
    trace: Trace,
  ): { readonly files: readonly ResolvedPath[]; readonly unsure?: string } | Judged {
    const r = resourceFiles(uri);
    if (r.kind === "none") return { files: [] };
    if (r.kind === "unparseable") return { files: [], unsure: `${r.reason}, so it is not clear which file it names` };
    const files: ResolvedPath[] = [];
    for (const p of r.paths) {
      const v = this.validator.checkPath("access_mcp_resource", p);
      if (!v.ok) {
        trace.note("1 validate", `resource ${uri}: ${v.reason}`);
        return deny(`the resource \`${uri}\` is a file: ${v.reason}`, v.rule);
      }
      if (v.path && !files.some((f) => f.real === v.path!.real)) files.push(v.path);
    }
    trace.note("1 validate", `resource ${uri} is the file ${files.map((f) => f.real).join(" or ")}`);
    if (r.host !== undefined)
      return {
        files,
        unsure: `the file URI \`${uri}\` names the host \`${r.host}\`, so it is not clear which file it is`,
      };
    if (files.length > 1)
      return {
        files,
        unsure: `the file URI \`${uri}\` may name ${files.map((f) => `\`${f.real}\``).join(" or ")}, depending on how the server reads it`,
      };
    return { files };
  }

  private urlTarget(raw: string, facts: ToolCall["facts"]): UrlTarget | undefined {
    let u: URL;
    try {
      u = new URL(raw.trim());
    } catch {
      return undefined;
    }
    const host = urlHost(u.href) ?? "";
    return { href: u.href, host, ...(facts?.addresses ? { addresses: [...facts.addresses] } : {}) };
  }

  private fineGrained(
    tool: ToolName,
    subject: CallSubject,
    analysis: CommandAnalysis | undefined,
    mcpAlwaysAllowed: boolean,
    resourceFiles: readonly ResolvedPath[] | undefined,
    grant: SandboxGrant | undefined,
  ): Decision {
    const a = this.opts.settings.autoApprove.actions;
    if (READ_TOOLS.includes(tool) || EDIT_TOOLS.includes(tool)) {
      const read = READ_TOOLS.includes(tool);
      const [approveLocal, approveExternal] = read
        ? [a.readFiles, a.readFilesExternally]
        : [a.editFiles, a.editFilesExternally];
      const local = subject.path?.realRoot !== undefined;
      const external = !local;
      const says = FILE_SWITCH_TEXT[read ? "read" : "edit"][local ? "inside" : "outside"];
      if ((local && approveLocal) || (external && approveLocal && approveExternal))
        return allow(says.approved, says.rule);
      return ask(says.notApproved, says.rule);
    }
    if (analysis) {
      if (analysis.verdict === "safe" && a.executeSafeCommands) return allow(analysis.reason, analysis.rule);
      if (a.executeSafeCommands && a.executeAllCommands)
        return allow("running all commands is auto-approved", "autoApprove.executeAllCommands");
      if (a.executeSafeCommands && a.executeInSandbox)
        return sandboxTier({
          analysis,
          boundary: (this.commandCtx.paths as CommandPathGate).boundary,
          grant,
          sandbox: this.opts.sandbox,
          checkpoints: this.opts.checkpoints,
          platform: this.commandCtx.platform,
        });
      const off = analysis.verdict === "safe" ? "running safe commands is not auto-approved" : analysis.reason;
      return ask(
        off,
        analysis.verdict === "safe" ? "autoApprove.executeSafeCommands" : analysis.rule,
        analysis.suggestion,
      );
    }
    if (tool === "use_mcp_tool" && subject.mcp) {
      if (a.useMcp && mcpAlwaysAllowed)
        return allow(
          `\`${subject.mcp.tool}\` is always allowed on \`${subject.mcp.server}\``,
          "autoApprove.useMcp+alwaysAllow",
        );
      return ask(
        !a.useMcp
          ? "using MCP tools is not auto-approved"
          : `\`${subject.mcp.tool}\` is not marked "always allow" on \`${subject.mcp.server}\``,
        !a.useMcp ? "autoApprove.useMcp" : "mcp:not-always-allowed",
        `mcp__${subject.mcp.server}__${subject.mcp.tool}`,
      );
    }
    if (tool === "access_mcp_resource") {
      if (!a.useMcp) return ask("using MCP is not auto-approved", "autoApprove.useMcp");
      // A resource that is a local file needs what reading that file needs, as well as useMcp.
      for (const f of resourceFiles ?? []) {
        const local = f.realRoot !== undefined;
        const says = FILE_SWITCH_TEXT.read[local ? "inside" : "outside"];
        if (!(a.readFiles && (local || a.readFilesExternally)))
          return ask(`the resource is the file \`${f.real}\`, and ${says.notApproved}`, says.rule);
      }
      return allow("reading MCP resources is auto-approved", "autoApprove.useMcp");
    }
    if (tool === "web_fetch")
      return a.webFetch
        ? allow("fetching web pages is auto-approved", "autoApprove.webFetch")
        : ask("fetching web pages is not auto-approved", "autoApprove.webFetch");
    return ask(`\`${tool}\` needs your approval`, "default:ask");
  }

  private analyze(command: string, trace: Trace, ctx: CommandContext): CommandAnalysis {
    let analysis: CommandAnalysis;
    try {
      analysis = this.analyzer.analyze(command, ctx);
    } catch (e) {
      analysis = {
        verdict: "unparseable",
        reason: `the command could not be analysed: ${(e as Error).message}`,
        rule: "commands:error",
        readOnly: false,
        deletes: false,
      };
    }
    trace.note(
      "command",
      `${analysis.verdict} — ${analysis.reason} [${analysis.rule}]${analysis.readOnly ? " (read-only)" : ""}${analysis.deletes ? " (deletes)" : ""}`,
    );
    return analysis;
  }

  private subject(tool: ToolName, params: ToolCall["params"], path: ResolvedPath | undefined): CallSubject {
    const argName = PRIMARY_ARG[tool];
    const arg = argName && typeof params[argName] === "string" ? (params[argName] as string) : undefined;
    const mcp =
      tool === "use_mcp_tool" || tool === "access_mcp_resource"
        ? {
            server: params.server_name as string,
            ...(tool === "use_mcp_tool" ? { tool: params.tool_name as string } : {}),
          }
        : undefined;
    return { tool, ...(path ? { path } : {}), ...(arg !== undefined ? { arg } : {}), ...(mcp ? { mcp } : {}) };
  }

  /** Command rules with a pattern are argv prefixes, decided by the analyzer, never by matching the raw line. */
  private findRule(
    effect: PermissionRule["effect"],
    subjects: readonly CallSubject[],
    strict: boolean,
  ): PermissionRule | undefined {
    for (const subject of subjects) {
      const commandTool = subject.tool === "execute_command" || subject.tool === "attempt_completion";
      const hit = this.index.find(effect, subject, strict, commandTool ? (r) => r.pattern !== undefined : undefined);
      if (hit) return hit;
    }
    return undefined;
  }
}
