import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import { invalidate } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { hrefOf } from "../router/routes.ts"
import { organizationName, useMe } from "../shell/me.ts"
import { OrganizationTabs } from "../shell/organization-tabs.tsx"
import { Alert } from "../ui/alert.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { useToast } from "../ui/toast.tsx"
import { When } from "../ui/when.tsx"

const PAGE_SIZE = 20
const PATH = "/api/organizations/:organization_id/batch_exports/"
const SWITCHES = {
  pause: "/api/organizations/:organization_id/batch_exports/:id/pause/",
  unpause: "/api/organizations/:organization_id/batch_exports/:id/unpause/"
} as const

type BatchExport = Success<"GET", "/api/organizations/:organization_id/batch_exports/:id/">

/** PostHog's destinations are `{type, config}`; the store keeps whatever an operator gave. */
const destinationOf = (destination: unknown): string => {
  if (typeof destination === "object" && destination !== null && !Array.isArray(destination)) {
    const type = (destination as { readonly type?: unknown }).type
    if (typeof type === "string") return type
    if (Object.keys(destination).length === 0) return "Not set"
  }
  return JSON.stringify(destination)
}

/**
 * An organization's batch exports and their pause switch. Operators create them (`hedgerow admin
 * batch-exports create`); nothing here runs them, so pausing only records that they should not run.
 */
export default function BatchExportsPage({ organizationId, pageNumber }: {
  readonly organizationId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const name = organizationName(me, organizationId)
  usePageTitle(`Batch exports · ${name}`)
  const options = {
    params: { organization_id: organizationId },
    query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) }
  }
  const key = urlOf(PATH, options)
  const exports = useApi(PATH, options)
  const [busy, setBusy] = useState<string | undefined>(undefined)
  // Said at the window's foot: on a phone the switch is far below the page's head.
  const toast = useToast()
  const [error, setError] = useState<ApiError | undefined>(undefined)

  const switchPaused = (batchExport: BatchExport, pause: boolean) => {
    setBusy(batchExport.id)
    setError(undefined)
    const params = { organization_id: organizationId, id: batchExport.id }
    request("POST", SWITCHES[pause ? "pause" : "unpause"], { params })
      .then(() => reread(urlOf(PATH, { params: { organization_id: organizationId } }), PATH, options))
      .then(() => toast(`${batchExport.name} is ${pause ? "paused" : "running"}.`))
      .catch((cause: unknown) => setError(asApiError(cause)))
      .finally(() => setBusy(undefined))
  }

  return (
    <>
      <h1>{name}</h1>
      <OrganizationTabs organizationId={organizationId} current="batchExports" />
      <h2>Batch exports</h2>
      {error === undefined ? null : <Alert className="form-error">{error.detail}</Alert>}
      <Resourceful resource={exports} onRetry={() => invalidate(key)}>
        {(page) =>
          page.count === 0
            ? (
              <Empty title="This organization has no batch exports.">
                <p>An operator creates them with <code>hedgerow admin batch-exports create</code>.</p>
              </Empty>
            )
            : page.results.length === 0
            ? (
              <PastTheEnd firstPage={hrefOf({ page: "batchExports", organizationId, pageNumber: 1 })} />
            )
            : (
              <>
                <table className="stack">
                  <caption className="visually-hidden">Batch exports, {page.count} in all</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Destination</th>
                      <th scope="col">Interval</th>
                      <th scope="col">State</th>
                      <th scope="col">Last paused</th>
                      <th scope="col"><span className="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.results.map((batchExport) => (
                      <tr key={batchExport.id}>
                        <th scope="row">{batchExport.name}</th>
                        <td data-label="Destination">{destinationOf(batchExport.destination)}</td>
                        <td data-label="Interval">{batchExport.interval}</td>
                        <td data-label="State">
                          <span className={batchExport.paused ? "badge" : "badge badge-active"}>{batchExport.paused ? "Paused" : "Running"}</span>
                        </td>
                        <td data-label="Last paused"><When at={batchExport.last_paused_at} /></td>
                        <td>
                          <button
                            type="button"
                            disabled={busy === batchExport.id}
                            onClick={() => switchPaused(batchExport, !batchExport.paused)}
                          >
                            {batchExport.paused ? "Unpause" : "Pause"} <span className="visually-hidden">{batchExport.name}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pagination
                  label="Batch exports pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "batchExports", organizationId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
    </>
  )
}
