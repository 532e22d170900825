/**
 * Our button. Backed by the toolkit's <vscode-button>; every other file uses this, so swapping the toolkit is
 * one folder. Icon-only buttons must pass `label` (the accessible name).
 */
import type { ReactNode } from "react";
import { VSCodeButton } from "@vscode/webview-ui-toolkit/react";
import { Icon } from "./Icon";

export interface ButtonProps {
  readonly children?: ReactNode;
  readonly onClick?: () => void;
  readonly appearance?: "primary" | "secondary" | "icon";
  readonly disabled?: boolean;
  /** Accessible name; required when there is no text child. */
  readonly label?: string;
  readonly title?: string;
  readonly icon?: string;
  readonly className?: string;
}

export function Button({
  children,
  onClick,
  appearance = "primary",
  disabled,
  label,
  title,
  icon,
  className,
}: ButtonProps) {
  return (
    <VSCodeButton
      appearance={appearance}
      disabled={disabled}
      onClick={disabled ? undefined : onClick}
      aria-label={label}
      title={title ?? label}
      className={className}
    >
      {icon && appearance !== "icon" ? <Icon name={icon} slot="start" /> : null}
      {icon && appearance === "icon" ? <Icon name={icon} /> : null}
      {children}
    </VSCodeButton>
  );
}
