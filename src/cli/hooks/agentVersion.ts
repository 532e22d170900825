/**
 * The installed agent's version, read from `<bin> --version` (the program given by `--agent-bin`, else the
 * agent's usual name on PATH). Unknown is a valid answer: callers treat it as "not checked", never as a match.
 */
import { FACTS, type AgentName } from "./agentConfigs";
import { findProgram } from "./programs";

export interface AgentVersion {
  readonly bin?: string;
  readonly version?: string;
  /** Why there is no version. */
  readonly why?: string;
}

/** The first `x.y.z` in the text. */
export function parseVersion(text: string): string | undefined {
  return /\b(\d+)\.(\d+)\.(\d+)\b/.exec(text)?.[0];
}

/** Compares dotted numeric versions; missing parts count as 0. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map((n) => Number.parseInt(n, 10) || 0);
  const pb = b.split(".").map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export function agentVersion(
  agent: AgentName,
  given: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<AgentVersion> {
  const name = FACTS[agent].bin;
  const bin = given ?? (name === undefined ? undefined : findProgram([name], env));
  if (bin === undefined) return Promise.resolve({ why: `${name ?? agent} is not on PATH (give --agent-bin)` });
  return new Promise((resolve) => {
    // child_process is loaded when first needed: a hook process that spawns nothing never loads it.
    process
      .getBuiltinModule("node:child_process")
      .execFile(bin, ["--version"], { timeout: 15_000, env, encoding: "utf8" }, (err, stdout, stderr) => {
        const version = parseVersion(`${stdout}\n${stderr}`);
        if (version !== undefined) resolve({ bin, version });
        else resolve({ bin, why: `\`${bin} --version\` printed no version${err ? ` (${err.message})` : ""}` });
      });
  });
}
