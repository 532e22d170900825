/**
 * The execution oracle (test/oracle): generated lines decided by the real gate under five settings profiles;
 * each line some profile allows runs in real bash inside a bubblewrap sandbox whose every program is a
 * logging shim; an allowed line must run only what the gate listed, write only what it decided, and read no
 * ignored, denied or (when allowed as safe) outside file.
 *
 * ORACLE_RUNS (lines, default 500), ORACLE_SEED, ORACLE_JOBS (sandboxes in parallel, default 2),
 * ORACLE_LINE (one line: print what each profile decided and any violation), ORACLE_FINDINGS=1 (three runs
 * united: rewrite test/oracle/FINDINGS.md and write the KNOWN_VIOLATIONS entries to /tmp/oracle-known.txt).
 */
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findingsMarkdown, knownViolationsSource } from "../../oracle/findingsReport";
import { FIND_LINES, generateLines } from "../../oracle/generators";
import { mutation } from "../../oracle/instrument";
import { Oracle, reproduction, type Finding, type OracleReport } from "../../oracle/oracle";
import { bwrapProblem } from "../../oracle/sandbox";
import type * as Catalogue from "../../../src/core/commands/catalogue/index";
import { sandboxDescribe } from "../../support/sandboxRequired";

// Every catalogue entry goes through the recorder (and the mutation switch): see test/oracle/instrument.ts.
vi.mock("../../../src/core/commands/catalogue/index", async (importOriginal) => {
  const original = await importOriginal<typeof Catalogue>();
  const { instrumentEntry } = await import("../../oracle/instrument");
  return { ...original, catalogueEntry: (p: string) => instrumentEntry(p, original.catalogueEntry(p)) };
});

const RUNS = Number(process.env.ORACLE_RUNS ?? 500);
const SEED = Number(process.env.ORACLE_SEED ?? 20261201);
const JOBS = Number(process.env.ORACLE_JOBS ?? 2);
/** Share of everyday lines the defaults profile must allow (measured: 44 of 48, 0.92). */
const EVERYDAY_ALLOWED = 0.85;

/**
 * Violations on today's main, tolerated (and printed) until the command-analysis fixes land: exact line and
 * profile, never a pattern. Empty it as the fixes merge; in the default sample an entry that no longer violates
 * fails the run.
 */
const KNOWN_VIOLATIONS: readonly { readonly profile: string; readonly line: string }[] = [
  // KNOWN-BEGIN
  // KNOWN-END
];

const key = (profile: string, line: string) => `${profile}\u0000${line}`;

function unite(a: OracleReport, b: OracleReport): OracleReport {
  const seen = new Set(a.findings.map((f) => key(f.profile, f.line)));
  return { ...a, findings: [...a.findings, ...b.findings.filter((f) => !seen.has(key(f.profile, f.line)))] };
}
const problem = bwrapProblem();

sandboxDescribe(problem)("execution oracle", () => {
  let oracle: Oracle;
  beforeAll(async () => {
    oracle = await Oracle.create(JOBS);
  }, 120_000);
  afterAll(() => oracle?.dispose());

  it.runIf(process.env.ORACLE_LINE !== undefined)(
    "one line (ORACLE_LINE)",
    async () => {
      const line = process.env.ORACLE_LINE!;
      for (const d of oracle.decisions(line))
        console.log(
          `${d.profile}: ${d.decision.decision} [${d.decision.rule}] ${d.analysis?.verdict ?? ""} ${d.decision.reason}`,
        );
      const report = await oracle.run([{ line, family: "everyday" }]);
      for (const f of report.findings) console.log(reproduction(f));
    },
    60_000,
  );

  it.skipIf(process.env.ORACLE_LINE !== undefined)(
    "an allowed line runs only what the gate listed, writes only what it decided, reads no protected file",
    async () => {
      const lines = generateLines(RUNS, SEED);
      let report = await oracle.run(lines);
      // Writing the findings: a few runs, united, so that a line that violates only when it wins a race
      // (a pipe's reader exiting early) is listed too.
      for (let i = 1; process.env.ORACLE_FINDINGS && i < 3; i++) report = unite(report, await oracle.run(lines));
      const allowedShare = report.everyday.allowedByDefaults / Math.max(1, report.everyday.total);
      console.log(
        `oracle: ${report.lines} lines, ${report.executed} run in bash in ${report.ms} ms; allowed per profile ${JSON.stringify(report.allowed)}; everyday allowed by defaults ${report.everyday.allowedByDefaults}/${report.everyday.total}; ${report.timedOut} timed out; ${report.findings.length} violating (line, profile) pairs`,
      );
      if (process.env.ORACLE_FINDINGS) {
        writeFileSync("test/oracle/FINDINGS.md", findingsMarkdown(report, SEED));
        writeFileSync("/tmp/oracle-known.txt", knownViolationsSource(report));
      }
      const known = new Set(KNOWN_VIOLATIONS.map((k) => key(k.profile, k.line)));
      const tolerated: Finding[] = [];
      const fresh: Finding[] = [];
      for (const f of report.findings) (known.has(key(f.profile, f.line)) ? tolerated : fresh).push(f);
      if (tolerated.length > 0)
        console.warn(
          `ORACLE: ${tolerated.length} KNOWN violations still present (tolerated until the fixes land; see test/oracle/FINDINGS.md):\n` +
            tolerated
              .map((f) => `  [${f.profile}] ${JSON.stringify(f.line)} — ${f.violations.map((v) => v.kind).join(", ")}`)
              .join("\n"),
        );
      const found = new Set(report.findings.map((f) => key(f.profile, f.line)));
      const stale = KNOWN_VIOLATIONS.filter((k) => !found.has(key(k.profile, k.line)));
      // The list is made for the default sample: there, an entry that no longer violates must be removed, so the
      // list never tolerates a line nobody checks any more.
      if (RUNS === 500 && SEED === 20261201)
        expect(
          stale.map((k) => `[${k.profile}] ${k.line}`),
          "KNOWN_VIOLATIONS entries that no longer violate: remove them",
        ).toEqual([]);
      expect(fresh.map(reproduction)).toEqual([]);
      // A gate that asks about everything would pass the check above: the everyday lines must run unasked.
      expect(allowedShare).toBeGreaterThanOrEqual(EVERYDAY_ALLOWED);
    },
    600_000,
  );

  it.skipIf(process.env.ORACLE_LINE !== undefined)(
    "turns red when one catalogue check is removed (find's -exec commands no longer judged)",
    async () => {
      const lines = FIND_LINES.map((line) => ({ line, family: "find" as const }));
      const before = new Map(lines.map((l) => [l.line, oracle.decisions(l.line)]));
      mutation.program = "find";
      let report;
      try {
        report = await oracle.run(lines);
      } finally {
        mutation.program = undefined;
      }
      // Violations the mutation caused: on lines the real gate does not allow under that profile.
      const caused = report.findings.filter(
        (f) => before.get(f.line)?.find((d) => d.profile === f.profile)?.decision.decision !== "allow",
      );
      console.log(
        `oracle mutation run: ${caused.length} violations caused by removing find's -exec check, e.g.\n${caused[0] ? reproduction(caused[0]) : ""}`,
      );
      expect(caused.length).toBeGreaterThan(0);
    },
    300_000,
  );
});

describe.runIf(problem !== undefined)("execution oracle (skipped)", () => {
  it.skip(`needs bubblewrap: ${problem} — .ci/run installs it (apt-get install bubblewrap)`, () => {});
});
