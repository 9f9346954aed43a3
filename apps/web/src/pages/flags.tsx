import { type FormEvent, useState } from "react"
import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { tagsOf } from "../flags/draft.ts"
import { FLAGS_PATH, isMultivariate, StatusBadge } from "../flags/flag.tsx"
import { Link, navigate } from "../router/navigation.tsx"
import { ALL_FLAGS, type FlagList, hrefOf } from "../router/routes.ts"
import { ProjectTabs } from "../shell/project-tabs.tsx"
import { SelectField, TextField } from "../ui/field.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"

const PAGE_SIZE = 20
/** How many of the organization's members the creator filter offers. */
const LISTED_MEMBERS = 100

const TYPES = [["", "Any type"], ["boolean", "Boolean"], ["multivariant", "Multiple variants"], ["experiment", "Experiment"]] as const
const STATUSES = [["", "Any status"], ["true", "Active"], ["false", "Inactive"], ["STALE", "Stale"]] as const

/** The filters, as a form whose submission (or a change of a select) puts them in the URL. */
const Filters = ({ projectId, list, organizationId }: {
  readonly projectId: string
  readonly list: FlagList
  readonly organizationId: string | undefined
}) => {
  const [search, setSearch] = useState(list.search)
  const [tags, setTags] = useState(list.tags.join(", "))
  const members = useApi(
    "/api/organizations/:organization_id/members/",
    organizationId === undefined ? null : { params: { organization_id: organizationId }, query: { limit: String(LISTED_MEMBERS) } }
  )
  const go = (change: Partial<FlagList>) =>
    navigate(hrefOf({ page: "flags", projectId, list: { ...list, search, tags: tagsOf(tags), ...change, pageNumber: 1 } }))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    go({})
  }
  const creators: Array<readonly [string, string]> = [["", "Anyone"]]
  if (members.status === "ready") for (const member of members.data.results) creators.push([String(member.user.id), member.user.email])
  if (list.created_by_id !== "" && !creators.some(([id]) => id === list.created_by_id)) creators.push([list.created_by_id, `User ${list.created_by_id}`])
  return (
    <form role="search" aria-label="Filter feature flags" className="filters" onSubmit={submit}>
      <TextField label="Search" type="search" name="search" value={search} onValue={setSearch} />
      <SelectField label="Type" options={TYPES} value={list.type} onValue={(type) => go({ type })} />
      <SelectField label="Status" options={STATUSES} value={list.active} onValue={(active) => go({ active })} />
      <TextField label="Tags" name="tags" value={tags} onValue={setTags} hint="Comma-separated" />
      <SelectField label="Created by" options={creators} value={list.created_by_id} onValue={(created_by_id) => go({ created_by_id })} />
      <button type="submit">Apply filters</button>
    </form>
  )
}

/** A project's flags, filtered and paged by the URL: the project's first page, under its name as an organization's pages are. */
export default function FlagsPage({ projectId, list }: { readonly projectId: string; readonly list: FlagList }) {
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  const name = project.status === "ready" ? project.data.name : undefined
  usePageTitle(name === undefined ? "Feature flags" : `Feature flags · ${name}`)
  const options = {
    params: { project_id: projectId },
    query: {
      limit: String(PAGE_SIZE),
      offset: String((list.pageNumber - 1) * PAGE_SIZE),
      search: list.search === "" ? undefined : list.search,
      type: list.type === "" ? undefined : list.type,
      active: list.active === "" ? undefined : list.active,
      tags: list.tags.length === 0 ? undefined : JSON.stringify(list.tags),
      created_by_id: list.created_by_id === "" ? undefined : list.created_by_id
    }
  }
  const flags = useApi(FLAGS_PATH, options)
  const filtered = list.search !== "" || list.type !== "" || list.active !== "" || list.tags.length > 0 || list.created_by_id !== ""
  return (
    <>
      {/* The project's name as the shell's switcher reads it too (one request); its id until then. */}
      <h1>{name ?? `Project ${projectId}`}</h1>
      <ProjectTabs projectId={projectId} current="flags" />
      <div className="page-head">
        <h2>Feature flags</h2>
        <button type="button" className="primary" onClick={() => navigate(hrefOf({ page: "newFlag", projectId }))}>New feature flag</button>
      </div>
      {/* Keyed by the URL's filters, so that back and forward show them in the form too. */}
      <Filters
        key={`${list.search}\n${list.tags.join(",")}`}
        projectId={projectId}
        list={list}
        organizationId={project.status === "ready" ? project.data.organization : undefined}
      />
      <Resourceful resource={flags} onRetry={() => invalidate(urlOf(FLAGS_PATH, options))}>
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
                <table className="flags">
                  <caption className="visually-hidden">Feature flags, {page.count} in all</caption>
                  <thead>
                    <tr>
                      <th scope="col">Key</th>
                      <th scope="col">Description</th>
                      <th scope="col">Type</th>
                      <th scope="col">Status</th>
                      <th scope="col">Tags</th>
                      <th scope="col">Created by</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.results.map((flag) => (
                      <tr key={flag.id}>
                        <td><Link href={hrefOf({ page: "flag", projectId, flagId: String(flag.id), tab: "settings", pageNumber: 1 })}>{flag.key}</Link></td>
                        <td>{flag.name}</td>
                        <td>{isMultivariate(flag) ? "Multiple variants" : "Boolean"}</td>
                        <td><StatusBadge status={flag.status} /></td>
                        <td>{flag.tags.join(", ")}</td>
                        <td>{flag.created_by?.email ?? ""}</td>
                        <td><When at={flag.created_at} dateOnly /></td>
                      </tr>
                    ))}
                  </tbody>
                </table>
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
