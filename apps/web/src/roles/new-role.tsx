import { type FormEvent, useState } from "react"
import { request } from "../api/client.ts"
import { refusalPlaces, SelectField, TextField } from "../ui/field.tsx"
import { useWrite } from "../ui/writes.ts"
import { ACCESS_OPTIONS, ROLES_PATH } from "./role.ts"

const FIELDS = ["name", "feature_flags_access_level"] as const

/** Makes a role: a name and what its members may do with feature flags (by default, edit every one, as the API's default). */
export const NewRole = ({ organizationId, refresh, onMade }: {
  readonly organizationId: string
  readonly refresh: () => Promise<void>
  readonly onMade: (name: string) => void
}) => {
  const [name, setName] = useState("")
  const [access, setAccess] = useState("37")
  const { busy, error, run } = useWrite()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const payload = { name, feature_flags_access_level: Number(access) as 21 | 37 }
    run(async () => {
      const made = await request("POST", ROLES_PATH, { params: { organization_id: organizationId }, payload })
      await refresh()
      setName("")
      onMade(made.name)
    })
  }
  const { errorFor, formError } = refusalPlaces(error, FIELDS)
  return (
    <section aria-labelledby="new-role-heading" className="form-section">
      <h2 id="new-role-heading">New role</h2>
      <form className="invite-form" onSubmit={submit} noValidate aria-busy={busy}>
        <TextField label="Name" name="name" autoComplete="off" value={name} onValue={setName} error={errorFor("name")} />
        <SelectField
          label="Feature flags"
          name="feature_flags_access_level"
          options={ACCESS_OPTIONS}
          value={access}
          onValue={setAccess}
          error={errorFor("feature_flags_access_level")}
        />
        {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
        <div><button type="submit" className="primary" disabled={busy}>Create role</button></div>
      </form>
    </section>
  )
}
