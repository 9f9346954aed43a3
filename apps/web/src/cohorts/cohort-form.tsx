import { type FormEvent, type ReactNode, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { newProperty } from "../flags/draft.ts"
import { PropertyFilterEditor } from "../flags/property-filter.tsx"
import { inContext, refusalPlaces, SelectField, TextAreaField, TextField } from "../ui/field.tsx"
import { LeaveQuestion, useUnsavedGuard } from "../ui/unsaved.tsx"
import { type CohortDraft, type CohortGroup, type Match, newCohortGroup } from "./draft.ts"

/** Whether all or any must match, as a select whose words (`all`, `any`) finish the sentence its label starts. */
const MatchSelect = ({ label, all, any, value, onValue }: {
  readonly label: ReactNode
  readonly all: string
  readonly any: string
  readonly value: Match
  readonly onValue: (match: Match) => void
}) => (
  <SelectField label={label} options={[["AND", all], ["OR", any]]} value={value} onValue={(match) => onValue(match === "AND" ? "AND" : "OR")} />
)

/** One group of conditions: person property filters with the flag form's editor, all or any of them. */
const GroupEditor = ({ group, number, readOnly, onChange, onRemove }: {
  readonly group: CohortGroup
  readonly readOnly: boolean
  readonly number: number
  readonly onChange: (group: CohortGroup) => void
  readonly onRemove: () => void
}) => {
  const name = `Group ${number}`
  return (
    <fieldset className="condition">
      <legend>{name}</legend>
      <MatchSelect label={inContext(name, "Persons match")} all="all of these filters" any="any of these filters" value={group.match} onValue={(match) => onChange({ ...group, match })} />
      {group.properties.map((property, at) => (
        <PropertyFilterEditor
          key={at}
          property={property}
          condition={name}
          number={at + 1}
          readOnly={readOnly}
          onChange={(next) => onChange({ ...group, properties: group.properties.with(at, next) })}
          onRemove={() => onChange({ ...group, properties: group.properties.toSpliced(at, 1) })}
        />
      ))}
      {group.kept.length === 0 ? null : (
        <p className="hint">
          And {group.kept.length === 1 ? "1 filter" : `${group.kept.length} filters`} on other cohorts or on events, kept as they are.
        </p>
      )}
      <div className="condition-foot">
        <button type="button" onClick={() => onChange({ ...group, properties: [...group.properties, newProperty()] })}>
          Add a filter<span className="visually-hidden"> to {name.toLowerCase()}</span>
        </button>
        <button type="button" onClick={onRemove}>Remove group<span className="visually-hidden"> {number}</span></button>
      </div>
    </fieldset>
  )
}

/**
 * A cohort's form: name, description and, for a dynamic cohort, who belongs to it (groups of person
 * property filters, in the words and with the editor of a flag's release conditions). A new cohort is
 * dynamic or static; a new static one may list its first members. `readOnly` shows it all, unchangeable
 * (a deleted cohort). The API judges everything, shown by the field its `attr` names.
 */
export const CohortForm = ({ initial, isNew, readOnly, busy, error, onSave }: {
  readonly initial: CohortDraft
  readonly isNew: boolean
  readonly readOnly: boolean
  readonly busy: boolean
  readonly error: ApiError | undefined
  /** Whether the API took the draft. */
  readonly onSave: (draft: CohortDraft) => Promise<boolean>
}) => {
  const [draft, setDraft] = useState(initial)
  // What the API last took of this form: edits past it are asked about before the console leaves them.
  const [saved, setSaved] = useState(initial)
  const unsaved = useUnsavedGuard(!readOnly && JSON.stringify(draft) !== JSON.stringify(saved))
  const change = (part: Partial<CohortDraft>) => setDraft((old) => ({ ...old, ...part }))
  const { errorFor, formError } = refusalPlaces(error, ["name", "description", "filters", "is_static", "_create_static_person_ids"])
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (readOnly) return
    void onSave(draft).then((done) => done && setSaved(draft))
  }
  return (
    <form className="flag-form" onSubmit={submit} noValidate aria-busy={busy}>
      <fieldset className="plain" disabled={readOnly}>
        <legend className="visually-hidden">Cohort</legend>
        <TextField label="Name" name="name" value={draft.name} onValue={(name) => change({ name })} error={errorFor("name")} autoComplete="off" />
        <TextAreaField
          label="Description"
          name="description"
          value={draft.description}
          onValue={(description) => change({ description })}
          error={errorFor("description")}
        />
        {isNew
          ? (
            <SelectField
              label="Type"
              options={[["dynamic", "Dynamic: persons whose properties match"], ["static", "Static: a list of distinct ids"]]}
              value={draft.isStatic ? "static" : "dynamic"}
              onValue={(kind) => change({ isStatic: kind === "static" })}
              error={errorFor("is_static")}
            />
          )
          : null}
        {draft.isStatic
          ? isNew
            ? (
              <TextAreaField
                label="Distinct IDs"
                name="distinct-ids"
                value={draft.distinctIds}
                onValue={(distinctIds) => change({ distinctIds })}
                error={errorFor("_create_static_person_ids")}
                hint="One a line; optional. More can be added on the cohort's Persons tab."
              />
            )
            : null
          : (
            <section aria-labelledby="who-belongs-title" className="form-section">
              <h2 id="who-belongs-title">Who belongs</h2>
              <MatchSelect label="Persons belong when they match" all="every group" any="any group" value={draft.match} onValue={(match) => change({ match })} />
              {draft.groups.map((group, index) => (
                <GroupEditor
                  key={index}
                  group={group}
                  number={index + 1}
                  readOnly={readOnly}
                  onChange={(next) => change({ groups: draft.groups.with(index, next) })}
                  onRemove={() => change({ groups: draft.groups.toSpliced(index, 1) })}
                />
              ))}
              {draft.kept.length === 0 ? null : <p className="hint">And {draft.kept.length} more entries kept as they are.</p>}
              <button type="button" onClick={() => change({ groups: [...draft.groups, newCohortGroup()] })}>Add a group</button>
              {errorFor("filters") === undefined ? null : <p role="alert" className="field-error">{errorFor("filters")}</p>}
            </section>
          )}
      </fieldset>
      {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
      {readOnly ? null : <button type="submit" className="primary" disabled={busy}>{isNew ? "Create cohort" : "Save"}</button>}
      <LeaveQuestion guard={unsaved}>
        <p>Your changes to this cohort are not saved. Leaving drops them.</p>
      </LeaveQuestion>
    </form>
  )
}
