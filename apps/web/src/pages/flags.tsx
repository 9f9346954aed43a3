import { type FormEvent, useState } from "react"
import { reread, useApi } from "../api/use-api.ts"
import { BulkActions, type BulkOutcome, BulkReport } from "../flags/bulk-actions.tsx"
import { tagsOf } from "../flags/draft.ts"
import { type Flag, FLAGS_PATH, flagsPrefix } from "../flags/flag.tsx"
import { FlagTable, selectableFlags } from "../flags/flag-table.tsx"
import { Link, navigate } from "../router/navigation.tsx"
import { ALL_FLAGS, type FlagList, hrefOf } from "../router/routes.ts"
import { ProjectHead } from "../shell/project-head.tsx"
import { SelectField, TextField } from "../ui/field.tsx"
import { useKeptWhileLoading } from "../ui/kept-while-loading.ts"
import { useSearchAsYouType } from "../ui/search-as-you-type.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"

const PAGE_SIZE = 20
/** How many of the organization's members the creator filter offers. */
const LISTED_MEMBERS = 100

const TYPES = [["", "Any type"], ["boolean", "Boolean"], ["multivariant", "Multiple variants"], ["experiment", "Experiment"]] as const
const STATUSES = [["", "Any status"], ["true", "Active"], ["false", "Inactive"], ["STALE", "Stale"]] as const

/**
 * The filters: the search applies as it is typed, the selects on change and the tags on submission.
 */
const Filters = ({ projectId, list, organizationId }: {
  readonly projectId: string
  readonly list: FlagList
  readonly organizationId: string | undefined
}) => {
  const [search, setSearch] = useSearchAsYouType(list.search, (search) => hrefOf({ page: "flags", projectId, list: { ...list, search, pageNumber: 1 } }))
  const [tags, setTags] = useState(list.tags.join(", "))
  const members = useApi(
    "/api/organizations/:organization_id/members/",
    organizationId === undefined ? null : { params: { organization_id: organizationId }, query: { limit: String(LISTED_MEMBERS) } }
  )
  // The page stays, in a new state: the focus stays on the control that changed it.
  const go = (change: Partial<FlagList>) =>
    navigate(hrefOf({ page: "flags", projectId, list: { ...list, search, tags: tagsOf(tags), ...change, pageNumber: 1 } }), { keepFocus: true })
  const submit = (event: FormEvent) => {
    event.preventDefault()
    go({})
  }
  const creators: Array<readonly [string, string]> = [["", "Anyone"]]
  if (members.status === "ready") for (const member of members.data.results) creators.push([String(member.user.id), member.user.email])
  if (list.created_by_id !== "" && !creators.some(([id]) => id === list.created_by_id)) creators.push([list.created_by_id, `User ${list.created_by_id}`])
  return (
    <form role="search" aria-label="Filter feature flags" className="filters" onSubmit={submit}>
      <TextField label="Search" type="search" name="search" value={search} onValue={setSearch} hint="Key or description, as you type" />
      <SelectField label="Type" options={TYPES} value={list.type} onValue={(type) => go({ type })} />
      <SelectField label="Status" options={STATUSES} value={list.active} onValue={(active) => go({ active })} />
      <TextField label="Tags" name="tags" value={tags} onValue={setTags} hint="Comma-separated" />
      <SelectField label="Created by" options={creators} value={list.created_by_id} onValue={(created_by_id) => go({ created_by_id })} />
      <button type="submit">Apply filters</button>
    </form>
  )
}

/**
 * A project's flags, filtered, sorted and paged by the URL: the project's first page, under its name as
 * an organization's pages are. Rows can be selected for a change to all of them at once.
 */
export default function FlagsPage({ projectId, list }: { readonly projectId: string; readonly list: FlagList }) {
  // The same read as the head's (one request): the organization, for the filters' creators.
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  const options = {
    params: { project_id: projectId },
    query: {
      limit: String(PAGE_SIZE),
      offset: String((list.pageNumber - 1) * PAGE_SIZE),
      search: list.search === "" ? undefined : list.search,
      type: list.type === "" ? undefined : list.type,
      active: list.active === "" ? undefined : list.active,
      tags: list.tags.length === 0 ? undefined : JSON.stringify(list.tags),
      created_by_id: list.created_by_id === "" ? undefined : list.created_by_id,
      order: list.order === "" ? undefined : list.order
    }
  }
  // Another search, order or filter keeps the rows shown until its own are in.
  const { resource: flags, loading } = useKeptWhileLoading(useApi(FLAGS_PATH, options), projectId)
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set())
  const [outcome, setOutcome] = useState<BulkOutcome | undefined>(undefined)
  const filtered = list.search !== "" || list.type !== "" || list.active !== "" || list.tags.length > 0 || list.created_by_id !== ""
  // After a write the page is read again in place (no loading state), so the keyboard keeps its place.
  const refresh = () => reread(flagsPrefix(projectId), FLAGS_PATH, options)
  const select = (ids: ReadonlyArray<number>, on: boolean) =>
    setSelected((old) => {
      const next = new Set(old)
      for (const id of ids) if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const done = (result: BulkOutcome) => {
    setOutcome(result)
    // The refused flags stay selected, to try again once what refused them is settled.
    setSelected(new Set(result.refused.map((refusal) => refusal.id)))
    void refresh()
  }
  const onShown = (page: { readonly results: ReadonlyArray<Flag> }) => page.results.filter((flag) => selected.has(flag.id))
  return (
    <>
      <ProjectHead projectId={projectId} current="flags" title="Feature flags" />
      <div className="page-head">
        <h2>Feature flags</h2>
        <Link href={hrefOf({ page: "deletedFlags", projectId, search: "", pageNumber: 1 })}>Deleted flags</Link>
        <button type="button" className="primary" onClick={() => navigate(hrefOf({ page: "newFlag", projectId }))}>New feature flag</button>
      </div>
      {/* Keyed by the URL's tags, so that back and forward show them in the form too (the search follows by itself). */}
      <Filters
        key={list.tags.join(",")}
        projectId={projectId}
        list={list}
        organizationId={project.status === "ready" ? project.data.organization : undefined}
      />
      <BulkReport outcome={outcome} />
      <Resourceful resource={flags} onRetry={() => void refresh()}>
        {(page) =>
          page.count === 0
            ? (
              <Empty title={filtered ? "No feature flag matches these filters." : "This project has no feature flags yet."}>
                {filtered ? <Link href={hrefOf({ page: "flags", projectId, list: ALL_FLAGS })}>Clear the filters</Link> : null}
              </Empty>
            )
            : page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "flags", projectId, list: { ...list, pageNumber: 1 } })} />
            )
            : (
              <>
                {selectableFlags(page.results).length > 0 ? <BulkActions projectId={projectId} selected={onShown(page)} onDone={done} /> : null}
                <FlagTable
                  loading={loading}
                  projectId={projectId}
                  flags={page.results}
                  count={page.count}
                  order={list.order}
                  onOrder={(order) => navigate(hrefOf({ page: "flags", projectId, list: { ...list, order, pageNumber: 1 } }), { keepFocus: true })}
                  selected={selected}
                  onSelect={select}
                  onChanged={() => void refresh()}
                />
                <Pagination
                  label="Feature flags pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={list.pageNumber}
                  hrefFor={(pageNumber) => hrefOf({ page: "flags", projectId, list: { ...list, pageNumber } })}
                />
              </>
            )}
      </Resourceful>
    </>
  )
}
