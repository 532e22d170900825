/**
 * `toolgate hook install …` and `toolgate hook doctor …`: the set-up side of the hooks, reached from the top of
 * `toolgate hook`'s main (src/cli/hook.ts). Unlike `toolgate hook <agent>`, these are ordinary commands: usage
 * errors exit 2, doctor exits 1 when something fails open.
 */
import { UsageError } from "../args";
import type { CliIo } from "../command";
import { doctorMain, DOCTOR_USAGE } from "./doctor";
import { installMain, INSTALL_USAGE } from "./install";

export function isHookAdmin(sub: string | undefined): sub is "install" | "doctor" {
  return sub === "install" || sub === "doctor";
}

export async function hookAdminMain(sub: "install" | "doctor", argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return sub === "install" ? await installMain(argv, io) : await doctorMain(argv, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr.write(`toolgate hook ${sub}: ${e.message}\n${sub === "install" ? INSTALL_USAGE : DOCTOR_USAGE}\n`);
    return 2;
  }
}
