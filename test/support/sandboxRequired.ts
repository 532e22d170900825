import { describe, it } from "vitest";

/**
 * `describe` for suites that need a working OS sandbox. Without one they skip locally (with the reason), but
 * when `CI` is set they FAIL: a CI machine with a missing or broken bubblewrap must not pass by skipping the
 * very tests that check the second layer. `skip`: another reason to skip (a missing curl), never failed.
 */
export function sandboxDescribe(
  sandbox: string | undefined | { readonly available: boolean; readonly reason: string },
  skip = false,
): (name: string, body: () => void) => void {
  const problem = typeof sandbox === "object" ? (sandbox.available ? undefined : sandbox.reason) : sandbox;
  return (name, body) => {
    if (problem === undefined) return skip ? describe.skip(name, body) : describe(name, body);
    if (process.env.CI)
      return describe(name, () => {
        it("has a working OS sandbox (CI: a missing sandbox is a failure, not a skip)", () => {
          throw new Error(`no OS sandbox: ${problem}`);
        });
      });
    return describe.skip(name, body);
  };
}
