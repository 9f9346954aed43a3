import { type FormEvent, useId, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { refusalPlaces, Switch, TextField } from "../ui/field.tsx"
import { EVENT_WORDS, EVERY_EVENT, SINGLE_EVENTS } from "./webhook.ts"

/** What the form edits of a webhook. */
export interface WebhookDraft {
  readonly url: string
  readonly description: string
  readonly events: ReadonlyArray<string>
  readonly enabled: boolean
}

export const emptyWebhookDraft = (): WebhookDraft => ({ url: "", description: "", events: [EVERY_EVENT], enabled: true })

/** The events as checkboxes: "Every change", or some of them one by one. */
const EventsPicker = ({ events, onChange, error }: {
  readonly events: ReadonlyArray<string>
  readonly onChange: (events: ReadonlyArray<string>) => void
  readonly error: string | undefined
}) => {
  const errorId = useId()
  const every = events.includes(EVERY_EVENT)
  const toggle = (event: string, on: boolean) => onChange(on ? [...events.filter((one) => one !== EVERY_EVENT), event] : events.filter((one) => one !== event))
  return (
    <fieldset className="events" aria-describedby={error === undefined ? undefined : errorId}>
      <legend>Events</legend>
      <label className="choice">
        <input type="checkbox" checked={every} onChange={(event) => onChange(event.target.checked ? [EVERY_EVENT] : [])} />
        {EVENT_WORDS[EVERY_EVENT]}
      </label>
      {every ? null : SINGLE_EVENTS.map((event) => (
        <label key={event} className="choice">
          <input type="checkbox" checked={events.includes(event)} onChange={(change) => toggle(event, change.target.checked)} />
          <span>{EVENT_WORDS[event as keyof typeof EVENT_WORDS]} <code>{event}</code></span>
        </label>
      ))}
      {error === undefined ? null : <p id={errorId} className="field-error">{error}</p>}
    </fieldset>
  )
}

/**
 * A webhook's URL, description and events, and once it exists its on/off switch. The API judges all of it
 * (a private address, an unknown event, no event at all), shown by the field its `attr` names.
 */
export const WebhookForm = ({ initial, isNew, busy, error, onSave }: {
  readonly initial: WebhookDraft
  readonly isNew: boolean
  readonly busy: boolean
  readonly error: ApiError | undefined
  readonly onSave: (draft: WebhookDraft) => void
}) => {
  const [draft, setDraft] = useState(initial)
  const change = (part: Partial<WebhookDraft>) => setDraft((old) => ({ ...old, ...part }))
  const { errorFor, formError } = refusalPlaces(error, ["url", "description", "events", "enabled"])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSave(draft)
  }
  return (
    <form className="webhook-form" aria-label={isNew ? "New webhook" : "Webhook settings"} onSubmit={submit} noValidate aria-busy={busy}>
      <TextField
        label="Receiver URL"
        name="url"
        type="url"
        value={draft.url}
        onValue={(url) => change({ url })}
        placeholder="https://example.com/hooks/hedgerow"
        hint="http or https; Hedgerow signs each delivery (Standard Webhooks)."
        error={errorFor("url")}
        autoComplete="off"
      />
      <TextField label="Description" name="description" value={draft.description} onValue={(description) => change({ description })} error={errorFor("description")} />
      <EventsPicker events={draft.events} onChange={(events) => change({ events })} error={errorFor("events")} />
      {isNew ? null : <Switch label="Enabled" checked={draft.enabled} onChange={(enabled) => change({ enabled })} error={errorFor("enabled")} />}
      {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
      <button type="submit" className="primary" disabled={busy}>{isNew ? "Add webhook" : "Save"}</button>
    </form>
  )
}
