import { type FormEvent, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { SelectField, TextAreaField } from "../ui/field.tsx"
import { levelOptions } from "./levels.ts"
import { BULK_INVITES_PATH, organizationPrefix } from "./paths.ts"

/** The addresses pasted, one a line, blank lines left out. */
const addressesOf = (text: string): Array<string> => text.split("\n").map((line) => line.trim()).filter((line) => line !== "")

/**
 * Where a bulk refusal's words go. The API names an item by its index (`2__target_email`, or `2` for the
 * item as a whole): the level's words go by the level, the rest by the addresses, saying which one.
 */
const placeOf = (error: ApiError, addresses: ReadonlyArray<string>): { readonly at: "addresses" | "level" | "form"; readonly words: string } => {
  const [index, field] = (error.attr ?? "").split("__")
  const address = /^\d+$/.test(index ?? "") ? addresses[Number(index)] : undefined
  if (address === undefined) return { at: "form", words: error.detail }
  if (field === "level") return { at: "level", words: error.detail }
  return { at: "addresses", words: `${address}: ${error.detail}` }
}

/** Many invites at once, all at one level: the API creates them all or none. */
export const BulkInviteForm = ({ organizationId, callerLevel }: { readonly organizationId: string; readonly callerLevel: number | null }) => {
  const [text, setText] = useState("")
  const [level, setLevel] = useState("1")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ReturnType<typeof placeOf> | undefined>(undefined)
  const [done, setDone] = useState("")

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const addresses = addressesOf(text)
    setBusy(true)
    setError(undefined)
    setDone("")
    const payload = addresses.map((target_email) => ({ target_email, level: Number(level) as 1 | 8 | 15 }))
    request("POST", BULK_INVITES_PATH, { params: { organization_id: organizationId }, payload }).then(
      () => {
        setBusy(false)
        setText("")
        setDone(`${addresses.length} ${addresses.length === 1 ? "address is" : "addresses are"} invited.`)
        invalidate(organizationPrefix(organizationId, "invites"))
      },
      (cause: unknown) => {
        setBusy(false)
        setError(placeOf(asApiError(cause), addresses))
      }
    )
  }

  return (
    <section aria-labelledby="bulk-heading" className="form-section">
      <h2 id="bulk-heading">Invite several</h2>
      <form className="invite-form" onSubmit={submit} noValidate aria-busy={busy}>
        <TextAreaField
          label="Email addresses"
          name="addresses"
          rows={5}
          hint="One a line, at most 20."
          value={text}
          onValue={setText}
          error={error?.at === "addresses" ? error.words : undefined}
        />
        <SelectField
          label="Level of each"
          options={levelOptions(callerLevel)}
          value={level}
          onValue={setLevel}
          error={error?.at === "level" ? error.words : undefined}
        />
        {error?.at === "form" ? <p role="alert" className="form-error">{error.words}</p> : null}
        <div><button type="submit" className="primary" disabled={busy}>Invite all</button></div>
      </form>
      <p role="status" className="notice">{done}</p>
    </section>
  )
}
