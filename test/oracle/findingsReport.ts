/**
 * FINDINGS.md: the allowed lines that misbehaved, grouped by family, with the reproduction of each; and the
 * `KNOWN_VIOLATIONS` entries (exact line + profile) for the oracle test.
 */
import type { Finding, OracleReport } from "./oracle";
import { reproduction } from "./oracle";

export function findingsMarkdown(report: OracleReport, seed: number): string {
  const byFamily = new Map<string, Finding[]>();
  for (const f of report.findings) byFamily.set(f.family, [...(byFamily.get(f.family) ?? []), f]);
  const distinct = new Set(report.findings.map((f) => f.line)).size;
  const out = [
    "# Execution-oracle findings",
    "",
    "Allowed lines that bash showed doing what the gate did not decide (see test/oracle/judge.ts for the rules).",
    `Seed ${seed}, ${report.lines} lines, ${report.executed} run in bash; ${report.findings.length} violating`,
    `(line, profile) pairs on ${distinct} distinct lines. Reproduce one: \`ORACLE_LINE='<line>' npx vitest run`,
    "test/integration/commands/oracle.test.ts` prints what the gate said and what bash ran under every profile.",
    "",
    "| family | pairs | lines | kinds |",
    "|---|---|---|---|",
  ];
  for (const [family, fs] of [...byFamily].sort((a, b) => b[1].length - a[1].length)) {
    const kinds = new Map<string, number>();
    for (const f of fs) for (const v of new Set(f.violations.map((x) => x.kind))) kinds.set(v, (kinds.get(v) ?? 0) + 1);
    out.push(
      `| ${family} | ${fs.length} | ${new Set(fs.map((f) => f.line)).size} | ${[...kinds].map(([k, n]) => `${k} ${n}`).join(", ")} |`,
    );
  }
  for (const [family, fs] of byFamily) {
    out.push("", `## ${family}`, "");
    const byLine = new Map<string, Finding[]>();
    for (const f of fs) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f]);
    for (const [line, group] of byLine) {
      const profiles = group.map((f) => `${f.profile} (${[...new Set(f.violations.map((v) => v.kind))].join(", ")})`);
      out.push(`- \`\` ${JSON.stringify(line)} \`\` — ${profiles.join("; ")}`, "", "  ```");
      for (const l of reproduction(group[0]!).split("\n")) out.push(`  ${l}`);
      out.push("  ```", "");
    }
  }
  return out.join("\n") + "\n";
}

export function knownViolationsSource(report: OracleReport): string {
  const seen = new Set<string>();
  const rows: string[] = [];
  for (const f of report.findings) {
    const key = `${f.profile}\u0000${f.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(`  { profile: ${JSON.stringify(f.profile)}, line: ${JSON.stringify(f.line)} },`);
  }
  return rows.join("\n");
}
