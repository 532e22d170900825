import type { CommandContext, PathAccess, PathGate, PathVerdict } from "./commands/types";
import type { ProtectedPaths } from "./protectedPaths";
import type { ResolvedPath, WorkspacePaths } from "./paths";
import { ruleMatches, type CallSubject, type PermissionRule } from "./permissionRules";
import type { ToolValidator } from "./validator";
import { ignoredBelow, SCAN_LIMIT, walkBelow, type Skips } from "./ignoredBelow";
import { filterKey, mayRead, type ReadFilter } from "./readFilter";
import { gitCheck } from "./gitRepository";
import { stagedIgnored } from "./gitStaged";
import type { ReadKind } from "./commands/catalogue/effects";
import { checkGlobRead } from "./globIgnoreOverlap";
import { posix } from "node:path";
import type { FsFacts } from "./fsFacts";
import { SANDBOX_TMP } from "./sandbox/sandboxPolicy";

/**
 * Builds what the command analysis needs from the gate's own pieces, so that a command's file effects pass
 * exactly the path gate the file tools pass: `cat .env` is refused like `read_file(.env)`, and `> ~/.bashrc`
 * is held like `write_to_file(~/.bashrc)`.
 *
 * Besides answering the analysis, the path gate records how serious each blocked effect is, because file deny
 * rules, the ignore file and protected paths bind command effects in EVERY mode, while the analysis itself only
 * reports the first reason a line is not safe:
 * - `refusal`: a deny rule (`Read(src/b.ts)` vs `cat src/b.ts`, `Edit(x)` vs `> x`, `tee x`, `cp a x`) or an
 *   ignored file read directly → deny;
 * - `hard-ask`: an ask rule, a protected path written, a recursive read that covers a denied or ignored file or
 *   cannot be checked, or an effect whose path is known only when the command runs → ask in every mode;
 * - anything else (outside the workspace, a switch off) only matters to the fine-grained tier.
 */
export interface FileSwitches {
  readonly readLocal: boolean;
  readonly readExternal: boolean;
  readonly editLocal: boolean;
  readonly editExternal: boolean;
}

export type EffectSeverity = "refusal" | "hard-ask";

export interface EffectFinding {
  readonly severity: EffectSeverity;
  readonly reason: string;
  readonly rule: string;
}

export class CommandPathGate implements PathGate {
  private findings: EffectFinding[] = [];
  /** Some file effect of the analysis since `begin` reads or writes outside the workspace (display only). */
  leftWorkspace = false;
  /**
   * The first file effect since `begin` that crosses a boundary of the sandboxed tier (sandboxTier.ts): a read
   * or write outside the workspace. Recorded whatever the verdict, because the
   * analysis reports only its first reason and that tier must see every effect of the line.
   */
  boundary: { readonly reason: string; readonly rule: string } | undefined;
  /**
   * Real paths outside the workspace the line reads (files or directories), since `begin`. Only an approval by
   * the person turns them into the grant's `readPaths` (bound read-only into that one call's sandbox).
   */
  outsideReads: string[] = [];
  /** Paths the line uses that were judged as the sandbox's private `/tmp` (see `begin`), since `begin`. */
  privateTmpPaths: string[] = [];
  /** Whether this line runs in a sandbox whose `/tmp` is the task's private one (see `begin`). */
  private privateTmp = false;

  constructor(
    private readonly paths: WorkspacePaths,
    private readonly validator: ToolValidator,
    private readonly protectedPaths: ProtectedPaths,
    private readonly denyOrAsk: readonly PermissionRule[],
    private readonly switches: FileSwitches,
    /** The file-system facts of the gate's decisions (listings, kinds, git probes). */
    private readonly facts: FsFacts,
    /** The first of `denyOrAsk` (deny rules before ask rules) that matches, by the gate's rule index. */
    private readonly firstDenyOrAsk: (s: CallSubject) => PermissionRule | undefined = (s) =>
      denyOrAsk.find((r) => ruleMatches(r, s, false)),
  ) {}

  /**
   * Starts one analysis: findings are per command line. `privateTmp`: the line will run in an OS sandbox whose
   * `/tmp` is the task's private one (bubblewrap), so a path under `/tmp` (outside every root) is that private
   * directory, not the host's: inside the grant, like a workspace path, and judged without the host's `/tmp`.
   * Unsandboxed runs, file tools and a model's request to leave the sandbox see the host's `/tmp`: false.
   */
  begin(o: { readonly privateTmp?: boolean } = {}): void {
    this.findings = [];
    this.leftWorkspace = false;
    this.boundary = undefined;
    this.outsideReads = [];
    this.privateTmpPaths = [];
    this.privateTmp = o.privateTmp === true;
  }

  /** The most serious finding of the analysis since `begin` (refusals first), if any. */
  worst(): EffectFinding | undefined {
    return this.findings.find((f) => f.severity === "refusal") ?? this.findings[0];
  }

  private note(severity: EffectSeverity, reason: string, rule: string): PathVerdict {
    this.findings.push({ severity, reason, rule });
    return { ok: false, reason, rule };
  }

  /** A file effect whose path the analysis cannot know before the command runs. */
  unresolved(access: PathAccess, shown: string): void {
    if (access === "write")
      this.note(
        "hard-ask",
        `writes to \`${shown}\`, known only when the command runs (it could be a protected path)`,
        "path:unknown-write",
      );
    else if (this.readsAreGuarded())
      this.note(
        "hard-ask",
        `reads \`${shown}\`, known only when the command runs (it could be a file your deny rules or ${this.validator.ignore.fileName} exclude)`,
        "path:unknown-read",
      );
  }

  private readsAreGuarded(): boolean {
    if (this.denyOrAsk.some((r) => r.tools.includes("read_file"))) return true;
    return this.paths.roots.some((_, i) => this.validator.ignore.hasRules(i));
  }

  inWorkspace(path: string, cwd: string): boolean {
    const v = this.validator.checkPath("write_to_file", path, cwd);
    // A path the validator refuses (NUL, a URL) is not known to be inside.
    return v.ok && v.path?.realRoot !== undefined;
  }

  check(path: string, cwd: string, access: PathAccess, kind: ReadKind = "content", filter?: ReadFilter): PathVerdict {
    // A `~` that reaches the gate was quoted or escaped (the analysis expands the others itself, before any check,
    // src/core/commands/tildes.ts), so bash uses it as a name in the working directory (`cat '~/.env'` reads
    // `./~/.env`); the path resolution shared with the file tools would read a leading `~/` as the home.
    if (path === "~" || path.startsWith("~/")) return this.checkOne("./" + path, cwd, access, kind, filter);
    return this.checkOne(path, cwd, access, kind, filter);
  }

  private checkOne(
    path: string,
    cwd: string,
    access: PathAccess,
    kind: ReadKind,
    filter: ReadFilter | undefined,
  ): PathVerdict {
    const tool = access === "read" ? "read_file" : "write_to_file";
    if (kind === "git-stage" || kind === "git-stage-forced") return this.staged(path, cwd, kind === "git-stage-forced");
    // Under /proc (and /dev/fd, a link into it) a name means one thing for the command's process and another
    // for Toolgate's (`/proc/self/cwd/.env`): no verdict reached here would be about the file the command uses.
    if (/^\/(proc|dev\/fd)(\/|$)/.test(posix.resolve(cwd, path)))
      return this.note("hard-ask", `\`${path}\` names a different file for the command than for Toolgate`, "path:proc");
    const v = this.validator.checkPath(tool, path, cwd);
    // A name that is no path (a URL argument of a program the catalogue does not know) is left to the
    // analysis: it is not a file effect the sandboxed tier must see.
    if (!v.ok)
      return v.rule.startsWith("ignoreFile:")
        ? this.note("refusal", v.reason, v.rule)
        : { ok: false, reason: v.reason, rule: v.rule };
    const p = v.path!;
    const rule = this.firstDenyOrAsk({ tool, path: p });
    if (rule)
      return this.note(
        rule.effect === "deny" ? "refusal" : "hard-ask",
        `\`${path}\` matches the ${rule.effect} rule \`${rule.source}\``,
        `permissions.${rule.effect}: ${rule.source}`,
      );
    const local = p.realRoot !== undefined;
    if (
      !local &&
      this.privateTmp &&
      kind !== "git-repository" &&
      kind !== "git-history" &&
      inPrivateTmp(path, cwd, p, this.paths.homeDir)
    )
      return this.privateTmpVerdict(path, p, access);
    if (!local) {
      if (access === "read" && !this.outsideReads.includes(p.real)) this.outsideReads.push(p.real);
      this.leftWorkspace = true;
      this.boundary ??=
        access === "write"
          ? { reason: `writes outside the workspace (\`${path}\`)`, rule: "sandbox:outside-write" }
          : { reason: `reads outside the workspace (\`${path}\`)`, rule: "sandbox:outside-read" };
    }
    if (kind === "git-repository") {
      // Another repository's configuration can run programs (core.fsmonitor): a hard ask in every mode.
      const v = gitCheck(p, path, kind, this.validator.ignore, this.facts);
      return v.ok ? v : this.note("hard-ask", v.reason, v.rule);
    }
    if (kind === "git-history") {
      // Printing tracked contents of an ignored file is a read of that file: a hard ask, as for recursive reads.
      const v = gitCheck(p, path, kind, this.validator.ignore, this.facts);
      return v.ok ? v : this.note("hard-ask", v.reason, v.rule);
    }
    if (access === "write") {
      const prot = this.protectedPaths.match(p);
      if (prot) return this.note("hard-ask", `writes to a protected path: ${path}`, `protected: ${prot}`);
      if (!local && !(this.switches.editLocal && this.switches.editExternal))
        return { ok: false, reason: `writes outside the workspace: ${path}`, rule: "path:external-write" };
      if (local && !this.switches.editLocal)
        return {
          ok: false,
          reason: `writes a file (${path}) and editing files is not auto-approved`,
          rule: "autoApprove.editFiles",
        };
      return { ok: true };
    }
    // Only these read below a directory (`file-content` and `names` reach the entry itself, no further).
    if (kind === "content" || kind === "content-nofollow" || kind === "copy-tree") {
      const below = this.recursiveRead(path, p, kind === "content", kind === "copy-tree" ? undefined : filter);
      if (below) return below;
    }
    if (kind === "copy-tree") {
      const planted = this.protectedBelow(p);
      if (planted)
        return this.note(
          "hard-ask",
          planted === "too-many"
            ? `copies \`${path}\` whole: more than ${SCAN_LIMIT} entries, too many to check for protected paths`
            : planted === p.realRoot?.relative
              ? `copies \`${path}\`, a protected path, whole`
              : `copies \`${path}\` whole, with \`${planted}\` in it, a protected path wherever it lands`,
          "protected: copied tree",
        );
    }
    if (!local && !(this.switches.readLocal && this.switches.readExternal))
      return { ok: false, reason: `reads outside the workspace: ${path}`, rule: "path:external-read" };
    if (local && !this.switches.readLocal)
      return {
        ok: false,
        reason: `reads a file (${path}) and reading files is not auto-approved`,
        rule: "autoApprove.readFiles",
      };
    return { ok: true };
  }

  /**
   * A path in the sandbox's private `/tmp`: the task's own scratch directory, which holds only what its sandboxed
   * commands put there. Gated like a workspace path by the switches (a write needs editing switched on), and by
   * protected paths on the host's reading of it (stricter, never looser); the host's `/tmp` tree is not walked,
   * since the command does not see it.
   */
  private privateTmpVerdict(path: string, p: ResolvedPath, access: PathAccess): PathVerdict {
    this.privateTmpPaths.push(p.lexical);
    if (access === "write") {
      const prot = this.protectedPaths.match(p);
      if (prot) return this.note("hard-ask", `writes to a protected path: ${path}`, `protected: ${prot}`);
      if (!this.switches.editLocal)
        return {
          ok: false,
          reason: `writes a file (${path}, in the sandbox's private /tmp) and editing files is not auto-approved`,
          rule: "autoApprove.editFiles",
        };
      return { ok: true };
    }
    if (!this.switches.readLocal)
      return {
        ok: false,
        reason: `reads a file (${path}, in the sandbox's private /tmp) and reading files is not auto-approved`,
        rule: "autoApprove.readFiles",
      };
    return { ok: true };
  }

  /**
   * What git would copy into its objects from below `path` (`:/` and other pathspec magic: the whole tree)
   * must not include a file the ignore file excludes: from the objects, `push`, `bundle` or `show` carry it on.
   */
  private staged(path: string, cwd: string, forced: boolean): PathVerdict {
    // `git -C dir add -A` arrives as `dir/:/`: the tree of the repository found from `dir`.
    const magic = path.startsWith(":") ? 0 : path.indexOf("/:");
    const whole = magic >= 0;
    const v = this.validator.checkPath("read_file", whole ? path.slice(0, magic) || "." : path, cwd);
    if (!v.ok)
      return v.rule.startsWith("ignoreFile:")
        ? this.note("refusal", v.reason, v.rule)
        : { ok: false, reason: v.reason, rule: v.rule };
    const root = v.path!.realRoot;
    if (!root) return { ok: true }; // outside every root: no ignore file covers it
    const below = stagedIgnored(root, whole ? "" : root.relative, this.validator.ignore, forced, this.facts);
    const file = this.validator.ignore.fileName;
    const shown = whole ? "the whole working tree" : `every file under \`${path}\``;
    if (below.kind === "ignored")
      return this.note(
        "hard-ask",
        `git would copy ${shown} into the repository, including \`${below.relative}\`, which ${file} excludes`,
        `ignoreFile: ${file}`,
      );
    if (below.kind === "too-many")
      return this.note(
        "hard-ask",
        `git would copy ${shown} into the repository: more than ${SCAN_LIMIT} entries, too many to check against ${file}`,
        `ignoreFile: ${file}`,
      );
    return { ok: true };
  }

  /** A directory read for its content is read recursively: it must not reach a denied or ignored file. */
  /**
   * A protected path in the tree `p` (itself, or below it; relative to its root), or `too-many` when the tree
   * is too large to look through. The protected patterns match at any depth, so what a copy of the tree plants
   * is protected where it lands too: finding it at the source is enough.
   */
  private protectedBelow(p: ResolvedPath): string | "too-many" | undefined {
    const root = p.realRoot;
    if (!root) return undefined;
    const at = (relative: string): ResolvedPath => {
      const abs = relative === "" ? root.root : posix.join(root.root, relative);
      const match = { index: root.index, root: root.root, relative };
      return { input: relative, lexical: abs, real: abs, realRoot: match, lexicalRoot: match };
    };
    if (root.relative !== "" && this.protectedPaths.match(at(root.relative))) return root.relative;
    if (this.facts.stat(p.real) !== "dir") return undefined;
    // The walk's "found" result is its `ignored` kind; here it names the protected entry.
    const found = walkBelow(root.root, root.relative, this.facts, (child, e) => {
      if (this.protectedPaths.match(at(child))) return { kind: "ignored", relative: child };
      return e.kind === "dir" ? "descend" : "next";
    });
    if (found.kind === "too-many") return "too-many";
    return found.kind === "ignored" ? found.relative : undefined;
  }

  private recursiveRead(
    path: string,
    p: ResolvedPath,
    followsLinks: boolean,
    filter: ReadFilter | undefined,
  ): PathVerdict | undefined {
    // Only a directory has anything below it (a file, or nothing, reads just itself: checked above).
    if (this.facts.stat(p.real) !== "dir") return undefined;
    const covering = this.denyOrAsk.find((r) => r.tools.includes("read_file") && coversBelow(r, p));
    if (covering)
      return this.note(
        "hard-ask",
        `reads every file under \`${path}\`, which covers the ${covering.effect} rule \`${covering.source}\``,
        `permissions.${covering.effect}: ${covering.source}`,
      );
    const below = ignoredBelow(
      p,
      this.validator.ignore,
      this.facts,
      followsLinks,
      filter && selectionSkips(filter, path, p),
    );
    const file = this.validator.ignore.fileName;
    if (below.kind === "ignored")
      return this.note(
        "hard-ask",
        `reads every file under \`${path}\`, including \`${below.relative}\`, which ${file} excludes`,
        `ignoreFile: ${file}`,
      );
    if (below.kind === "link")
      return this.note(
        "hard-ask",
        `reads every file under \`${path}\`, and \`${below.relative}\` is a link to a directory or outside the workspace, which Toolgate does not follow`,
        `ignoreFile: ${file}`,
      );
    if (below.kind === "too-many")
      return this.note(
        "hard-ask",
        `reads every file under \`${path}\`: more than ${SCAN_LIMIT} entries, too many to check against ${file}`,
        `ignoreFile: ${file}`,
      );
    return undefined;
  }

  checkPattern(pattern: string, cwd: string): PathVerdict {
    const v = checkGlobRead(pattern, cwd, {
      check: (p, c) => this.check(p, c, "read", "names"),
      resolve: (p, c) => {
        const v = this.validator.checkPath("read_file", p, c);
        return v.ok ? v.path : undefined;
      },
      ignore: this.validator.ignore,
      readRules: this.denyOrAsk.some((r) => r.tools.includes("read_file")),
      facts: this.facts,
    });
    // A glob that could match an ignored or rule-protected file is a read of it the analysis cannot rule
    // out: a hard ask in every mode (a refusal when it came from a name the glob matches for sure).
    if (v.ok || this.findings.some((f) => f.rule === v.rule && f.reason === v.reason)) return v;
    if (v.rule.startsWith("autoApprove.") || v.rule === "path:external-read") return v;
    return this.note("hard-ask", v.reason, v.rule);
  }
}

/**
 * Whether the command's path is in the private `/tmp` for a sandboxed command: lexically under `/tmp`, in no
 * root by either spelling (a root under `/tmp` is bound over it), not in the home, and written without `..` (the kernel resolves
 * `..` after links the line itself may make there, so only a plain spelling says where it lands).
 */
function inPrivateTmp(path: string, cwd: string, p: ResolvedPath, home: string): boolean {
  if (p.lexicalRoot !== undefined || p.realRoot !== undefined) return false;
  // A home under `/tmp` is emptied in the sandbox, not private scratch: judged as the home it is.
  if (home === p.lexical || p.lexical.startsWith(home.endsWith("/") ? home : home + "/")) return false;
  const joined = path.startsWith("/") ? path : `${cwd}/${path}`;
  if (/(^|\/)\.\.(\/|$)/.test(joined)) return false;
  return p.lexical === SANDBOX_TMP || p.lexical.startsWith(SANDBOX_TMP + "/");
}

/**
 * The files below the directory `p` (read as `path`) that a reader selecting by `filter` leaves out: those no
 * glob matches in any spelling the reader could match (the path as written, lexical and real, each followed
 * by the part below `p`, and the path relative to the root).
 */
function selectionSkips(filter: ReadFilter, path: string, p: ResolvedPath): Skips {
  const root = p.realRoot;
  const join = (dir: string, below: string) => (below === "" ? dir : `${dir.replace(/\/+$/, "")}/${below}`);
  return {
    key: `${filterKey(filter)}\0${path}\0${p.lexical}`,
    skipped: (relative) => {
      if (!root) return false;
      const below = root.relative === "" ? relative : relative.slice(root.relative.length + 1);
      const spellings = [relative, join(path, below), join(p.lexical, below), join(p.real, below)];
      return !mayRead(filter, spellings);
    },
  };
}

/** Whether a file rule could match something below the directory `p` (minimatch's partial match, each spelling). */
function coversBelow(rule: PermissionRule, p: ResolvedPath): boolean {
  if (!rule.glob) return rule.pattern === undefined;
  const forms = rule.pattern!.startsWith("/")
    ? [p.real, p.lexical]
    : [p.realRoot?.relative, p.lexicalRoot?.relative].filter((f): f is string => f !== undefined);
  return forms.some((f) => f === "" || rule.glob!.match(f.replace(/\/+$/, ""), true));
}

/** Splits permission rules for commands into argv-prefix lists. A bare `Bash` allow rule allows any program (its argument checks still apply). */
export function commandLists(
  rules: readonly PermissionRule[],
  allow: readonly string[],
  deny: readonly string[],
): Pick<CommandContext, "allow" | "deny" | "ask"> {
  const pick = (effect: string) =>
    rules.filter((r) => r.effect === effect && r.tools.includes("execute_command")).map((r) => r.pattern ?? "*");
  return {
    allow: [...allow, ...pick("allow")],
    deny: [...deny, ...pick("deny").filter((p) => p !== "*")],
    ask: pick("ask").filter((p) => p !== "*"),
  };
}
