import { type FormEvent, type ReactNode, useId, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { inContext, Switch, TextAreaField, TextField } from "../ui/field.tsx"
import { type Draft, type DraftGroup, type DraftVariant, newGroup, newProperty, newVariant, payloadErrors } from "./draft.ts"
import { PropertyFilterEditor } from "./property-filter.tsx"

/** Where the API's `attr` puts its words: a field of the form, else above the button. */
type Place = "key" | "name" | "active" | "tags" | "filters" | "form"
const placeOf = (attr: string | null): Place => {
  const field = attr?.split("__")[0]
  return field === "key" || field === "name" || field === "active" || field === "tags" || field === "filters" ? field : "form"
}

const replaced = <T,>(items: ReadonlyArray<T>, index: number, item: T): Array<T> => items.map((old, at) => at === index ? item : old)
const without = <T,>(items: ReadonlyArray<T>, index: number): Array<T> => items.filter((_, at) => at !== index)

/** A rollout percentage as a slider, its value shown beside it. */
const RolloutSlider = ({ label, value, onChange }: { readonly label: ReactNode; readonly value: number; readonly onChange: (value: number) => void }) => {
  const id = useId()
  return (
    <div className="field rollout">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="range" min={0} max={100} step={1} value={value} onChange={(event) => onChange(Number(event.target.value))} />
      <output htmlFor={id}>{value}%</output>
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

/**
 * A flag's form: key, description, the active switch, tags, release conditions (property filters and a
 * rollout each), variants with their split and payloads. Payloads are checked to be JSON before a save
 * (as the API checks them too); everything else is the API's to refuse, shown by the field it names.
 */
export const FlagForm = ({ initial, busy, error, onSave, children }: {
  readonly initial: Draft
  readonly busy: boolean
  readonly error: ApiError | undefined
  readonly onSave: (draft: Draft) => void
  /** Shown above the Save button (a conflict's notice). */
  readonly children?: ReactNode
}) => {
  const [draft, setDraft] = useState(initial)
  const [payloadProblems, setPayloadProblems] = useState<Record<string, string>>({})
  const change = (part: Partial<Draft>) => setDraft((old) => ({ ...old, ...part }))
  const setGroup = (index: number, group: DraftGroup) => change({ groups: replaced(draft.groups, index, group) })
  const setVariant = (index: number, variant: DraftVariant) => change({ variants: replaced(draft.variants, index, variant) })

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const problems = payloadErrors(draft)
    setPayloadProblems(problems)
    if (Object.keys(problems).length === 0) onSave(draft)
  }
  const errorAt = (place: Place) => error !== undefined && placeOf(error.attr) === place ? error.detail : undefined

  return (
    <form className="flag-form" onSubmit={submit} noValidate aria-busy={busy}>
      <TextField label="Key" name="key" value={draft.key} onValue={(key) => change({ key })} error={errorAt("key")} autoComplete="off" />
      <TextField label="Description" name="name" value={draft.name} onValue={(name) => change({ name })} error={errorAt("name")} />
      <Switch label="Active" checked={draft.active} onChange={(active) => change({ active })} error={errorAt("active")} />
      <TextField label="Tags" name="tags" value={draft.tags} onValue={(tags) => change({ tags })} error={errorAt("tags")} hint="Comma-separated" />

      <Section title="Release conditions">
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
                  onChange={(next) => setGroup(index, { ...group, properties: replaced(group.properties, at, next) })}
                  onRemove={() => setGroup(index, { ...group, properties: without(group.properties, at) })}
                />
              ))}
              <div className="condition-foot">
                <button type="button" onClick={() => setGroup(index, { ...group, properties: [...group.properties, newProperty()] })}>
                  Add a filter<span className="visually-hidden"> to {name.toLowerCase()}</span>
                </button>
                <RolloutSlider label={inContext(name, "Rollout")} value={group.rollout} onChange={(rollout) => setGroup(index, { ...group, rollout })} />
                <button type="button" onClick={() => change({ groups: without(draft.groups, index) })}>
                  Remove condition<span className="visually-hidden"> {index + 1}</span>
                </button>
              </div>
            </fieldset>
          )
        })}
        <button type="button" onClick={() => change({ groups: [...draft.groups, newGroup()] })}>Add a condition</button>
        {errorAt("filters") === undefined ? null : <p role="alert" className="field-error">{errorAt("filters")}</p>}
      </Section>

      <Section title="Variants">
        {draft.variants.length === 0
          ? (
            <TextAreaField
              label="Payload (JSON)"
              value={draft.payload}
              onValue={(payload) => change({ payload })}
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
                  onValue={(rollout) => setVariant(index, { ...variant, rollout: Number(rollout) })}
                />
                {/* "Remove" ends the variant's row, as it ends a filter's; named in full for a screen reader. */}
                <button type="button" onClick={() => change({ variants: without(draft.variants, index) })}>
                  Remove<span className="visually-hidden"> variant {index + 1}</span>
                </button>
                <TextAreaField
                  label={inContext(name, "Payload (JSON)")}
                  value={variant.payload}
                  onValue={(payload) => setVariant(index, { ...variant, payload })}
                  error={payloadProblems[String(index)]}
                />
              </fieldset>
            )
          })}
        <button type="button" onClick={() => change({ variants: [...draft.variants, newVariant(draft.variants.length)] })}>Add a variant</button>
        {draft.variants.length === 0 ? null : (
          <p className="hint">Splits in all: {draft.variants.reduce((sum, variant) => sum + variant.rollout, 0)}%</p>
        )}
      </Section>

      {Object.keys(payloadProblems).length === 0 ? null : <p role="alert" className="form-error">A payload is not valid JSON; nothing was saved.</p>}
      {errorAt("form") === undefined ? null : <p role="alert" className="form-error">{errorAt("form")}</p>}
      {children}
      <button type="submit" className="primary" disabled={busy}>Save</button>
    </form>
  )
}
