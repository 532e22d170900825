/**
 * The webview's HTML. Pure (no `vscode`), so the CSP and escaping are unit-tested.
 *
 * CSP: nothing by default; scripts only with this load's nonce; styles and fonts only from the extension's
 * own webview resources (`cspSource`): no inline `<style>` element or style attribute is allowed, so injected
 * markup cannot restyle the panel (hide a card's text, fake a button). Bootstrap data goes into an HTML-escaped
 * `data-bootstrap` attribute, never into an inline script, so no inline script is ever allowed.
 */
import type { WebviewBootstrap } from "../shared/protocol";

export interface WebviewHtmlInput {
  readonly cspSource: string;
  readonly nonce: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly codiconUri: string;
  readonly bootstrap: WebviewBootstrap;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
}

export function renderWebviewHtml(input: WebviewHtmlInput): string {
  const e = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${e(contentSecurityPolicy(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${e(input.codiconUri)}">
<link rel="stylesheet" href="${e(input.styleUri)}">
<title>Toolgate</title>
</head>
<body>
<div id="root" data-bootstrap="${e(JSON.stringify(input.bootstrap))}"></div>
<script type="module" nonce="${e(input.nonce)}" src="${e(input.scriptUri)}"></script>
</body>
</html>`;
}
