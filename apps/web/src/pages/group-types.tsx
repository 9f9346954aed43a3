import { type FormEvent, useId, useRef, useState } from "react"
import type { Success } from "../api/contract.ts"
import { asApiError, request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { ProjectHead } from "../shell/project-head.tsx"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { AddOneForm } from "../ui/add-one-form.tsx"
import { refusalPlaces, TextField } from "../ui/field.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { useWrite } from "../ui/writes.ts"

const PATH = "/api/projects/:project_id/groups_types/"
const METADATA_PATH = "/api/projects/:project_id/groups_types/update_metadata/"
const ONE_PATH = "/api/projects/:project_id/groups_types/:group_type_index/"

type GroupType = Success<"GET", typeof PATH>[number]

/** A display name as sent: blank is none. */
const displayName = (text: string): string | null => text.trim() === "" ? null : text.trim()

/** One group type: its display names, saved together, and its removal (asked first). */
const GroupTypeCard = ({ projectId, groupType, refresh, onDeleted }: {
  readonly projectId: string
  readonly groupType: GroupType
  readonly refresh: () => Promise<void>
  readonly onDeleted: (name: string) => void
}) => {
  const heading = useId()
  const [singular, setSingular] = useState(groupType.name_singular ?? "")
  const [plural, setPlural] = useState(groupType.name_plural ?? "")
  const { busy, error, setError, run } = useWrite()
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const name = groupType.group_type
  const save = (event: FormEvent) => {
    event.preventDefault()
    setNotice(undefined)
    const row = { group_type_index: groupType.group_type_index, name_singular: displayName(singular), name_plural: displayName(plural) }
    run(async () => {
      await request("PATCH", METADATA_PATH, { params: { project_id: projectId }, payload: [row] })
      await refresh()
      setNotice("Names saved.")
    })
  }
  const { errorFor, formError } = refusalPlaces(error, ["name_singular", "name_plural"])
  return (
    <article className="card" aria-labelledby={heading}>
      <div className="page-head">
        <h3 id={heading}>{name}</h3>
        <span className="badge">Index {groupType.group_type_index}</span>
      </div>
      <p className="hint">Flags aggregating by index {groupType.group_type_index} target these groups; SDKs send <code>{name}</code> as the group's type.</p>
      <form className="names-form" aria-label={`Display names of ${name}`} onSubmit={save} noValidate>
        <TextField label="Singular name" value={singular} onValue={setSingular} placeholder={name} error={errorFor("name_singular")} />
        <TextField label="Plural name" value={plural} onValue={setPlural} placeholder={`${name}s`} error={errorFor("name_plural")} />
        <button type="submit" disabled={busy}>Save names<span className="visually-hidden"> of {name}</span></button>
      </form>
      <p role="status" className="notice">{notice ?? ""}</p>
      {formError === undefined ? null : <p role="alert" className="form-error">{formError}</p>}
      <ConfirmDialog
        label={<>Delete<span className="visually-hidden"> {name}</span></>}
        title={`Delete the group type ${name}?`}
        confirmLabel="Delete group type"
        disabled={busy}
        action={() => request("DELETE", ONE_PATH, { params: { project_id: projectId, group_type_index: String(groupType.group_type_index) } })}
        onDone={() => refresh().then(() => onDeleted(name), (cause: unknown) => setError(asApiError(cause)))}
      >
        <p>
          Index {groupType.group_type_index} is free again. Flags that aggregate by it are kept, and evaluate to off
          until a group type holds the index again.
        </p>
      </ConfirmDialog>
    </article>
  )
}

/** A project's group types (at most five, by index), their display names, and adding and deleting them. */
export default function GroupTypesPage({ projectId }: { readonly projectId: string }) {
  const options = { params: { project_id: projectId } }
  const groupTypes = useApi(PATH, options)
  const refresh = () => reread(urlOf(PATH, options), PATH, options)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  const heading = useRef<HTMLHeadingElement>(null)
  return (
    <>
      <ProjectHead projectId={projectId} current="groupTypes" title="Group types" />
      <h2 ref={heading} tabIndex={-1}>Group types</h2>
      <p>
        Kinds of groups (companies, teams...) that flags can roll out by instead of by person. A project has at
        most five, at the indexes 0 to 4; display names are how the console speaks of them.
      </p>
      <AddOneForm
        label="Group type"
        name="Add a group type"
        attr="group_type"
        placeholder="company"
        hint="The name SDKs send as the group's type."
        button="Add group type"
        add={async (groupType) => {
          const created = await request("POST", PATH, { params: { project_id: projectId }, payload: { group_type: groupType } })
          await refresh()
          setNotice(`${created.group_type} was added at index ${created.group_type_index}.`)
        }}
      />
      <p role="status" className="notice">{notice ?? ""}</p>
      <Resourceful resource={groupTypes} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(list) =>
          list.length === 0
            ? <Empty title="This project has no group types yet." />
            : list.map((groupType) => (
              <GroupTypeCard
                // Keyed by its name too: a deleted index taken again by another is a new card, with its names.
                key={`${groupType.group_type_index}-${groupType.group_type}`}
                projectId={projectId}
                groupType={groupType}
                refresh={refresh}
                onDeleted={(name) => {
                  // The card and its buttons go: the keyboard goes on from the list's heading.
                  setNotice(`${name} was deleted.`)
                  heading.current?.focus()
                }}
              />
            ))}
      </Resourceful>
    </>
  )
}
