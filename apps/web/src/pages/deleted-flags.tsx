import { useRef, useState } from "react"
import { asApiError } from "../api/client.ts"
import { reread, useApi } from "../api/use-api.ts"
import { type Flag, FLAGS_PATH, flagsPrefix } from "../flags/flag.tsx"
import { restoreFlag } from "../flags/restore.ts"
import { Link } from "../router/navigation.tsx"
import { ALL_FLAGS, hrefOf } from "../router/routes.ts"
import { TextField } from "../ui/field.tsx"
import { useKeptWhileLoading } from "../ui/kept-while-loading.ts"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { useSearchAsYouType } from "../ui/search-as-you-type.ts"
import { Empty, Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"

const PAGE_SIZE = 20

/**
 * The project's deleted flags (the archive, the API's `deleted=true`), the last deleted first, each with
 * Restore where the person may change it. A restore the API refuses (another flag has taken the key
 * since) says why by its row.
 */
export default function DeletedFlagsPage({ projectId, search, pageNumber }: {
  readonly projectId: string
  readonly search: string
  readonly pageNumber: number
}) {
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  const name = project.status === "ready" ? project.data.name : undefined
  usePageTitle(name === undefined ? "Deleted flags" : `Deleted flags · ${name}`)
  const [typed, setTyped] = useSearchAsYouType(search, (search) => hrefOf({ page: "deletedFlags", projectId, search, pageNumber: 1 }))
  const options = {
    params: { project_id: projectId },
    query: {
      deleted: "true",
      limit: String(PAGE_SIZE),
      offset: String((pageNumber - 1) * PAGE_SIZE),
      search: search === "" ? undefined : search
    }
  }
  const { resource: flags, loading } = useKeptWhileLoading(useApi(FLAGS_PATH, options), projectId)
  const [refusals, setRefusals] = useState<ReadonlyMap<number, string>>(new Map())
  const [restored, setRestored] = useState<Flag | undefined>(undefined)
  const [busy, setBusy] = useState<number | undefined>(undefined)
  const notice = useRef<HTMLParagraphElement>(null)
  const refusedAs = (id: number, detail: string | undefined) =>
    setRefusals((old) => {
      const next = new Map(old)
      if (detail === undefined) next.delete(id)
      else next.set(id, detail)
      return next
    })
  const restore = (flag: Flag) => {
    setBusy(flag.id)
    setRestored(undefined)
    refusedAs(flag.id, undefined)
    restoreFlag(projectId, flag).then(
      (live) => {
        setRestored(live)
        // Its row leaves the list: the notice, which links to the flag, takes the focus.
        notice.current?.focus()
        return reread(flagsPrefix(projectId), FLAGS_PATH, options)
      },
      (cause: unknown) => refusedAs(flag.id, asApiError(cause).detail)
    ).finally(() => setBusy(undefined))
  }
  return (
    <>
      <p className="breadcrumb">
        <Link href={hrefOf({ page: "flags", projectId, list: ALL_FLAGS })}>Feature flags</Link>
      </p>
      <h1>Deleted flags</h1>
      <form role="search" aria-label="Search deleted flags" className="filters archive-search" onSubmit={(event) => event.preventDefault()}>
        <TextField label="Search" type="search" name="search" value={typed} onValue={setTyped} hint="Key or description, as you type" />
      </form>
      <p role="status" className="notice" ref={notice} tabIndex={-1}>
        {restored === undefined ? "" : (
          <>
            Restored{" "}
            <Link href={hrefOf({ page: "flag", projectId, flagId: String(restored.id), tab: "settings", pageNumber: 1 })}>{restored.key}</Link>.
          </>
        )}
      </p>
      <Resourceful resource={flags} onRetry={() => void reread(flagsPrefix(projectId), FLAGS_PATH, options)}>
        {(page) =>
          page.count === 0
            ? <Empty title={search === "" ? "No flag of this project is deleted." : "No deleted flag matches this search."} />
            : page.results.length === 0
            ? <PastTheEnd firstPage={hrefOf({ page: "deletedFlags", projectId, search, pageNumber: 1 })} />
            : (
              <>
                <table className="flags deleted-flags" aria-busy={loading}>
                  <caption className="visually-hidden">Deleted feature flags, {page.count} in all</caption>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Deleted</th>
                      <th scope="col">By</th>
                      <th scope="col"><span className="visually-hidden">Restore</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.results.map((flag) => (
                      <tr key={flag.id}>
                        <td className="flag-key" data-label="Key">
                          <Link href={hrefOf({ page: "flag", projectId, flagId: String(flag.id), tab: "settings", pageNumber: 1 })}>{flag.key}</Link>
                          {flag.name === "" ? null : <span className="flag-description">{flag.name}</span>}
                        </td>
                        <td data-label="Deleted"><When at={flag.updated_at} /></td>
                        <td data-label="By">{flag.last_modified_by?.email ?? ""}</td>
                        <td>
                          {flag.can_edit
                            ? (
                              <button type="button" disabled={busy === flag.id} aria-label={`Restore ${flag.key}`} onClick={() => restore(flag)}>
                                Restore
                              </button>
                            )
                            : null}
                          {refusals.has(flag.id) ? <p role="alert" className="inline-error">{refusals.get(flag.id)}</p> : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pagination
                  label="Deleted flags pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(pageNumber) => hrefOf({ page: "deletedFlags", projectId, search, pageNumber })}
                />
              </>
            )}
      </Resourceful>
    </>
  )
}
