// What the demo workspace's calls do under the demo profile's settings, decided by the real gate
// (`toolgate check` from dist/cli.js, with this machine's sandbox probe), written to WHAT-RUNS.md in the demo
// workspace each time `npm start` runs — so after choosing a preset in the panel, a restart shows what it lets
// run. Nothing here decides: every line of the table is the CLI's answer.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** Everyday calls in the demo project, and a few that cross a boundary. */
const CALLS = [
  ["read `src/greet.js`", { tool: "read_file", params: { path: "src/greet.js" } }],
  ["`git status`", { tool: "execute_command", params: { command: "git status" } }],
  ["edit `src/greet.js`", { tool: "write_to_file", params: { path: "src/greet.js", content: "// edited\n" } }],
  ["`npm test`", { tool: "execute_command", params: { command: "npm test" } }],
  ["`node --test > report.txt`", { tool: "execute_command", params: { command: "node --test > report.txt" } }],
  [
    "`curl -fsS https://example.com`",
    { tool: "execute_command", params: { command: "curl -fsS https://example.com" } },
  ],
  ["`npm install left-pad`", { tool: "execute_command", params: { command: "npm install left-pad" } }],
  ["`rm src/greet.js`", { tool: "execute_command", params: { command: "rm src/greet.js" } }],
  ["read `.env`", { tool: "read_file", params: { path: ".env" } }],
];

const WORD = { allow: "runs without asking", ask: "asks you", deny: "refused" };

/** Writes WHAT-RUNS.md; returns a one-line summary, or why it could not (the demo still starts). */
export function writeWhatRuns({ cli, workspace, userSettings }) {
  const input = CALLS.map(([, c], i) => JSON.stringify({ id: i, ...c })).join("\n") + "\n";
  const r = spawnSync(process.execPath, [cli, "check", "--user-settings", userSettings, "--workspace", workspace], {
    input,
    encoding: "utf8",
    cwd: workspace,
  });
  if (r.status !== 0) return `could not write WHAT-RUNS.md: toolgate check exited ${r.status}: ${r.stderr.trim()}`;
  const answers = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  const rows = answers.map((a) => {
    const sandboxed = a.decision === "allow" && /sandbox/i.test(a.rule) ? " (in the OS sandbox)" : "";
    return `| ${CALLS[a.id][0]} | **${WORD[a.decision] ?? a.decision}**${sandboxed} | ${a.reason.replace(/\|/g, "\\|")} |`;
  });
  const unasked = answers.filter((a) => a.decision === "allow").length;
  const text = [
    "# What runs without asking here",
    "",
    "Decided by Toolgate's gate (`toolgate check`) with this demo profile's settings as they were when `npm start`",
    "last ran. Choose a preset in the Toolgate panel (the first-run card, or **Toolgate: Choose an Approval",
    "Preset**), then restart `npm start` to see what it lets run.",
    "",
    "| the agent's call | with your settings | why |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
  writeFileSync(join(workspace, "WHAT-RUNS.md"), text);
  return `WHAT-RUNS.md: ${unasked} of ${answers.length} demo calls run without asking under the current settings`;
}
