import { VSCodeDivider } from "@vscode/webview-ui-toolkit/react";

export function Divider() {
  return <VSCodeDivider role="separator" />;
}
