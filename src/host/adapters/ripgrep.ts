/** search_files with the ripgrep VS Code ships (under `vscode.env.appRoot`), else the pure-JS fallback. */
import * as vscode from "vscode";
import type { AgentFs, Searcher } from "../../agent/env";
import { JsSearcher } from "../../agent/node/jsSearcher";
import { findVscodeRipgrep, RipgrepSearcher } from "../../agent/node/ripgrepSearcher";

export function vscodeSearcher(fs: AgentFs): Searcher {
  const local = (vscode.workspace.workspaceFolders ?? []).every((f) => f.uri.scheme === "file");
  const rg = local ? findVscodeRipgrep(vscode.env.appRoot) : undefined;
  return rg ? new RipgrepSearcher(rg) : new JsSearcher(fs);
}
