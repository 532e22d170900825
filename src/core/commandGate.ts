import type { CommandContext, PathAccess, PathGate, PathVerdict } from "./commands/types";
import type { ProtectedPaths } from "./protectedPaths";
import type { WorkspacePaths } from "./paths";
import { ruleMatches, type PermissionRule } from "./permissionRules";
import type { ToolValidator } from "./validator";
import { ignoredBelow, SCAN_LIMIT, type BelowResult } from "./ignoredBelow";
import type { ResolvedPath } from "./paths";
import { gitCheck } from "./gitRepository";
import { checkGlobRead } from "./globIgnoreOverlap";

/**
 * Builds what the command analysis needs from the gate's own pieces, so that a command's file effects pass
 * exactly the path gate the file tools pass: `cat .env` is refused like `read_file(.env)`, and `> ~/.bashrc`
 * is held like `write_to_file(~/.bashrc)`.
 */
export interface FileSwitches {
  readonly readLocal: boolean;
  readonly readExternal: boolean;
  readonly editLocal: boolean;
  readonly editExternal: boolean;
}

export class CommandPathGate implements PathGate {
  /** Per task, like the other path caches: a directory's scan is done once. */
  private readonly below = new WeakMap<ResolvedPath, BelowResult>();
  private readonly belowNoFollow = new WeakMap<ResolvedPath, BelowResult>();

  constructor(
    private readonly paths: WorkspacePaths,
    private readonly validator: ToolValidator,
    private readonly protectedPaths: ProtectedPaths,
    private readonly denyOrAsk: readonly PermissionRule[],
    private readonly switches: FileSwitches,
  ) {}

  check(
    path: string,
    cwd: string,
    access: PathAccess,
    kind: "content" | "content-nofollow" | "names" | "git-repository" | "git-history" = "content",
  ): PathVerdict {
    const tool = access === "read" ? "read_file" : "write_to_file";
    const v = this.validator.checkPath(tool, path, cwd);
    if (!v.ok) return { ok: false, reason: v.reason, rule: v.rule };
    const p = v.path!;
    const rule = this.denyOrAsk.find((r) => ruleMatches(r, { tool, path: p }, false));
    if (rule)
      return {
        ok: false,
        reason: `\`${path}\` matches the ${rule.effect} rule \`${rule.source}\``,
        rule: `permissions.${rule.effect}: ${rule.source}`,
      };
    const local = p.realRoot !== undefined;
    if (kind === "git-repository" || kind === "git-history") return gitCheck(p, path, kind, this.validator.ignore);
    if (access === "write") {
      const prot = this.protectedPaths.match(p);
      if (prot) return { ok: false, reason: `writes to a protected path: ${path}`, rule: `protected: ${prot}` };
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
    if (!local && !(this.switches.readLocal && this.switches.readExternal))
      return { ok: false, reason: `reads outside the workspace: ${path}`, rule: "path:external-read" };
    if (local && !this.switches.readLocal)
      return {
        ok: false,
        reason: `reads a file (${path}) and reading files is not auto-approved`,
        rule: "autoApprove.readFiles",
      };
    if (kind === "content" || kind === "content-nofollow") {
      // A directory read for its content is read recursively: it must not reach what the ignore file excludes.
      const follows = kind === "content";
      const cache = follows ? this.below : this.belowNoFollow;
      let below = cache.get(p);
      if (!below) {
        below = ignoredBelow(p, this.validator.ignore, follows);
        cache.set(p, below);
      }
      const file = this.validator.ignore.fileName;
      if (below.kind === "ignored")
        return {
          ok: false,
          reason: `reads every file under \`${path}\`, including \`${below.relative}\`, which ${file} excludes`,
          rule: `ignoreFile: ${file}`,
        };
      if (below.kind === "link")
        return {
          ok: false,
          reason: `reads every file under \`${path}\`, and \`${below.relative}\` is a link to a directory or outside the workspace, which Toolgate does not follow`,
          rule: `ignoreFile: ${file}`,
        };
      if (below.kind === "too-many")
        return {
          ok: false,
          reason: `reads every file under \`${path}\`: more than ${SCAN_LIMIT} entries, too many to check against ${file}`,
          rule: `ignoreFile: ${file}`,
        };
    }
    return { ok: true };
  }

  checkPattern(pattern: string, cwd: string): PathVerdict {
    return checkGlobRead(pattern, cwd, {
      check: (p, c) => this.check(p, c, "read", "names"),
      resolve: (p, c) => {
        const v = this.validator.checkPath("read_file", p, c);
        return v.ok ? v.path : undefined;
      },
      ignore: this.validator.ignore,
      readRules: this.denyOrAsk.some((r) => r.tools.includes("read_file")),
    });
  }
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
