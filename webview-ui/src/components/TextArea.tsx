/**
 * Multi-line input: a native <textarea> styled with VS Code variables, so it can grow with its content and
 * Enter-to-send is a plain key handler. Everything else uses this component, so a swap stays here.
 */
import { forwardRef, type KeyboardEvent } from "react";

export interface TextAreaProps {
  readonly value: string;
  readonly onChange: (value: string) => void;
  readonly onKeyDown?: (e: KeyboardEvent<HTMLTextAreaElement>) => void;
  readonly label: string;
  readonly placeholder?: string;
  readonly disabled?: boolean;
  readonly rows?: number;
  readonly className?: string;
}

export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { value, onChange, onKeyDown, label, placeholder, disabled, rows = 2, className },
  ref,
) {
  return (
    <textarea
      ref={ref}
      className={`tg-textarea${className ? ` ${className}` : ""}`}
      aria-label={label}
      placeholder={placeholder}
      value={value}
      disabled={disabled}
      rows={rows}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={onKeyDown}
    />
  );
});
