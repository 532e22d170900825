import { realpathSync } from "node:fs";

/** The path with every link resolved (the kernel's reading), or undefined when it does not resolve. */
export function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/** The resolved path, or `p` itself as written when it does not resolve (yet). */
export function realpathOr(p: string): string {
  return realpathOrUndefined(p) ?? p;
}
