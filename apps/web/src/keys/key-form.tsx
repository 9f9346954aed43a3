import { type FormEvent, type ReactNode, useId, useState } from "react"
import type { ApiError } from "../api/client.ts"
import { useMe } from "../shell/me.ts"
import { Alert } from "../ui/alert.tsx"
import { SelectField, TextField } from "../ui/field.tsx"
import { LeaveQuestion, useUnsavedGuard } from "../ui/unsaved.tsx"
import { changedFields, type KeyDraft } from "./draft.ts"
import { type Restriction, useProjects } from "./restrictions.ts"
import { type Level, LEVEL_WORDS, type ScopeChoice, SCOPE_OBJECTS, SCOPE_WORDS } from "./scopes.ts"

/** Where the API's `attr` puts its words: a field of the form, else above the button (the 10-key limit). */
type Place = "label" | "scopes" | "restriction" | "form"
const placeOf = (attr: string | null): Place => {
  const field = attr?.split("__")[0]
  return field === "label" || field === "scopes"
    ? field
    : field === "scoped_teams" || field === "scoped_organizations"
    ? "restriction"
    : "form"
}

/** A checkbox or radio with its label after it. */
const Choice = ({ type, label, checked, onChange, name, disabled }: {
  readonly type: "checkbox" | "radio"
  readonly label: string
  readonly checked: boolean
  readonly onChange: (checked: boolean) => void
  readonly name?: string
  readonly disabled?: boolean
}) => {
  const id = useId()
  return (
    <div className="choice">
      <input id={id} type={type} name={name} checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  )
}

/** A group of controls under its legend, with the API's error for it tied to the group. */
const Group = ({ legend, error, hint, children }: {
  readonly legend: string
  readonly error: string | undefined
  readonly hint?: string
  readonly children: ReactNode
}) => {
  const id = useId()
  const describedBy = [hint === undefined ? undefined : `${id}-hint`, error === undefined ? undefined : `${id}-error`]
    .filter((part) => part !== undefined).join(" ")
  return (
    <fieldset aria-describedby={describedBy === "" ? undefined : describedBy}>
      <legend>{legend}</legend>
      {hint === undefined ? null : <p id={`${id}-hint`} className="hint">{hint}</p>}
      {children}
      {error === undefined ? null : <p id={`${id}-error`} className="field-error">{error}</p>}
    </fieldset>
  )
}

/** A level per scope object, or everything: exactly the objects core accepts. */
const ScopePicker = ({ choice, onChange, error }: {
  readonly choice: ScopeChoice
  readonly onChange: (choice: ScopeChoice) => void
  readonly error: string | undefined
}) => (
  <Group legend="Scopes" error={error} hint="What the key may do. Write also grants read.">
    <Choice type="checkbox" label="All access (*)" checked={choice.all} onChange={(all) => onChange({ ...choice, all })} />
    <div className="scope-levels">
      {SCOPE_OBJECTS.map((object) => (
        <SelectField
          key={object}
          label={SCOPE_WORDS[object]}
          options={LEVEL_WORDS}
          value={choice.levels[object]}
          disabled={choice.all}
          onValue={(level) => onChange({ ...choice, levels: { ...choice.levels, [object]: level as Level } })}
        />
      ))}
    </div>
  </Group>
)

const toggled = <T,>(items: ReadonlyArray<T>, item: T, on: boolean): Array<T> =>
  on ? [...items.filter((old) => old !== item), item] : items.filter((old) => old !== item)

/** All, or some of the user's organizations, or some of their projects (grouped by organization). */
const RestrictionPicker = ({ restriction, onChange, error }: {
  readonly restriction: Restriction
  readonly onChange: (restriction: Restriction) => void
  readonly error: string | undefined
}) => {
  const me = useMe()
  const projects = useProjects()
  const name = useId()
  const mode = (mode: Restriction["mode"]) => (checked: boolean) => checked && onChange({ ...restriction, mode })
  return (
    <Group legend="Organizations and projects" error={error}>
      <Choice type="radio" name={name} label="All of yours" checked={restriction.mode === "all"} onChange={mode("all")} />
      <Choice type="radio" name={name} label="Only some organizations" checked={restriction.mode === "organizations"} onChange={mode("organizations")} />
      <Choice type="radio" name={name} label="Only some projects" checked={restriction.mode === "projects"} onChange={mode("projects")} />
      {restriction.mode === "organizations"
        ? (
          <Group legend="Organizations" error={undefined}>
            {me.organizations.map((organization) => (
              <Choice
                key={organization.id}
                type="checkbox"
                label={organization.name}
                checked={restriction.organizations.includes(organization.id)}
                onChange={(on) => onChange({ ...restriction, organizations: toggled(restriction.organizations, organization.id, on) })}
              />
            ))}
          </Group>
        )
        : restriction.mode === "projects"
        ? projects.status === "ready"
          ? me.organizations.map((organization) => {
            const theirs = projects.data.results.filter((project) => project.organization === organization.id)
            return theirs.length === 0 ? null : (
              <Group key={organization.id} legend={`Projects of ${organization.name}`} error={undefined}>
                {theirs.map((project) => (
                  <Choice
                    key={project.id}
                    type="checkbox"
                    label={project.name}
                    checked={restriction.projects.includes(project.id)}
                    onChange={(on) => onChange({ ...restriction, projects: toggled(restriction.projects, project.id, on) })}
                  />
                ))}
              </Group>
            )
          })
          : projects.status === "failed"
          ? <p role="alert" className="form-error">{projects.error.detail}</p>
          : <p role="status">Loading projects…</p>
        : null}
    </Group>
  )
}

/**
 * A key's form: its label, scopes and restrictions. The API judges all of it (a blank or long label, no
 * scope, a project of someone else's, the 10-key limit); its words are shown by the field `attr` names.
 */
export const KeyForm = ({ initial, busy, error, submitLabel, onSave }: {
  readonly initial: KeyDraft
  readonly busy: boolean
  readonly error: ApiError | undefined
  readonly submitLabel: string
  readonly onSave: (draft: KeyDraft) => void
}) => {
  const [draft, setDraft] = useState(initial)
  const unsaved = useUnsavedGuard(Object.keys(changedFields(initial, draft)).length > 0)
  const change = (part: Partial<KeyDraft>) => setDraft((old) => ({ ...old, ...part }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSave(draft)
  }
  const errorAt = (place: Place) => error !== undefined && placeOf(error.attr) === place ? error.detail : undefined
  return (
    <form className="key-form" onSubmit={submit} noValidate aria-busy={busy}>
      <TextField label="Label" name="label" value={draft.label} onValue={(label) => change({ label })} error={errorAt("label")} autoComplete="off" />
      <ScopePicker choice={draft.scopes} onChange={(scopes) => change({ scopes })} error={errorAt("scopes")} />
      <RestrictionPicker restriction={draft.restriction} onChange={(restriction) => change({ restriction })} error={errorAt("restriction")} />
      {errorAt("form") === undefined ? null : <Alert className="form-error">{errorAt("form")}</Alert>}
      <button type="submit" className="primary" disabled={busy}>{submitLabel}</button>
      <LeaveQuestion guard={unsaved}>
        <p>Your changes to this key are not saved. Leaving drops them.</p>
      </LeaveQuestion>
    </form>
  )
}
