/** What every agent's doctor says about the agent's version against the one Toolgate's hook was verified with. */
import { FACTS, type AgentName } from "./agentConfigs";
import { compareVersions } from "./agentVersion";
import { finding, type Finding } from "./doctorCommon";

/** A version outside the tested one's protocol line warns; a newer one within it is only noted. */
export function agentVersionFindings(agent: AgentName, version: string | undefined): Finding[] {
  const { displayName, testedVersion: tested, protocolDigits = 2 } = FACTS[agent];
  if (version === undefined || tested === undefined)
    return [finding("info", "agent-version-unknown", `${displayName}'s version was not checked (give --agent-bin)`)];
  const line = (v: string): string => v.split(".").slice(0, protocolDigits).join(".");
  const against = `${tested}, the version Toolgate was verified with`;
  if (line(version) !== line(tested))
    return [
      finding("warn", "agent-version", `${displayName} ${version}: its hook protocol may differ from ${against}`),
    ];
  if (compareVersions(version, tested) > 0)
    return [finding("info", "agent-version-newer", `${displayName} ${version} is newer than ${against}`)];
  return [];
}
