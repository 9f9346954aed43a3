import { type FormEvent, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { TextAreaField, TextField } from "../ui/field.tsx"
import { isRecord } from "./flag.tsx"

type Answer = Success<"POST", "/flags/">
type Details = Extract<Answer, { readonly flags: unknown }>["flags"][string]

type Outcome =
  | { readonly status: "answered"; readonly details: Details }
  | { readonly status: "absent"; readonly errors: boolean }

/** The stored payload (JSON text) shown as JSON, text that is not JSON as is. */
const payloadShown = (payload: unknown): string => {
  if (payload === null || payload === undefined) return "None"
  if (typeof payload !== "string") return JSON.stringify(payload, null, 2)
  try {
    return JSON.stringify(JSON.parse(payload), null, 2)
  } catch {
    return payload
  }
}

/**
 * The flag evaluated for a person as an SDK would have it, by `POST /flags/?v=2` with the project's public
 * token (as `hedgerow flags evaluate` asks it): what the SDKs get, reason and payload included, whichever
 * runtime (server or client) the flag is evaluated in.
 */
export const EvaluatePanel = ({ flagKey, token }: { readonly flagKey: string; readonly token: string }) => {
  const [distinctId, setDistinctId] = useState("")
  const [properties, setProperties] = useState("{}")
  const [propertiesError, setPropertiesError] = useState<string | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    let person_properties: unknown
    try {
      person_properties = properties.trim() === "" ? {} : JSON.parse(properties)
    } catch (cause) {
      setPropertiesError(`Not valid JSON: ${cause instanceof Error ? cause.message : String(cause)}`)
      return
    }
    if (!isRecord(person_properties)) {
      setPropertiesError("Person properties are a JSON object, such as {\"plan\": \"pro\"}.")
      return
    }
    setPropertiesError(undefined)
    setError(undefined)
    setBusy(true)
    request("POST", "/flags/", {
      query: { v: "2" },
      // Runtime `all`: a browser's request would otherwise count as a client's and leave out a server-only flag.
      payload: { token, distinct_id: distinctId, person_properties, flag_keys_to_evaluate: [flagKey], evaluation_runtime: "all" }
    }).then(
      (answer) => {
        // `v=2` answers the v2 shape; an own key only, so a flag key such as `constructor` is not read off the prototype.
        const details = "flags" in answer && Object.hasOwn(answer.flags, flagKey) ? answer.flags[flagKey] : undefined
        setOutcome(details === undefined
          ? { status: "absent", errors: "errorsWhileComputingFlags" in answer && answer.errorsWhileComputingFlags }
          : { status: "answered", details })
      },
      (cause: unknown) => {
        setOutcome(undefined)
        setError(asApiError(cause))
      }
    ).finally(() => setBusy(false))
  }

  return (
    <section aria-labelledby="evaluate-title">
      <h2 id="evaluate-title">Test evaluation</h2>
      <form onSubmit={submit} noValidate aria-busy={busy} className="evaluate-form">
        <TextField
          label="Distinct ID"
          value={distinctId}
          onValue={setDistinctId}
          error={error?.attr === "distinct_id" ? error.detail : undefined}
        />
        <TextAreaField
          label="Person properties (JSON)"
          value={properties}
          onValue={setProperties}
          error={propertiesError ?? (error?.attr === "person_properties" ? error.detail : undefined)}
          rows={4}
        />
        {error === undefined || error.attr === "distinct_id" || error.attr === "person_properties"
          ? null
          : <p role="alert" className="form-error">{error.detail}</p>}
        <button type="submit" className="primary" disabled={busy}>Evaluate</button>
      </form>
      <div role="status" aria-label="Evaluation result">
        {outcome === undefined ? null : outcome.status === "absent"
          ? (
            <p>
              {outcome.errors
                ? "The flag could not be evaluated: the server reported errors while computing flags."
                : "Not evaluated: only active flags are, and this one is not."}
            </p>
          )
          : (
            <dl className="details evaluation">
              <dt>Value</dt>
              <dd>{outcome.details.variant ?? String(outcome.details.enabled)}</dd>
              <dt>Variant</dt>
              <dd>{outcome.details.variant ?? "None"}</dd>
              <dt>Payload</dt>
              <dd><pre>{payloadShown(outcome.details.metadata.payload)}</pre></dd>
              <dt>Reason</dt>
              <dd>{outcome.details.reason.description} ({outcome.details.reason.code})</dd>
            </dl>
          )}
      </div>
    </section>
  )
}
