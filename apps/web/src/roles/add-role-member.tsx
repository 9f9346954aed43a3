import { type FormEvent, useId, useState } from "react"
import { asApiError, request } from "../api/client.ts"
import { MEMBERS_PATH } from "../members/paths.ts"
import { inContext, TextField } from "../ui/field.tsx"
import { type Role, ROLE_MEMBERSHIPS_PATH } from "./role.ts"

/** A member of the organization as the form knows them: enough to name and add them. */
export interface Candidate {
  readonly email: string
  readonly uuid: string
}

/**
 * Adds a member of the organization to the role, named by e-mail. The organization's first members are
 * offered as suggestions; any other address is looked up among the members (the API's `email` filter),
 * since the role takes a member by their user's uuid.
 */
export const AddRoleMember = ({ organizationId, role, candidates, onAdded }: {
  readonly organizationId: string
  readonly role: Role
  readonly candidates: ReadonlyArray<Candidate>
  readonly onAdded: (email: string) => Promise<void>
}) => {
  const suggestions = useId()
  const [email, setEmail] = useState("")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const inRole = new Set(role.members.map((member) => member.user.uuid))

  const uuidOf = async (address: string): Promise<string | undefined> => {
    const known = candidates.find((candidate) => candidate.email.toLowerCase() === address.toLowerCase())
    if (known !== undefined) return known.uuid
    const found = await request("GET", MEMBERS_PATH, { params: { organization_id: organizationId }, query: { email: address } })
    return found.results[0]?.user.uuid
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    setError(undefined)
    if (address === "") {
      setError("Give the e-mail address of a member of the organization.")
      return
    }
    setBusy(true)
    uuidOf(address)
      .then(async (user_uuid) => {
        if (user_uuid === undefined) {
          setError(`No member of the organization has the address ${address}.`)
          return
        }
        await request("POST", ROLE_MEMBERSHIPS_PATH, { params: { organization_id: organizationId, role_id: role.id }, payload: { user_uuid } })
        setEmail("")
        await onAdded(address)
      })
      .catch((cause: unknown) => setError(asApiError(cause).detail))
      .finally(() => setBusy(false))
  }

  return (
    <form className="inline-form" aria-label={`Add a member to ${role.name}`} onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        label={inContext(role.name, "Add a member")}
        type="email"
        autoComplete="off"
        placeholder="teammate@example.com"
        hint="Their e-mail address; they must be a member of the organization."
        list={suggestions}
        value={email}
        onValue={setEmail}
        error={error}
        announce
      />
      <datalist id={suggestions}>
        {candidates.filter((candidate) => !inRole.has(candidate.uuid)).map((candidate) => <option key={candidate.uuid} value={candidate.email} />)}
      </datalist>
      <button type="submit" disabled={busy}>Add<span className="visually-hidden"> to {role.name}</span></button>
    </form>
  )
}
