/** Finding a program the way a shell would, as an absolute path (install records it; doctor checks it). */
import { accessSync, constants, statSync } from "node:fs";
import * as path from "node:path";

/** An executable file on PATH (or one of the fallback folders), as an absolute path. */
export function findProgram(
  names: readonly string[],
  env: NodeJS.ProcessEnv,
  fallbacks: readonly string[] = [],
): string | undefined {
  const dirs = (env.PATH ?? "").split(path.delimiter).filter((d) => path.isAbsolute(d));
  for (const name of names)
    for (const dir of [...dirs, ...fallbacks]) {
      const p = path.join(dir, name);
      if (isExecutableFile(p)) return p;
    }
  return undefined;
}

export function isExecutableFile(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}
