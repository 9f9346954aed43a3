import { useEffect } from "react"
import { invalidate } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { hrefOf } from "../router/routes.ts"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { TableScroll } from "../ui/table-scroll.tsx"
import { When } from "../ui/when.tsx"

export const DELIVERIES_PATH = "/api/projects/:project_id/webhooks/:id/deliveries/"
const DELIVERIES_PAGE_SIZE = 20
/** The soonest the list is read again while a delivery on it is still being tried. */
const PENDING_POLL_MS = 2000

/**
 * How long to wait before reading the list again: until the earliest pending delivery's next attempt, and
 * at least `PENDING_POLL_MS`; none when nothing is pending. A receiver that stays down is retried over
 * hours, and an open page reads the list only as often as something can change on it.
 */
const nextReadIn = (deliveries: ReadonlyArray<{ readonly status: string; readonly next_attempt_at: string | null }>, now: number) => {
  const due = deliveries.filter((delivery) => delivery.status === "pending")
    .map((delivery) => delivery.next_attempt_at === null ? now : Date.parse(delivery.next_attempt_at))
  return due.length === 0 ? undefined : Math.max(PENDING_POLL_MS, Math.min(...due) - now)
}

const STATUS_WORDS = { pending: "Pending", delivered: "Delivered", failed: "Failed" } as const

/** What the receiver answered one attempt, or why it did not. */
const answerOf = (attempt: { readonly status_code: number | null; readonly error: string | null }): string =>
  attempt.status_code !== null ? `HTTP ${attempt.status_code}` : attempt.error ?? "No answer"

/** The list's query for a page. */
export const deliveriesOptions = (projectId: string, webhookId: string, pageNumber: number) => ({
  params: { project_id: projectId, id: webhookId },
  query: { limit: String(DELIVERIES_PAGE_SIZE), offset: String((pageNumber - 1) * DELIVERIES_PAGE_SIZE) }
})

/**
 * A webhook's deliveries, newest first, a page at a time: the event, whether it arrived, how many tries it
 * took, what the receiver last answered (each attempt's time, answer and reply opening below it), and
 * when. While one is pending the list reads itself again.
 */
export const Deliveries = ({ projectId, webhookId, pageNumber }: {
  readonly projectId: string
  readonly webhookId: string
  readonly pageNumber: number
}) => {
  const options = deliveriesOptions(projectId, webhookId, pageNumber)
  const key = urlOf(DELIVERIES_PATH, options)
  const deliveries = useApi(DELIVERIES_PATH, options)
  const readIn = deliveries.status === "ready" ? nextReadIn(deliveries.data.results, Date.now()) : undefined
  useEffect(() => {
    if (readIn === undefined) return
    const wait = setTimeout(() => void reread(key, DELIVERIES_PATH, options).catch(() => invalidate(key)), readIn)
    return () => clearTimeout(wait)
  }, [deliveries, readIn, key])
  return (
    <section aria-labelledby="deliveries-title">
      <div className="page-head">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" onClick={() => void reread(key, DELIVERIES_PATH, options).catch(() => invalidate(key))}>Refresh deliveries</button>
      </div>
      <Resourceful resource={deliveries} onRetry={() => invalidate(key)}>
        {(page) =>
          page.count === 0
            ? <Empty title="Nothing has been sent to this webhook yet." />
            : page.results.length === 0
            ? <PastTheEnd firstPage={hrefOf({ page: "webhook", projectId, webhookId, pageNumber: 1 })} />
            : (
              <>
                <TableScroll label="Deliveries">
                  <table>
                    <caption className="visually-hidden">Deliveries, {page.count} in all</caption>
                    <thead>
                      <tr>
                        <th scope="col">Event</th>
                        <th scope="col">Status</th>
                        <th scope="col">Attempts</th>
                        <th scope="col">Response</th>
                        <th scope="col">Created</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.results.map((delivery) => {
                        const last = delivery.attempts.at(-1)
                        return (
                          <tr key={delivery.id}>
                            <td><code>{delivery.event}</code></td>
                            <td><span className={`badge badge-delivery-${delivery.status}`}>{STATUS_WORDS[delivery.status]}</span></td>
                            <td>{delivery.attempts.length}</td>
                            <td>
                              {last === undefined ? "Not tried yet" : (
                                <details>
                                  <summary>{answerOf(last)}</summary>
                                  <ol className="attempts">
                                    {delivery.attempts.map((attempt) => (
                                      <li key={attempt.attempt}>
                                        <When at={attempt.started_at} />: {answerOf(attempt)} after {attempt.duration_ms} ms
                                        {attempt.response === null || attempt.response === "" ? null : <pre>{attempt.response}</pre>}
                                      </li>
                                    ))}
                                  </ol>
                                </details>
                              )}
                            </td>
                            <td><When at={delivery.created_at} /></td>
                          </tr>
                        )
                      })}
                    </tbody>
                  </table>
                </TableScroll>
                <Pagination
                  label="Deliveries pages"
                  count={page.count}
                  pageSize={DELIVERIES_PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "webhook", projectId, webhookId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
    </section>
  )
}
