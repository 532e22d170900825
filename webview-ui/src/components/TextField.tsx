/**
 * Our single-line field, backed by <vscode-text-field>. `onCommit` fires on change (Enter or blur), not per
 * keystroke, so a setting is written once per edit.
 */
import { VSCodeTextField } from "@vscode/webview-ui-toolkit/react";
import type { ReactNode } from "react";

export interface TextFieldProps {
  readonly value: string;
  readonly onCommit: (value: string) => void;
  readonly children: ReactNode;
  readonly disabled?: boolean;
  readonly placeholder?: string;
  readonly size?: number;
  readonly invalid?: string;
}

export function TextField({ value, onCommit, children, disabled, placeholder, size, invalid }: TextFieldProps) {
  return (
    <VSCodeTextField
      value={value}
      disabled={disabled}
      placeholder={placeholder}
      size={size}
      aria-invalid={invalid ? "true" : undefined}
      title={invalid}
      onChange={(e: Event | React.FormEvent) => onCommit((e.target as HTMLInputElement).value)}
    >
      {children}
    </VSCodeTextField>
  );
}
