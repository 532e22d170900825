/** "Always allow": the narrowest natural rule, checked to really allow the command. */
import { beforeAll, describe, expect, it } from "vitest";
import type { BashAnalyzer } from "../../../src/core/commands/analyzer";
import { context, loadedAnalyzer } from "./helpers";

let a: BashAnalyzer;
beforeAll(async () => {
  a = await loadedAnalyzer();
});

describe("suggestions", () => {
  it.each([
    ["git commit -m 'x'", "git commit"],
    ["git stash pop", "git stash pop"],
    ["npm run build -- --watch", "npm run build"],
    ["npm test", "npm test"],
    ["npm install lodash", "npm install"],
    ["npx vitest run", "npx vitest"],
    ["cargo build --release", "cargo build"],
    ["docker compose up -d", "docker compose up"],
    ["python3 -m pytest -x", "python3 -m pytest"],
    ["node scripts/build.js", "node scripts/build.js"],
    ["make test", "make test"],
    ["pytest -x tests", "pytest"],
    ["curl -s https://example.com", "curl"],
    ["./gradlew build", "./gradlew"],
    ["cd pkg && npm test", "npm test"],
    ["npm test && npm test -- --coverage", "npm test"],
    ["mkdir -p build", "mkdir"],
    // What a payload or wrapper runs is what needs the rule.
    ["bash -c 'wget x'", "wget"],
    ["xargs wget", "wget"],
    ["timeout 5 make build", "make build"],
    ["bash scripts/ci.sh", "bash scripts/ci.sh"],
  ])("%j → %j", (command, suggestion) => {
    const r = a.analyze(command, context());
    expect(r.verdict).toBe("unsafe");
    expect(r.suggestion).toBe(suggestion);
    // The suggestion really allows it.
    expect(a.analyze(command, context({ allow: [suggestion] })).verdict).toBe("safe");
  });

  it.each([
    "git",
    "npm",
    "bash",
    "python",
    "npm test && npm run lint",
    "wget x; curl y",
    "rm -rf build",
    "cat .env",
    "echo x > ~/.bashrc",
    "find . -delete",
    "git -c core.pager=sh log",
    "PAGER=sh git log",
    "$x",
  ])("no single rule for %j", (command) => {
    expect(a.analyze(command, context()).suggestion).toBeUndefined();
  });
});
