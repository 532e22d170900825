/**
 * The auto-approve toggle shortcut: Ctrl+Alt+A (⌥⌘A on macOS). Must match `contributes.keybindings`.
 * Uses `code`, not `key`: Alt changes `key` on macOS ("å").
 */
export function isMac(): boolean {
  return typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

export function isToggleShortcut(
  e: Pick<KeyboardEvent, "code" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey">,
  mac = isMac(),
): boolean {
  if (e.code !== "KeyA" || !e.altKey || e.shiftKey) return false;
  return mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
}
