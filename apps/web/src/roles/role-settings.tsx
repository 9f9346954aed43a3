import { type FormEvent, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { inContext, refusalPlaces, SelectField, TextField } from "../ui/field.tsx"
import { ACCESS_OPTIONS, type Role, type RoleChanges } from "./role.ts"

const FIELDS = ["name", "feature_flags_access_level"] as const

/** A role's name and flag access, to change; a save sends only what differs from what the API holds. */
export const RoleSettings = ({ role, busy, error, onSave }: {
  readonly role: Role
  readonly busy: boolean
  readonly error: ApiError | undefined
  readonly onSave: (changes: RoleChanges) => void
}) => {
  const [name, setName] = useState(role.name)
  const [access, setAccess] = useState(String(role.feature_flags_access_level))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const level = Number(access) as 21 | 37
    onSave({
      ...(name === role.name ? {} : { name }),
      ...(level === role.feature_flags_access_level ? {} : { feature_flags_access_level: level })
    })
  }
  const { errorFor, formError } = refusalPlaces(error, FIELDS)
  return (
    <form className="role-settings" aria-label={`Settings of ${role.name}`} onSubmit={submit} noValidate>
      <TextField label={inContext(role.name, "Name")} autoComplete="off" value={name} onValue={setName} error={errorFor("name")} />
      <SelectField
        label={inContext(role.name, "Feature flags")}
        options={ACCESS_OPTIONS}
        value={access}
        onValue={setAccess}
        error={errorFor("feature_flags_access_level")}
      />
      {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
      <div><button type="submit" disabled={busy}>Save<span className="visually-hidden"> {role.name}</span></button></div>
    </form>
  )
}
