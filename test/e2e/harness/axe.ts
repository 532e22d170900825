/**
 * Accessibility checks inside the Toolgate webview with axe-core (a devDependency, read from node_modules at
 * run time). The script is evaluated through the DevTools protocol, which the webview's Content Security
 * Policy does not govern, so nothing is loosened in the product for the test.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";

export interface ContrastViolation {
  readonly text: string;
  readonly ratio?: number;
  readonly expected?: string;
  readonly fg?: string;
  readonly bg?: string;
}

export interface ContrastReport {
  /** Text nodes axe measured (passes and violations). */
  readonly checked: number;
  readonly violations: readonly ContrastViolation[];
  /** Nodes axe could not measure, with its reason (for example, obscured by another element). */
  readonly unmeasured: readonly string[];
}

let source: string | undefined;

async function inject(frame: Frame, repoRoot: string): Promise<void> {
  if (await frame.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === "object")) return;
  source ??= readFileSync(join(repoRoot, "node_modules", "axe-core", "axe.min.js"), "utf8");
  await frame.evaluate(`${source}\n;void 0;`);
}

/**
 * Runs axe's color-contrast rule (WCAG AA: 4.5:1 for normal text) on the elements matching `selector`
 * (default: the whole document) and returns every violation with its colours and ratio.
 */
export async function checkContrast(frame: Frame, repoRoot: string, selector?: string): Promise<ContrastReport> {
  await inject(frame, repoRoot);
  return frame.evaluate(async (sel) => {
    interface AxeNode {
      target: unknown[];
      html: string;
      any: Array<{
        data?: { contrastRatio?: number; expectedContrastRatio?: string; fgColor?: string; bgColor?: string };
      }>;
    }
    interface AxeResult {
      violations: Array<{ nodes: AxeNode[] }>;
      passes: Array<{ nodes: AxeNode[] }>;
      incomplete: Array<{ nodes: Array<AxeNode & { any: Array<{ message?: string }> }> }>;
    }
    const axe = (
      globalThis as unknown as {
        axe: { run(ctx: unknown, opts: unknown): Promise<AxeResult> };
      }
    ).axe;
    const context = sel ? { include: [[sel]] } : document;
    const r = await axe.run(context, { runOnly: { type: "rule", values: ["color-contrast"] } });
    const text = (n: AxeNode) => {
      const el = document.querySelector(String(n.target[0]));
      return (el?.textContent ?? n.html).replace(/\s+/g, " ").trim().slice(0, 80);
    };
    return {
      unmeasured: r.incomplete.flatMap((v) => v.nodes.map((n) => `"${text(n)}": ${n.any[0]?.message ?? "unknown"}`)),
      checked: r.passes.reduce((k, p) => k + p.nodes.length, 0) + r.violations.reduce((k, v) => k + v.nodes.length, 0),
      violations: r.violations.flatMap((v) =>
        v.nodes.map((n) => {
          const d = n.any[0]?.data ?? {};
          return {
            text: text(n),
            ...(d.contrastRatio !== undefined ? { ratio: d.contrastRatio } : {}),
            ...(d.expectedContrastRatio ? { expected: d.expectedContrastRatio } : {}),
            ...(d.fgColor ? { fg: d.fgColor } : {}),
            ...(d.bgColor ? { bg: d.bgColor } : {}),
          };
        }),
      ),
    };
  }, selector);
}

/**
 * Checks each element matching `selector` on its own, scrolled into view first (a pill scrolled out of the
 * list cannot be measured), and merges the reports.
 */
export async function checkEachInView(frame: Frame, repoRoot: string, selector: string): Promise<ContrastReport> {
  const all = frame.locator(selector);
  const n = await all.count();
  const out = { checked: 0, violations: [] as ContrastViolation[], unmeasured: [] as string[] };
  for (let i = 0; i < n; i++) {
    const el = all.nth(i);
    await el.scrollIntoViewIfNeeded().catch(() => undefined);
    await el.evaluate((e) => e.setAttribute("data-axe-target", ""));
    const r = await checkContrast(frame, repoRoot, "[data-axe-target]");
    await el.evaluate((e) => e.removeAttribute("data-axe-target"));
    out.checked += r.checked;
    out.violations.push(...r.violations);
    out.unmeasured.push(...r.unmeasured);
  }
  return out;
}

export function describeViolations(v: readonly ContrastViolation[]): string {
  return v
    .map((x) => `"${x.text}" ${x.fg ?? "?"} on ${x.bg ?? "?"} = ${x.ratio ?? "?"}:1 (needs ${x.expected ?? "4.5:1"})`)
    .join("; ");
}
