/**
 * Our radio group: native radios sharing one name, so arrow keys move between the options as in any
 * browser, drawn as VS Code's radios (controls.css).
 */
import { useId } from "react";

export interface RadioOption<T extends string> {
  readonly value: T;
  readonly label: string;
}

export interface RadioGroupProps<T extends string> {
  readonly label: string;
  readonly value: T;
  readonly options: readonly RadioOption<T>[];
  readonly onChange: (value: T) => void;
  readonly disabled?: boolean;
  readonly orientation?: "horizontal" | "vertical";
}

export function RadioGroup<T extends string>({
  label,
  value,
  options,
  onChange,
  disabled,
  orientation = "horizontal",
}: RadioGroupProps<T>) {
  const id = useId();
  return (
    <div
      role="radiogroup"
      aria-labelledby={`${id}-label`}
      aria-disabled={disabled ? "true" : undefined}
      className={`tg-radio-group tg-radio-${orientation}`}
    >
      <span id={`${id}-label`} className="tg-radio-group-label">
        {label}
      </span>
      {options.map((o) => (
        <label key={o.value} className={`tg-radio${disabled ? " tg-disabled" : ""}`}>
          <input
            type="radio"
            className="tg-radio-input"
            name={id}
            value={o.value}
            checked={o.value === value}
            disabled={disabled}
            onChange={() => {
              if (o.value !== value) onChange(o.value);
            }}
          />
          <span className="tg-radio-box" aria-hidden="true" />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}
