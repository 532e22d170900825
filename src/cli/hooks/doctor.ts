/**
 * `toolgate hook doctor <agent> [--project DIR] [--managed FILE] [--agent-bin PATH] [--json]`: reads the
 * agent's installed configuration (managed/system, user, project) and reports everything that would let a
 * call through unchecked or switch Toolgate's hook off. Exit 0 when nothing fails open, 1 otherwise.
 */
import * as path from "node:path";
import { UsageError } from "../args";
import type { CliIo } from "../command";
import { AGENTS, FACTS, type AgentName } from "./agentConfigs";
import { agentVersion } from "./agentVersion";
import { codexPreToolUseHooks } from "./codexHooks";
import type { DoctorContext, Finding } from "./doctorCommon";
import { doctorClaudeCode, doctorGemini } from "./doctorJsonAgents";
import { doctorCline, doctorCodex, doctorCursor } from "./doctorOtherAgents";
import { runningCli } from "./install";

export const DOCTOR_USAGE = `usage: toolgate hook doctor <agent> [--project DIR] [--managed FILE] [--agent-bin PATH] [--json]
  agents: ${AGENTS.join(", ")}
  Reports what would make the agent skip Toolgate's hook or let a call through: the hook missing, its
  command not found, no wrapper or a stale one, a timeout the wrapper can outlast, settings that turn hooks
  off (a project's disableAllHooks, CLAUDE_CODE_SIMPLE, hooksConfig.enabled…), an agent version whose
  protocol differs. --managed names the agent's managed/system settings file (default: the agent's own
  system path). Exit 0 when nothing fails open, 1 otherwise.`;

const CHECKS: Readonly<Record<AgentName, (ctx: DoctorContext) => Finding[]>> = {
  "claude-code": doctorClaudeCode,
  "gemini-cli": doctorGemini,
  cline: doctorCline,
  codex: doctorCodex,
  cursor: doctorCursor,
};

export function runDoctor(agent: AgentName, ctx: DoctorContext): { failsOpen: boolean; findings: Finding[] } {
  const findings = CHECKS[agent](ctx);
  return { failsOpen: findings.some((f) => f.level === "fails-open"), findings };
}

function parseDoctorArgs(argv: readonly string[]): {
  agent: AgentName;
  dir?: string;
  managed?: string;
  agentBin?: string;
  json: boolean;
} {
  let agent: string | undefined;
  const values: Record<string, string> = {};
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--json") json = true;
    else if (a === "--project" || a === "--managed" || a === "--agent-bin") {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      values[a] = v;
    } else if (a.startsWith("-")) throw new UsageError(`unknown option \`${a}\``);
    else if (agent === undefined) agent = a;
    else throw new UsageError(`unexpected argument \`${a}\``);
  }
  if (agent === undefined || !(AGENTS as readonly string[]).includes(agent))
    throw new UsageError(`name the agent: ${AGENTS.join(", ")}`);
  return {
    agent: agent as AgentName,
    json,
    ...(values["--project"] !== undefined ? { dir: values["--project"] } : {}),
    ...(values["--managed"] !== undefined ? { managed: values["--managed"] } : {}),
    ...(values["--agent-bin"] !== undefined ? { agentBin: values["--agent-bin"] } : {}),
  };
}

const LABEL = { "fails-open": "FAILS OPEN", warn: "warning", info: "note" } as const;

export async function doctorMain(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    io.stdout.write(DOCTOR_USAGE + "\n");
    return 0;
  }
  const a = parseDoctorArgs(argv);
  const v = await agentVersion(a.agent, a.agentBin, io.env);
  let cli: string | undefined;
  try {
    cli = runningCli();
  } catch {
    cli = undefined;
  }
  const ctx: DoctorContext = {
    env: io.env,
    dir: path.resolve(io.cwd, a.dir ?? "."),
    ...(a.managed !== undefined ? { managedFile: path.resolve(io.cwd, a.managed) } : {}),
    ...(cli !== undefined ? { cli } : {}),
    ...(v.version !== undefined ? { version: v.version } : {}),
  };
  const codexHooks =
    a.agent === "codex" && v.bin !== undefined ? await codexPreToolUseHooks(v.bin, ctx.dir, io.env) : undefined;
  const r = runDoctor(a.agent, codexHooks !== undefined ? { ...ctx, codexHooks } : ctx);
  if (a.json) {
    io.stdout.write(
      JSON.stringify({ agent: a.agent, version: v.version ?? null, failsOpen: r.failsOpen, findings: r.findings }) +
        "\n",
    );
  } else {
    const name = FACTS[a.agent].displayName;
    io.stdout.write(
      `${name}${v.version !== undefined ? ` ${v.version}` : ""}: ${r.failsOpen ? "Toolgate's hook can be bypassed" : "nothing fails open"}\n`,
    );
    for (const f of r.findings) io.stdout.write(`  ${LABEL[f.level]}: ${f.message} [${f.code}]\n`);
  }
  return r.failsOpen ? 1 : 0;
}
