/** Command-line arguments of `toolgate check` / `toolgate explain`. */
export interface CliArgs {
  readonly command: "check" | "explain";
  readonly settingsFile?: string;
  readonly mcpFile?: string;
  readonly workspaces: readonly string[];
  readonly headless: boolean;
  readonly untrusted: boolean;
}

export const USAGE = `usage: toolgate <check|explain> [--settings FILE] [--mcp FILE] [--workspace DIR]... [--headless] [--untrusted]
  reads JSON Lines {"id": any?, "tool": string, "params": object} on stdin;
  check prints one {"id", "decision", "reason", "rule"} line per call, explain prints the decision trace.`;

export class UsageError extends Error {}

export function parseArgs(argv: readonly string[]): CliArgs {
  const [command, ...rest] = argv;
  if (command !== "check" && command !== "explain")
    throw new UsageError(command ? `unknown command \`${command}\`` : "no command given");
  let settingsFile: string | undefined;
  let mcpFile: string | undefined;
  const workspaces: string[] = [];
  let headless = false;
  let untrusted = false;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    const eq = a.indexOf("=");
    const [flag, inline] = a.startsWith("--") && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === "") throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--settings":
        settingsFile = value();
        break;
      case "--mcp":
        mcpFile = value();
        break;
      case "--workspace":
        workspaces.push(value());
        break;
      case "--headless":
        headless = true;
        break;
      case "--untrusted":
        untrusted = true;
        break;
      default:
        throw new UsageError(`unknown option \`${a}\``);
    }
  }
  return {
    command,
    workspaces,
    headless,
    untrusted,
    ...(settingsFile ? { settingsFile } : {}),
    ...(mcpFile ? { mcpFile } : {}),
  };
}
