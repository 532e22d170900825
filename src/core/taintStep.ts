/**
 * The gate's untrusted-content step (DESIGN step 3, "sending data out after untrusted content entered the
 * task"): a hard ask, so it holds in every mode, auto and approve-all included. It reads the task's sources
 * from the call's facts (the task gives them on every decision) and nothing else about the task.
 */
import type { CommandAnalysis } from "./commands/types";
import { ask, type Trace } from "./decisionSteps";
import { egressDestination, namesDestination } from "./egress";
import type { CallSubject, RuleIndex } from "./permissionRules";
import type { ResolvedCall } from "./resolvedCall";
import type { ToolgateSettings } from "./settingsModel";
import { describeSources, UNTRUSTED_CONTENT_RULE, untrustedContentReason } from "./taint";
import type { CallFacts, Decision } from "./types";

export function untrustedContentStep(
  index: RuleIndex,
  settings: ToolgateSettings,
  subject: CallSubject,
  resolved: ResolvedCall,
  analysis: CommandAnalysis | undefined,
  facts: CallFacts | undefined,
  trace: Trace,
): Decision | undefined {
  const sources = [...new Set((facts?.taintedBy ?? []).filter((s) => typeof s === "string" && s !== ""))].sort();
  if (sources.length === 0) {
    trace.note("3 untrusted content", "the task has read no untrusted content");
    return undefined;
  }
  const destination = egressDestination({
    tool: resolved.tool,
    ...(resolved.url ? { url: resolved.url } : {}),
    ...(resolved.mcp ? { mcp: resolved.mcp } : {}),
    ...(resolved.command ? { command: resolved.command } : {}),
    ...(analysis ? { verdict: analysis.verdict } : {}),
    ...(facts?.commandSandboxed !== undefined ? { commandSandboxed: facts.commandSandboxed } : {}),
  });
  const from = describeSources(sources);
  if (destination === undefined) {
    trace.note("3 untrusted content", `tainted by ${from}; this call sends nothing out`);
    return undefined;
  }
  if (settings.untrustedContent === "off") {
    trace.note("3 untrusted content", `tainted by ${from}; toolgate.untrustedContent is off`);
    return undefined;
  }
  // Only a rule that names this destination lets it through; a rule for the whole tool is a switch.
  const named = index.find("allow", subject, true, (r) => !namesDestination(r));
  if (named) {
    trace.note("3 untrusted content", `tainted by ${from}; \`${named.source}\` names ${destination}`);
    return undefined;
  }
  trace.note("3 untrusted content", `tainted by ${from}; ${destination} is a way out`);
  return { ...ask(untrustedContentReason(sources, destination), UNTRUSTED_CONTENT_RULE), taintedBy: sources };
}
