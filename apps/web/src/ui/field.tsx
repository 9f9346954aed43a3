import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes, useEffect, useId, useRef } from "react"
import type { Envelope } from "../api/client.ts"

/** What every field's control is given: its id, and its error's description when there is one. */
interface Described {
  readonly id: string
  readonly "aria-invalid": true | undefined
  readonly "aria-describedby": string | undefined
}

/**
 * A labelled control, with the API's error for it (the field its `attr` names) beside it, tied to the
 * control so that a screen reader reads it with the field. When the error shows while nothing has the
 * focus (the button that sent the form was disabled meanwhile), the control takes it, and the error is
 * read with it: the keyboard goes on from the field to fix.
 */
const Field = ({ label, error, hint, announce, control }: {
  readonly label: ReactNode
  readonly error: string | undefined
  readonly hint?: string | undefined
  readonly announce?: boolean | undefined
  readonly control: (described: Described) => ReactNode
}) => {
  const id = useId()
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const describedBy = [hint === undefined ? undefined : hintId, error === undefined ? undefined : errorId]
    .filter((part) => part !== undefined).join(" ")
  const field = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (error === undefined || (document.activeElement !== null && document.activeElement !== document.body)) return
    field.current?.querySelector<HTMLElement>("input, select, textarea")?.focus()
  }, [error])
  return (
    <div className="field" ref={field}>
      <label htmlFor={id}>{label}</label>
      {control({ id, "aria-invalid": error === undefined ? undefined : true, "aria-describedby": describedBy === "" ? undefined : describedBy })}
      {hint === undefined ? null : <p id={hintId} className="hint">{hint}</p>}
      {error === undefined ? null : <p id={errorId} role={announce === true ? "alert" : undefined} className="field-error">{error}</p>}
    </div>
  )
}

interface FieldProps {
  /** Words, or `inContext` for one of several alike. */
  readonly label: ReactNode
  readonly error?: string | undefined
  readonly hint?: string | undefined
  readonly onValue: (value: string) => void
}

/** `announce`: the error is read out as it appears, for a form whose one field every refusal is about. */
export const TextField = ({ label, error, hint, announce, onValue, ...input }:
  & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "onChange">
  & FieldProps
  & { readonly announce?: boolean | undefined }) => (
  <Field
    label={label}
    error={error}
    hint={hint}
    announce={announce}
    control={(described) => <input {...input} {...described} onChange={(event) => onValue(event.target.value)} />}
  />
)

export const TextAreaField = ({ label, error, hint, onValue, ...textarea }:
  & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "onChange">
  & FieldProps) => (
  <Field
    label={label}
    error={error}
    hint={hint}
    control={(described) => <textarea {...textarea} {...described} onChange={(event) => onValue(event.target.value)} />}
  />
)

/**
 * A label short on screen whose hidden context, read first, makes it unique among its like: a group's
 * legend shows where a control stands, but is no part of the control's own name ("Condition 1 filter 2
 * Property", shown as "Property").
 */
export const inContext = (context: string, words: string): ReactNode => (
  <>
    <span className="visually-hidden">{context} </span>
    {words}
  </>
)

/** A labelled select of `options` (value and words). */
export const SelectField = ({ label, error, hint, onValue, options, ...select }:
  & Omit<SelectHTMLAttributes<HTMLSelectElement>, "id" | "onChange">
  & FieldProps
  & { readonly options: ReadonlyArray<readonly [value: string, words: string]> }) => (
  <Field
    label={label}
    error={error}
    hint={hint}
    control={(described) => (
      <select {...select} {...described} onChange={(event) => onValue(event.target.value)}>
        {options.map(([value, words]) => <option key={value} value={value}>{words}</option>)}
      </select>
    )}
  />
)

/** A labelled on/off switch (a checkbox announced as a switch). */
export const Switch = ({ label, checked, onChange, error }: {
  readonly label: string
  readonly checked: boolean
  readonly onChange: (checked: boolean) => void
  readonly error: string | undefined
}) => {
  const id = useId()
  return (
    <div className="field switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
      />
      <label htmlFor={id}>{label}</label>
      {error === undefined ? null : <p id={`${id}-error`} className="field-error">{error}</p>}
    </div>
  )
}

/**
 * Where a form shows the API's refusal: by the field its `attr` names when the form has that field,
 * else above the form's button.
 */
export const refusalPlaces = <F extends string>(error: Envelope | undefined, fields: ReadonlyArray<F>) => ({
  errorFor: (field: F): string | undefined => (error?.attr === field ? error.detail : undefined),
  formError: error !== undefined && !fields.some((field) => field === error.attr) ? error.detail : undefined
})
