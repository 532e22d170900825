/**
 * Our button: a native <button> styled with VS Code's button colours (controls.css). Every other file uses
 * this, so the look is one folder. Icon-only buttons must pass `label` (the accessible name).
 */
import type { ReactNode } from "react";
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
  /** The id of the element that says what the button acts on (`aria-describedby`). */
  readonly describedBy?: string;
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
  describedBy,
}: ButtonProps) {
  return (
    <button
      type="button"
      className={`tg-button tg-button-${appearance}${className ? ` ${className}` : ""}`}
      disabled={disabled}
      onClick={disabled ? undefined : onClick}
      aria-label={label}
      aria-describedby={describedBy}
      title={title ?? label}
    >
      {icon ? <Icon name={icon} /> : null}
      {children}
    </button>
  );
}
