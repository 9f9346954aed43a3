import type { PageRequest } from "../shared/page.ts"
import type { CohortPersons } from "./model.ts"

/** A page of a static cohort's members, as read. */
export interface MembersPage {
  readonly distinctIds: ReadonlyArray<string>
  readonly request: PageRequest
}

/**
 * PostHog's persons page: each member as the person fields a distinct id fills, `next` while a page is
 * full, `previous` while there is room before; the links set `offset` on the request's own URL.
 */
export const toPersonsEnvelope = (page: MembersPage, requestUrl: string): CohortPersons => {
  const { limit, offset } = page.request
  const link = (at: number) => {
    const url = new URL(requestUrl)
    url.searchParams.set("offset", String(at))
    return url.toString()
  }
  return {
    results: page.distinctIds.map((id) => ({ type: "person", name: id, distinct_ids: [id], properties: {} })),
    next: page.distinctIds.length >= limit ? link(offset + limit) : null,
    previous: offset - limit >= 0 ? link(offset - limit) : null
  }
}
