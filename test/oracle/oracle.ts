/**
 * The execution oracle: decide each line under every profile with the real gate, run the lines some profile
 * allows in the sandbox (once: execution does not depend on the profile), and judge each allow against what
 * bash did. Lines that every profile asks about or denies are never run.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { CommandAnalysis } from "../../src/core/commands/types";
import type { Decision } from "../../src/core/types";
import type { Generated, Family } from "./generators";
import { judge, type Execution, type Violation } from "./judge";
import { profileGates, type ProfileGate } from "./profiles";
import { parseLog, showRecord } from "./records";
import { compileShim, Sandbox } from "./sandbox";
import { diff, sentinelsRead, snapshot, type Snapshot } from "./snapshot";

export interface Finding {
  readonly line: string;
  readonly family: Family;
  readonly profile: string;
  readonly decision: Decision;
  readonly analysis: CommandAnalysis;
  readonly violations: readonly Violation[];
  /** What bash ran and did, for the reproduction. */
  readonly ran: readonly string[];
  readonly effects: readonly string[];
  readonly listed: readonly string[];
}

export interface OracleReport {
  readonly lines: number;
  readonly executed: number;
  /** Per profile: lines allowed. */
  readonly allowed: Readonly<Record<string, number>>;
  /** Everyday lines, and how many of them the defaults profile allowed. */
  readonly everyday: { readonly total: number; readonly allowedByDefaults: number };
  readonly timedOut: number;
  readonly findings: readonly Finding[];
  readonly ms: number;
}

interface Worker {
  readonly sandbox: Sandbox;
  readonly gates: readonly ProfileGate[];
  baseline: Snapshot;
}

const CALL = (command: string) => ({ tool: "execute_command", params: { command } });

export class Oracle {
  private constructor(
    private readonly workers: Worker[],
    private readonly tmp: string,
  ) {}

  static async create(jobs: number): Promise<Oracle> {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "oracle-shim-"));
    const shim = compileShim(tmp);
    const workers: Worker[] = [];
    for (let i = 0; i < jobs; i++) {
      const sandbox = Sandbox.create(shim);
      await sandbox.warmUp();
      const gates = await profileGates(sandbox.layout.ws, sandbox.layout.home);
      sandbox.restore();
      workers.push({ sandbox, gates, baseline: snapshot(sandbox.layout) });
    }
    return new Oracle(workers, tmp);
  }

  async run(lines: readonly Generated[], timeoutMs = 5000): Promise<OracleReport> {
    const started = Date.now();
    const findings: Finding[] = [];
    const allowed: Record<string, number> = {};
    for (const g of this.workers[0]!.gates) allowed[g.name] = 0;
    let executed = 0;
    let timedOut = 0;
    let everydayAllowed = 0;
    // Every line is decided before any runs, on the pristine workspace, by the worker that will run it (line
    // i on worker i mod jobs): decisions then never depend on what earlier lines did or on timing.
    const work = async (w: Worker, k: number) => {
      const mine = lines.filter((_, i) => i % this.workers.length === k);
      const decisions = mine.map((g) =>
        w.gates.map((pg) => {
          pg.analyzer.take();
          const decision = pg.gate.decide(CALL(g.line));
          if (decision.decision === "allow") allowed[pg.name]!++;
          return { pg, decision, capture: pg.analyzer.take() };
        }),
      );
      for (const [i, g] of mine.entries()) {
        const decided = decisions[i]!;
        if (g.family === "everyday" && decided[0]!.decision.decision === "allow") everydayAllowed++;
        const allows = decided.filter((d) => d.decision.decision === "allow" && d.capture);
        if (allows.length === 0) continue;
        executed++;
        const res = await w.sandbox.run(g.line, timeoutMs);
        if (res.timedOut) timedOut++;
        const layout = w.sandbox.layout;
        const changes = diff(w.baseline, snapshot(layout), layout);
        const read = sentinelsRead(layout);
        const records = parseLog(res.log);
        const exec: Execution = {
          records,
          changes,
          read,
          stdout: res.stdout,
          stderr: res.stderr,
          timedOut: res.timedOut,
        };
        for (const { pg, decision, capture } of allows) {
          const violations = judge({
            decision,
            capture: capture!,
            exec,
            layout,
            deny: pg.deny,
            readDenied: pg.readDenied,
          });
          if (violations.length === 0) continue;
          const hide = (t: string) => t.replaceAll(w.sandbox.dir, "$SANDBOX");
          findings.push({
            line: g.line,
            family: g.family,
            profile: pg.name,
            decision,
            analysis: capture!.analysis,
            violations: violations.map((v) => ({ ...v, detail: hide(v.detail) })),
            ran: records.map((r) => hide(showRecord(r))),
            effects: [
              ...changes.map((c) => hide(`${c.change} ${c.path}`)),
              ...read.map((s) => `read ${s.path}`),
              ...(res.timedOut ? ["timed out"] : []),
            ],
            listed: capture!.listed.map(
              (l) => `${l.via}: ${l.words.map((x) => x.value.replaceAll("\u0000", "…")).join(" ")}`,
            ),
          });
        }
        if (changes.length > 0 || read.length > 0) {
          w.sandbox.undo(changes.map((c) => c.host));
          w.baseline = snapshot(layout);
        }
      }
    };
    await Promise.all(this.workers.map((w, k) => work(w, k)));
    return {
      lines: lines.length,
      executed,
      allowed,
      everyday: { total: lines.filter((l) => l.family === "everyday").length, allowedByDefaults: everydayAllowed },
      timedOut,
      findings,
      ms: Date.now() - started,
    };
  }

  /** Each profile's decision on one line (the first sandbox's gates), without running it. */
  decisions(line: string): { profile: string; decision: Decision; analysis: CommandAnalysis | undefined }[] {
    return this.workers[0]!.gates.map((pg) => {
      pg.analyzer.take();
      const decision = pg.gate.decide(CALL(line));
      return { profile: pg.name, decision, analysis: pg.analyzer.take()?.analysis };
    });
  }

  dispose(): void {
    for (const w of this.workers) w.sandbox.dispose();
    fs.rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** A minimal reproduction of one finding, as printed by the test and written to FINDINGS.md. */
export function reproduction(f: Finding): string {
  return [
    `line:     ${JSON.stringify(f.line)}`,
    `profile:  ${f.profile} (family ${f.family})`,
    `gate:     ${f.decision.decision} — ${f.decision.reason} [${f.decision.rule}]; analysis ${f.analysis.verdict}${f.analysis.readOnly ? " read-only" : ""}${f.analysis.deletes ? " deletes" : ""}`,
    `listed:   ${f.listed.join(" | ") || "(nothing)"}`,
    `ran:      ${f.ran.join("\n          ") || "(no program)"}`,
    `effects:  ${f.effects.join(", ") || "(none)"}`,
    `violates: ${f.violations.map((v) => `${v.kind}: ${v.detail}`).join("; ")}`,
  ].join("\n");
}
