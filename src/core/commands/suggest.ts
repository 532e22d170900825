/**
 * "Always allow": the narrowest natural rule for one command — the program and its subcommand words
 * (`git log` for `git log --oneline -5`, `npm run build` for `npm run build -- --watch`). Never a bare
 * program that runs other programs (`git`, `npm`, `bash`, `xargs`...), never a rule with a glob.
 */
import type { Word } from "./model";
import { RUNS_OTHERS } from "./catalogue";

/** How many subcommand words to keep after the program, given the first one. */
function depth(program: string, first: string | undefined): number {
  switch (program) {
    case "npm":
    case "pnpm":
    case "yarn":
    case "bun":
      return first === "run" || first === "run-script" || first === "exec" ? 2 : 1;
    case "git":
      return first === "stash" ||
        first === "remote" ||
        first === "worktree" ||
        first === "submodule" ||
        first === "bisect" ||
        first === "config"
        ? 2
        : 1;
    case "docker":
    case "podman":
      return first === "compose" ||
        first === "container" ||
        first === "image" ||
        first === "volume" ||
        first === "network"
        ? 2
        : 1;
    case "kubectl":
      return 2;
    case "python":
    case "python3":
      return first === "-m" ? 2 : 1;
    default:
      return 1;
  }
}

const SUBCOMMAND = /^[A-Za-z0-9][A-Za-z0-9._:@/+-]*$/;

/** Programs whose first word is a subcommand (or a script to run): the rule keeps it. */
const HAS_SUBCOMMANDS = new Set([
  ...RUNS_OTHERS,
  "gh",
  "aws",
  "gcloud",
  "az",
  "terraform",
  "helm",
  "rustup",
  "brew",
  "apt",
  "apt-get",
  "dnf",
  "yum",
  "pipenv",
  "conda",
  "just",
  "task",
  "composer",
  "bundle",
  "rake",
  "rails",
  "mix",
  "flutter",
  "dart",
  "swift",
  "ng",
  "nx",
  "turbo",
  "lerna",
  "vercel",
  "netlify",
  "firebase",
  "heroku",
  "fly",
  "flyctl",
  "wrangler",
  "supabase",
  "prisma",
  "expo",
  "podman",
  "systemctl",
  "journalctl",
  "nvm",
  "volta",
  "corepack",
  "pm2",
  "jest",
  "vitest",
  "playwright",
  "cypress",
  "tox",
  "nox",
  "hatch",
  "pdm",
  "rye",
  "conan",
  "cmake",
  "bazel",
  "buck2",
  "sbt",
  "lein",
  "stack",
  "cabal",
]);

export function suggestRule(argv: readonly Word[]): string | undefined {
  const program = argv[0];
  if (!program?.literal || program.value.includes("*") || /\s/.test(program.value)) return undefined;
  const words = [program.value];
  const want = HAS_SUBCOMMANDS.has(program.value)
    ? depth(program.value, argv[1]?.literal ? argv[1].value : undefined)
    : 0;
  for (let i = 1; i < argv.length && words.length <= want; i++) {
    const w = argv[i]!;
    // `python -m module` keeps the flag; otherwise options end the subcommand.
    const keepFlag =
      i === 1 && w.literal && w.value === "-m" && (program.value === "python" || program.value === "python3");
    if (!w.literal || (!keepFlag && !SUBCOMMAND.test(w.value))) break;
    words.push(w.value);
  }
  if (words.length === 1 && RUNS_OTHERS.has(program.value)) return undefined;
  if (words.length === 2 && words[1] === "-m") return undefined;
  return words.join(" ");
}
