import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { STATUS_WORDS } from "./flag.tsx"

const STATUS_PATH = "/api/projects/:project_id/feature_flags/:id/status/"

const UNITS: ReadonlyArray<readonly [Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1]
]

/** How long ago `iso` was, in words ("3 hours ago", "yesterday"). */
export const ago = (iso: string, now = Date.now()): string => {
  const seconds = Math.round((Date.parse(iso) - now) / 1000)
  const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) ?? ["second", 1]
  return new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }).format(Math.round(seconds / size), unit)
}

/** A status the API may add later is shown as it words it. */
const statusWords = (status: string): string =>
  (STATUS_WORDS as Record<string, string | undefined>)[status.toUpperCase()] ?? status

/**
 * The flag's status as `GET …/status/` decides it, with its reason in the API's words, and when an
 * evaluation last asked for the flag (its `last_called_at`).
 */
export const FlagStatus = ({ projectId, flagId, lastCalledAt }: {
  readonly projectId: string
  readonly flagId: string
  readonly lastCalledAt: string | null
}) => {
  const options = { params: { project_id: projectId, id: flagId } }
  const status = useApi(STATUS_PATH, options)
  return (
    <dl className="details flag-status">
      <dt>Status</dt>
      <dd>
        {/* Inline, not the block states: the line keeps its place while the status loads. */}
        {status.status === "ready"
          ? (
            <>
              <span className={`badge badge-${status.data.status}`}>{statusWords(status.data.status)}</span>{" "}
              <span className="status-reason">{status.data.reason}</span>
            </>
          )
          : status.status === "failed"
          ? (
            <span role="alert">
              <span className="inline-error">{status.error.detail}</span>{" "}
              <button type="button" onClick={() => invalidate(urlOf(STATUS_PATH, options))}>Try again</button>
            </span>
          )
          : <span className="hint">Loading…</span>}
      </dd>
      <dt>Last evaluated</dt>
      <dd>
        {lastCalledAt === null
          ? "Never"
          : <time dateTime={lastCalledAt} title={new Date(lastCalledAt).toLocaleString()}>{ago(lastCalledAt)}</time>}
      </dd>
    </dl>
  )
}
