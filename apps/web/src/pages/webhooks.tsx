import { useState } from "react"
import { request } from "../api/client.ts"
import { invalidate } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { Link } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { useMe } from "../shell/me.ts"
import { ProjectHead } from "../shell/project-head.tsx"
import { Pagination, PastTheEnd } from "../ui/pagination.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { TableScroll } from "../ui/table-scroll.tsx"
import { useWrite } from "../ui/writes.ts"
import { canChangeWebhooks, eventsWords, WEBHOOKS_PATH, webhooksPrefix } from "../webhooks/webhook.ts"
import { emptyWebhookDraft, type WebhookDraft, WebhookForm } from "../webhooks/webhook-form.tsx"
import { WebhookSecret } from "../webhooks/secret.tsx"

const PAGE_SIZE = 20

/**
 * A project's webhooks, oldest first, each linking to its page (settings, test, deliveries); an
 * administrator adds one here and sees its signing secret this once. Anyone else reads the list only.
 */
export default function WebhooksPage({ projectId, pageNumber }: { readonly projectId: string; readonly pageNumber: number }) {
  const me = useMe()
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  const canChange = canChangeWebhooks(me, project.status === "ready" ? project.data.organization : undefined)
  const options = { params: { project_id: projectId }, query: { limit: String(PAGE_SIZE), offset: String((pageNumber - 1) * PAGE_SIZE) } }
  const webhooks = useApi(WEBHOOKS_PATH, options)
  const { busy, error, run } = useWrite()
  const [created, setCreated] = useState<{ readonly url: string; readonly secret: string } | undefined>(undefined)
  // A new form after each webhook added, emptied.
  const [generation, setGeneration] = useState(0)
  const add = (draft: WebhookDraft) => {
    setCreated(undefined)
    run(async () => {
      const payload = { url: draft.url, description: draft.description, events: draft.events }
      const webhook = await request("POST", WEBHOOKS_PATH, { params: { project_id: projectId }, payload })
      await reread(webhooksPrefix(projectId), WEBHOOKS_PATH, options)
      setGeneration((old) => old + 1)
      setCreated({ url: webhook.url, secret: webhook.secret })
    })
  }
  return (
    <>
      <ProjectHead projectId={projectId} current="webhooks" title="Webhooks" />
      <h2>Webhooks</h2>
      <p>Signed HTTP requests to a receiver of yours when the project's flags or cohorts change.</p>
      {created === undefined ? null : <WebhookSecret url={created.url} secret={created.secret} />}
      <Resourceful resource={webhooks} onRetry={() => invalidate(urlOf(WEBHOOKS_PATH, options))}>
        {(page) =>
          page.count === 0
            ? <Empty title="This project has no webhooks yet." />
            : page.results.length === 0
            ? <PastTheEnd firstPage={hrefOf({ page: "webhooks", projectId, pageNumber: 1 })} />
            : (
              <>
                <TableScroll label="Webhooks">
                  <table>
                    <caption className="visually-hidden">Webhooks, {page.count} in all</caption>
                    <thead>
                      <tr>
                        <th scope="col">Receiver</th>
                        <th scope="col">Description</th>
                        <th scope="col">Events</th>
                        <th scope="col">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {page.results.map((webhook) => (
                        <tr key={webhook.id}>
                          <td className="long-text">
                            <Link href={hrefOf({ page: "webhook", projectId, webhookId: webhook.id, pageNumber: 1 })}>{webhook.url}</Link>
                          </td>
                          <td>{webhook.description}</td>
                          <td>{eventsWords(webhook.events)}</td>
                          <td><span className={webhook.enabled ? "badge badge-active" : "badge"}>{webhook.enabled ? "Enabled" : "Disabled"}</span></td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
                <Pagination
                  label="Webhooks pages"
                  count={page.count}
                  pageSize={PAGE_SIZE}
                  pageNumber={pageNumber}
                  hrefFor={(number) => hrefOf({ page: "webhooks", projectId, pageNumber: number })}
                />
              </>
            )}
      </Resourceful>
      <section aria-labelledby="new-webhook-title" className="form-section">
        <h2 id="new-webhook-title">Add a webhook</h2>
        {project.status !== "ready"
          ? null
          : canChange
          ? <WebhookForm key={generation} initial={emptyWebhookDraft()} isNew busy={busy} error={error} onSave={add} />
          : <p>Only the organization's administrators and owners can add or change webhooks.</p>}
      </section>
    </>
  )
}
