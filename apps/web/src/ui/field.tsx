import { type InputHTMLAttributes, useId } from "react"

/**
 * A labelled input, with the API's error for it (the field its `attr` names) beside it, tied to the
 * input so that a screen reader reads it with the field.
 */
export const TextField = ({ label, error, onValue, ...input }:
  & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "onChange">
  & { readonly label: string; readonly error?: string | undefined; readonly onValue: (value: string) => void }) =>
{
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        {...input}
        onChange={(event) => onValue(event.target.value)}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={error === undefined ? undefined : errorId}
      />
      {error === undefined ? null : <p id={errorId} className="field-error">{error}</p>}
    </div>
  )
}
