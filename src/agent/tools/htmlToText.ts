/**
 * HTML to Markdown-ish text for web_fetch. turndown (and the DOM implementation it brings) is most of its
 * size, so this file is its own bundle (dist/htmlToText.js, see esbuild.mjs) loaded only when a page is fetched.
 */
import TurndownService from "turndown";

export function htmlToText(html: string): string {
  const td = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  td.remove(["script", "style", "noscript", "iframe", "head"]);
  td.remove((node) => (node as unknown as { readonly nodeName: string }).nodeName.toLowerCase() === "svg");
  // Only the body is content; the head (title, scripts, styles) is not.
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html.replace(/<head[\s\S]*?<\/head>/i, "");
  return td
    .turndown(body)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
