import { useState } from "react"
import { type ApiError, asApiError, request } from "../api/client.ts"
import { invalidate, invalidateWith } from "../api/resources.ts"
import { reread, urlOf, useApi } from "../api/use-api.ts"
import { Link, navigate } from "../router/navigation.tsx"
import { hrefOf } from "../router/routes.ts"
import { useMe } from "../shell/me.ts"
import { ConfirmDialog } from "../ui/confirm-dialog.tsx"
import { usePageTitle } from "../ui/page-title.ts"
import { Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"
import { Deliveries, DELIVERIES_PATH, deliveriesOptions } from "../webhooks/deliveries.tsx"
import { canChangeWebhooks, eventsWords, type Webhook, WEBHOOK_PATH, webhooksPrefix } from "../webhooks/webhook.ts"
import { type WebhookDraft, WebhookForm } from "../webhooks/webhook-form.tsx"

const TEST_PATH = "/api/projects/:project_id/webhooks/:id/test/"

/** What a member who may not change webhooks sees of one. */
const WebhookDetails = ({ webhook }: { readonly webhook: Webhook }) => (
  <>
    <p>Only the organization's administrators and owners can change, test or delete webhooks.</p>
    <dl className="details">
      <dt>Receiver URL</dt>
      <dd className="long-text">{webhook.url}</dd>
      <dt>Description</dt>
      <dd>{webhook.description === "" ? "None" : webhook.description}</dd>
      <dt>Events</dt>
      <dd>{eventsWords(webhook.events)}</dd>
      <dt>Created</dt>
      <dd><When at={webhook.created_at} /></dd>
    </dl>
  </>
)

/**
 * One webhook: its settings, a quick enable or disable, a test delivery, its deletion (asked first) and
 * its deliveries, a page at a time (`pageNumber`). Only administrators may change it; others read it.
 */
export default function WebhookPage({ projectId, webhookId, pageNumber }: {
  readonly projectId: string
  readonly webhookId: string
  readonly pageNumber: number
}) {
  const me = useMe()
  const options = { params: { project_id: projectId, id: webhookId } }
  const key = urlOf(WEBHOOK_PATH, options)
  const webhook = useApi(WEBHOOK_PATH, options)
  const project = useApi("/api/projects/:project_id/", { params: { project_id: projectId } })
  const canChange = canChangeWebhooks(me, project.status === "ready" ? project.data.organization : undefined)
  usePageTitle(webhook.status === "ready" ? `Webhook ${webhook.data.url}` : "Webhook")
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [formError, setFormError] = useState<ApiError | undefined>(undefined)
  const [notice, setNotice] = useState<string | undefined>(undefined)
  // A new form after a switch from the head's button, showing what the API holds; kept across saves.
  const [generation, setGeneration] = useState(0)

  const run = (work: () => Promise<string>, onError: (error: ApiError) => void) => {
    setBusy(true)
    setError(undefined)
    setFormError(undefined)
    setNotice(undefined)
    work().then(setNotice, (cause: unknown) => onError(asApiError(cause))).finally(() => setBusy(false))
  }
  const update = (payload: Partial<WebhookDraft>) =>
    request("PATCH", WEBHOOK_PATH, { ...options, payload }).then((updated) => invalidateWith(webhooksPrefix(projectId), key, updated))
  const save = (draft: WebhookDraft) => run(() => update(draft).then(() => "Saved."), setFormError)
  const setEnabled = (enabled: boolean) =>
    run(() =>
      update({ enabled }).then(() => {
        setGeneration((old) => old + 1)
        return enabled ? "The webhook is enabled." : "The webhook is disabled: nothing is sent to it until it is enabled again."
      }), setError)
  const sendTest = () =>
    run(async () => {
      await request("POST", TEST_PATH, { ...options, payload: undefined })
      const first = deliveriesOptions(projectId, webhookId, 1)
      await reread(urlOf(DELIVERIES_PATH, first), DELIVERIES_PATH, first)
      navigate(hrefOf({ page: "webhook", projectId, webhookId, pageNumber: 1 }))
      return "A test delivery was sent; it is listed under Deliveries."
    }, setError)

  return (
    <Resourceful resource={webhook} onRetry={() => invalidate(key)}>
      {(webhook) => (
        <>
          <p className="breadcrumb">
            <Link href={hrefOf({ page: "webhooks", projectId, pageNumber: 1 })}>Webhooks</Link>
          </p>
          <div className="page-head">
            <h1 className="long-text">{webhook.url}</h1>
            <span className={webhook.enabled ? "badge badge-active" : "badge"}>{webhook.enabled ? "Enabled" : "Disabled"}</span>
          </div>
          {canChange
            ? (
              <div className="actions">
                <button type="button" disabled={busy} onClick={sendTest}>Send test</button>
                <button type="button" disabled={busy} onClick={() => setEnabled(!webhook.enabled)}>{webhook.enabled ? "Disable" : "Enable"}</button>
                <ConfirmDialog
                  label="Delete webhook"
                  title={`Delete the webhook to ${webhook.url}?`}
                  confirmLabel="Delete webhook"
                  disabled={busy}
                  action={() => request("DELETE", WEBHOOK_PATH, options)}
                  onDone={() => {
                    invalidate(webhooksPrefix(projectId))
                    navigate(hrefOf({ page: "webhooks", projectId, pageNumber: 1 }), { replace: true })
                  }}
                >
                  <p>Its deliveries go with it, and pending ones are not sent. A receiver that still expects it gets nothing more.</p>
                </ConfirmDialog>
              </div>
            )
            : null}
          <p role="status" className="notice">{notice ?? ""}</p>
          {error === undefined ? null : <p role="alert" className="form-error">{error.detail}</p>}
          <section aria-labelledby="webhook-settings-title" className="form-section">
            <h2 id="webhook-settings-title">Settings</h2>
            {project.status !== "ready"
              ? <Resourceful resource={project}>{() => null}</Resourceful>
              : canChange
              ? (
                <WebhookForm
                  key={`${webhook.id}-${generation}`}
                  initial={{ url: webhook.url, description: webhook.description, events: webhook.events, enabled: webhook.enabled }}
                  isNew={false}
                  busy={busy}
                  error={formError}
                  onSave={save}
                />
              )
              : <WebhookDetails webhook={webhook} />}
          </section>
          <Deliveries projectId={projectId} webhookId={webhookId} pageNumber={pageNumber} />
        </>
      )}
    </Resourceful>
  )
}
