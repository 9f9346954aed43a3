import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { Confirmation, useConfirmation } from "../ui/confirm-dialog.tsx"
import { inContext, Switch, TextAreaField, TextField } from "../ui/field.tsx"
import { LeaveQuestion, useUnsavedGuard } from "../ui/unsaved.tsx"
import {
  type Draft,
  type DraftGroup,
  type DraftVariant,
  newGroup,
  newProperty,
  newVariant,
  payloadErrors,
  sameDraft,
  splitEvenly
} from "./draft.ts"
import { PropertyFilterEditor } from "./property-filter.tsx"
import { type RiskyChange, riskyChanges } from "./risky-changes.ts"
import type { Suggestions } from "./suggestions.ts"

/**
 * Where the API's refusal is shown: by the field its `attr` names; a refusal of `filters` by the
 * variants when it is about them or their payloads, else by the release conditions; anything else
 * above the button.
 */
type Place = "key" | "name" | "active" | "tags" | "conditions" | "variants" | "form"
const placeOf = (error: ApiError): Place => {
  const field = error.attr?.split("__")[0]
  if (field === "filters") return /variant|payload/i.test(error.detail) ? "variants" : "conditions"
  return field === "key" || field === "name" || field === "active" || field === "tags" ? field : "form"
}

/** A percentage typed: a number from 0 to 100, an empty or unreadable field read as 0. */
const percentOf = (text: string): number => {
  const value = Number(text)
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0
}

/** A rollout percentage as a slider and, beside it, a number to type (30 is typed, not slid to). */
const Rollout = ({ name, value, onChange }: { readonly name: string; readonly value: number; readonly onChange: (value: number) => void }) => {
  const id = useId()
  return (
    <div className="field rollout">
      <label htmlFor={id}>{inContext(name, "Rollout")}</label>
      <input id={id} type="range" min={0} max={100} step={1} value={value} onChange={(event) => onChange(Number(event.target.value))} />
      <span className="rollout-number">
        <input
          type="number"
          min={0}
          max={100}
          value={String(value)}
          aria-label={`${name} Rollout percentage`}
          onChange={(event) => onChange(percentOf(event.target.value))}
        />
        <span aria-hidden="true">%</span>
      </span>
    </div>
  )
}

const Section = ({ title, children }: { readonly title: string; readonly children: ReactNode }) => {
  const id = useId()
  return (
    <section aria-labelledby={id} className="form-section">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  )
}

/** A refusal of a section as a whole, below it; focusable, so that a refused save can take the focus there. */
const SectionError = ({ error }: { readonly error: string | undefined }) =>
  error === undefined ? null : <p role="alert" tabIndex={-1} className="field-error section-error">{error}</p>

/** The changes a save asks about, in words, before and after where it helps. */
const RiskList = ({ risks }: { readonly risks: ReadonlyArray<RiskyChange> }) => (
  <ul className="risks">
    {risks.map((risk) => (
      <li key={risk.what}>
        <p>{risk.what}</p>
        {risk.before === undefined || risk.after === undefined ? null : (
          <dl className="before-after">
            <dt>Before</dt>
            {risk.before.map((line) => <dd key={line}>{line}</dd>)}
            <dt>After</dt>
            {risk.after.map((line) => <dd key={line}>{line}</dd>)}
          </dl>
        )}
      </li>
    ))}
  </ul>
)

/** Enter in the Key field does not submit the form: a key is typed before anything else is set. */
const holdEnter = (event: KeyboardEvent<HTMLInputElement>) => {
  if (event.key === "Enter") event.preventDefault()
}

/**
 * A flag's form: key, description, the active switch, tags, release conditions (property filters and a
 * rollout each), variants with their split and payloads. Payloads are checked to be JSON before a save
 * (as the API checks them too); everything else is the API's to refuse, shown by the field it names
 * until that field is edited, the focus moved to the first refusal. A save that turns a live flag off,
 * renames a recently evaluated key or changes whom a live flag reaches is asked about first, in words.
 * With edits not saved, leaving the page (a tab, a link, Back, closing) is asked about too.
 */
export const FlagForm = ({ initial, stored, busy, error, suggestions, readOnly, onSave, children }: {
  /** The flag as the API holds it, or a new flag's defaults. */
  readonly initial: Draft
  /** The flag is stored, with when it was last evaluated; absent for a new flag. */
  readonly stored?: { readonly lastCalledAt: string | null } | undefined
  readonly busy: boolean
  readonly error: ApiError | undefined
  readonly suggestions: Suggestions
  /** Why the flag is shown and not editable, when it is not: the form's controls are then disabled, with no Save. */
  readonly readOnly?: ReactNode | undefined
  /** Saves the draft: true once saved, false when refused (the refusal is then `error`, or a conflict in `children`). */
  readonly onSave: (draft: Draft) => Promise<boolean>
  /** Shown above the Save button (a conflict's notice). */
  readonly children?: ReactNode
}) => {
  const [draft, setDraft] = useState(initial)
  const [saved, setSaved] = useState(initial)
  // Payloads are checked as typed once a save was refused for one, so the error goes as soon as it is fixed.
  const [checkPayloads, setCheckPayloads] = useState(false)
  // The refusal shown is the latest one until the field it concerns is edited.
  const [dismissed, setDismissed] = useState<ApiError | undefined>(undefined)
  const [notice, setNotice] = useState("")
  const [refusals, setRefusals] = useState(0)
  const [risks, setRisks] = useState<ReadonlyArray<RiskyChange>>([])
  const form = useRef<HTMLFormElement>(null)
  const saveQuestion = useConfirmation()

  const shown = error !== undefined && error !== dismissed ? error : undefined
  const payloadProblems = checkPayloads ? payloadErrors(draft) : {}
  const dirty = !sameDraft(draft, saved)
  const editable = readOnly === undefined

  const change = (place: Place, part: Partial<Draft>) => {
    setDraft((old) => ({ ...old, ...part }))
    setNotice("")
    if (shown !== undefined && placeOf(shown) === place) setDismissed(shown)
  }
  const setGroup = (index: number, group: DraftGroup) => change("conditions", { groups: draft.groups.with(index, group) })
  const setVariant = (index: number, variant: DraftVariant) => change("variants", { variants: draft.variants.with(index, variant) })
  const errorAt = (place: Place) => shown !== undefined && placeOf(shown) === place ? shown.detail : undefined

  // After a refused save the focus goes to the first refusal, in the order of the form.
  useEffect(() => {
    if (refusals === 0) return
    form.current?.querySelector<HTMLElement>(`[aria-invalid="true"], .section-error, .form-error, [role="alert"]`)?.focus()
  }, [refusals])

  const unsaved = useUnsavedGuard(dirty && editable)

  const save = (sent: Draft) => {
    setNotice("")
    onSave(sent).then((done) => {
      if (done) {
        setSaved(sent)
        setNotice("Saved.")
      } else {
        setRefusals((old) => old + 1)
      }
    })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!editable || busy) return
    if (Object.keys(payloadErrors(draft)).length > 0) {
      setCheckPayloads(true)
      setRefusals((old) => old + 1)
      return
    }
    const asked = stored === undefined ? [] : riskyChanges(saved, draft, stored.lastCalledAt)
    if (asked.length === 0) return save(draft)
    setRisks(asked)
    saveQuestion.open()
  }
  const namesList = useId()

  return (
    <form ref={form} className="flag-form" onSubmit={submit} noValidate aria-busy={busy}>
      {editable ? null : <p className="read-only-reason">{readOnly}</p>}
      <fieldset disabled={!editable} className="plain flag-fields">
        <legend className="visually-hidden">Feature flag</legend>
        <TextField
          label="Key"
          name="key"
          value={draft.key}
          onValue={(key) => change("key", { key })}
          onKeyDown={holdEnter}
          error={errorAt("key")}
          autoComplete="off"
        />
        <TextField label="Description" name="name" value={draft.name} onValue={(name) => change("name", { name })} error={errorAt("name")} />
        <Switch label="Active" checked={draft.active} onChange={(active) => change("active", { active })} error={errorAt("active")} />
        <TextField label="Tags" name="tags" value={draft.tags} onValue={(tags) => change("tags", { tags })} error={errorAt("tags")} hint="Comma-separated" />

        <Section title="Release conditions">
          <datalist id={namesList}>
            {suggestions.names.map((name) => <option key={name} value={name} />)}
          </datalist>
          {draft.groups.map((group, index) => {
            const name = `Condition ${index + 1}`
            return (
              <fieldset key={index} className="condition">
                <legend>{name}</legend>
                {group.properties.map((property, at) => (
                  <PropertyFilterEditor
                    key={at}
                    property={property}
                    condition={name}
                    number={at + 1}
                    namesList={namesList}
                    values={suggestions.valuesOf(property.key)}
                    readOnly={!editable}
                    onChange={(next) => setGroup(index, { ...group, properties: group.properties.with(at, next) })}
                    onRemove={() => setGroup(index, { ...group, properties: group.properties.toSpliced(at, 1) })}
                  />
                ))}
                <div className="condition-foot">
                  {editable
                    ? (
                      <button type="button" onClick={() => setGroup(index, { ...group, properties: [...group.properties, newProperty()] })}>
                        Add a filter<span className="visually-hidden"> to {name.toLowerCase()}</span>
                      </button>
                    )
                    : null}
                  <Rollout name={name} value={group.rollout} onChange={(rollout) => setGroup(index, { ...group, rollout })} />
                  {editable
                    ? (
                      <button type="button" onClick={() => change("conditions", { groups: draft.groups.toSpliced(index, 1) })}>
                        Remove condition<span className="visually-hidden"> {index + 1}</span>
                      </button>
                    )
                    : null}
                </div>
              </fieldset>
            )
          })}
          {editable ? <button type="button" onClick={() => change("conditions", { groups: [...draft.groups, newGroup()] })}>Add a condition</button> : null}
          <SectionError error={errorAt("conditions")} />
        </Section>

        <Section title="Variants">
          {draft.variants.length === 0
            ? (
              <TextAreaField
                label="Payload (JSON)"
                value={draft.payload}
                onValue={(payload) => change("variants", { payload })}
                error={payloadProblems["true"]}
                hint="Sent with the flag when it is on; empty for none."
              />
            )
            : draft.variants.map((variant, index) => {
              const name = `Variant ${index + 1}`
              return (
                <fieldset key={index} className="variant">
                  <legend>{name}</legend>
                  <TextField label={inContext(name, "Key")} value={variant.key} onValue={(key) => setVariant(index, { ...variant, key })} />
                  <TextField label={inContext(name, "Name")} value={variant.name} onValue={(name) => setVariant(index, { ...variant, name })} />
                  <TextField
                    label={inContext(name, "Split (%)")}
                    type="number"
                    min={0}
                    max={100}
                    value={String(variant.rollout)}
                    onValue={(rollout) => setVariant(index, { ...variant, rollout: percentOf(rollout) })}
                  />
                  {/* "Remove" ends the variant's row, as it ends a filter's; named in full for a screen reader. */}
                  {editable
                    ? (
                      <button type="button" onClick={() => change("variants", { variants: draft.variants.toSpliced(index, 1) })}>
                        Remove<span className="visually-hidden"> variant {index + 1}</span>
                      </button>
                    )
                    : null}
                  <TextAreaField
                    label={inContext(name, "Payload (JSON)")}
                    value={variant.payload}
                    onValue={(payload) => setVariant(index, { ...variant, payload })}
                    error={payloadProblems[String(index)]}
                  />
                </fieldset>
              )
            })}
          {editable
            ? (
              <div className="variant-actions">
                {/* A new variant takes an even share, and so do the others: the split stays whole. */}
                <button
                  type="button"
                  onClick={() => change("variants", { variants: splitEvenly([...draft.variants, newVariant(draft.variants.length)]) })}
                >
                  Add a variant
                </button>
                {draft.variants.length < 2
                  ? null
                  : <button type="button" onClick={() => change("variants", { variants: splitEvenly(draft.variants) })}>Split evenly</button>}
              </div>
            )
            : null}
          {draft.variants.length === 0 ? null : (
            <p className="hint">Splits in all: {draft.variants.reduce((sum, variant) => sum + variant.rollout, 0)}%</p>
          )}
          <SectionError error={errorAt("variants")} />
        </Section>
      </fieldset>

      {Object.keys(payloadProblems).length === 0 ? null : <p role="alert" className="form-error">A payload is not valid JSON; nothing was saved.</p>}
      {errorAt("form") === undefined ? null : <p role="alert" tabIndex={-1} className="form-error">{errorAt("form")}</p>}
      {children}
      {editable
        ? (
          <div className="save-row">
            <button type="submit" className="primary" disabled={busy}>Save</button>
            {/* Beside the button, where the person is looking, and read out. */}
            <p role="status" className="notice save-notice">{notice}</p>
          </div>
        )
        : null}

      <Confirmation
        refs={saveQuestion.refs}
        title={`Save the changes to "${saved.key}"?`}
        confirmLabel="Save the changes"
        action={() => Promise.resolve()}
        onDone={() => save(draft)}
      >
        <RiskList risks={risks} />
      </Confirmation>
      <LeaveQuestion guard={unsaved}>
        <p>Your changes to this flag are not saved. Leaving drops them.</p>
      </LeaveQuestion>
    </form>
  )
}
