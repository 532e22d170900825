import type { CommandAnalysis, CommandAnalyzer, CommandContext } from "./types";
import { firstMatch, parseCommandRules } from "./prefixRules";

/**
 * The conservative analyzer for shells without a grammar (Windows until a PowerShell grammar lands):
 * only a line of plain words that an allow rule matches exactly may auto-approve. Anything with a shell
 * operator, quote, `$`, backslash, glob or redirect is not understood and asks. Deny holds if any word of
 * the line names a denied program, which over-approximates on purpose.
 */
const PLAIN_LINE = /^[A-Za-z0-9_./:@%+,=-]+(?: [A-Za-z0-9_./:@%+,=-]+)*$/;

export class ExactMatchAnalyzer implements CommandAnalyzer {
  ready(): Promise<void> {
    return Promise.resolve();
  }

  analyze(command: string, ctx: CommandContext): CommandAnalysis {
    const base = { readOnly: false, deletes: false } as const;
    const words = command.split(/[\s;&|()<>`$"'\\]+/).filter((w) => w.length > 0);
    for (const rule of parseCommandRules(ctx.deny)) {
      for (let i = 0; i < words.length; i++) {
        const program = words[i]!.replace(/^.*[/\\]/, "").replace(/\.exe$/i, "");
        if (firstMatch([program, ...words.slice(i + 1)], [rule])) {
          return {
            ...base,
            verdict: "deny",
            reason: `\`${rule.source}\` is denied by your settings`,
            rule: `commands.deny: ${rule.source}`,
          };
        }
      }
    }
    const line = command.trim();
    if (!PLAIN_LINE.test(line)) {
      return {
        ...base,
        verdict: "unparseable",
        reason: "the command uses shell syntax that cannot be analysed on this platform",
        rule: "commands:exact-match",
      };
    }
    const argv = line.split(" ");
    const ask = firstMatch(argv, parseCommandRules(ctx.ask));
    if (ask)
      return {
        ...base,
        verdict: "ask-rule",
        reason: `\`${ask.source}\` always asks`,
        rule: `permissions.ask: Bash(${ask.source})`,
      };
    const allowed = firstMatch(argv, parseCommandRules(ctx.allow));
    if (allowed && allowed.words.length === argv.length && !allowed.words.some((w) => w.includes("*"))) {
      return {
        ...base,
        verdict: "safe",
        reason: `\`${allowed.source}\` is in your allow list`,
        rule: `commands.allow: ${allowed.source}`,
      };
    }
    return {
      ...base,
      verdict: "unsafe",
      reason: `\`${argv[0]}\` is not in your allow list`,
      rule: "commands:not-allowed",
      suggestion: argv.join(" "),
    };
  }
}
