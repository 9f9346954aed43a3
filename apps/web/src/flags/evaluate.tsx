import { type FormEvent, useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { TextAreaField, TextField } from "../ui/field.tsx"
import { isRecord } from "./flag.tsx"

const PATH = "/api/projects/:project_id/feature_flags/:id/test_evaluation/"
type Details = NonNullable<Success<"POST", typeof PATH>["flag"]>

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
 * The flag evaluated for a person as an SDK would have it from `/flags?v=2`, reason and payload included,
 * whichever runtime (server or client) the flag is evaluated in. It asks the flag's `test_evaluation/`,
 * which evaluates as `/flags` does but marks nothing as called: trying a flag here is not a use of it,
 * so its usage and "Last evaluated" stay the SDKs' alone.
 */
export const EvaluatePanel = ({ projectId, flagId }: { readonly projectId: string; readonly flagId: string }) => {
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
    request("POST", PATH, {
      params: { project_id: projectId, id: flagId },
      payload: { distinct_id: distinctId, person_properties }
    }).then(
      (answer) => {
        setOutcome(answer.flag === null
          ? { status: "absent", errors: answer.errorsWhileComputingFlags }
          : { status: "answered", details: answer.flag })
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
