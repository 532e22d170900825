import * as vscode from "vscode";
import type { FsFacts } from "../../core/fsFacts";
import { watchedFacts, type WatchedFacts } from "../../agent/node/watchedFacts";

/**
 * The file-system facts of the host's gates (core/fsFacts.ts): one cache per set of workspace roots, shared by
 * every task and every gate rebuilt for them, and kept true by two watchers:
 * - `fs.watch` per directory the cache keeps facts in (agent/node/watchedFacts.ts). The cache needs a watch
 *   that is in place BEFORE its system call, and Node's inotify watch is set up synchronously; VS Code's
 *   `FileSystemWatcher` runs in a separate watcher process and starts asynchronously, so it alone cannot give
 *   that guarantee (nor does its recursive workspace watch report what `files.watcherExclude` excludes, such
 *   as `node_modules` and `.git/objects`).
 * - VS Code's workspace watcher on top: every create, change or delete it reports is forgotten too (changes
 *   made through other file system providers, or an inotify watch that could not be set up reach us this way).
 * A new set of roots (a folder added or removed) starts a new cache.
 */
export class HostFsFacts implements vscode.Disposable {
  private current: { readonly key: string; readonly watched: WatchedFacts; readonly vs: vscode.Disposable } | undefined;

  forRoots(roots: readonly string[]): FsFacts {
    const key = roots.join("\0");
    if (this.current?.key === key) return this.current.watched.facts;
    this.dispose();
    const watched = watchedFacts(roots);
    const w = vscode.workspace.createFileSystemWatcher("**/*");
    const forget = (u: vscode.Uri) => {
      if (u.scheme === "file") watched.facts.changed(u.fsPath);
      else watched.facts.changedAll();
    };
    w.onDidCreate(forget);
    w.onDidChange(forget);
    w.onDidDelete(forget);
    this.current = { key, watched, vs: w };
    return watched.facts;
  }

  dispose(): void {
    this.current?.vs.dispose();
    this.current?.watched.close();
    this.current = undefined;
  }
}
