import { type FormEvent, useState } from "react"
import { type ApiError, asApiError } from "../api/client.ts"
import { TextAreaField, TextField } from "./field.tsx"

/**
 * A form of one field beside its button that adds something (a group type by name, persons by distinct
 * id): emptied once `add` is done, the API's refusal shown by the field when its `attr` names it, else
 * above the button. `multiline` takes several values, one a line.
 */
export const AddOneForm = ({ label, name, attr, hint, placeholder, button, multiline = false, add }: {
  readonly label: string
  /** The form's name, for a screen reader's list of forms. */
  readonly name: string
  /** The API's name for the field, as a refusal's `attr` gives it. */
  readonly attr: string
  readonly hint?: string | undefined
  readonly placeholder?: string | undefined
  readonly button: string
  readonly multiline?: boolean
  /** Sends the value; resolves once the page shows what was added. */
  readonly add: (value: string) => Promise<void>
}) => {
  const [value, setValue] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    add(value)
      .then(() => setValue(""), (cause: unknown) => setError(asApiError(cause)))
      .finally(() => setBusy(false))
  }
  const field = { label, name: attr, value, onValue: setValue, hint, placeholder, error: error?.attr === attr ? error.detail : undefined }
  return (
    <form className="inline-form add-one" aria-label={name} onSubmit={submit} noValidate>
      {multiline ? <TextAreaField {...field} /> : <TextField {...field} />}
      <button type="submit" className="primary" disabled={busy}>{button}</button>
      {error === undefined || error.attr === attr ? null : <p role="alert" className="form-error">{error.detail}</p>}
    </form>
  )
}
