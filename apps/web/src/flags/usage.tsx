import { useState } from "react"
import { invalidate } from "../api/resources.ts"
import { urlOf, useApi } from "../api/use-api.ts"
import { SelectField } from "../ui/field.tsx"
import { Empty, Resourceful } from "../ui/states.tsx"
import { When } from "../ui/when.tsx"
import { UsageChart, UsageTable } from "./usage-chart.tsx"

const PATH = "/api/projects/:project_id/feature_flags/:id/usage/"

/** The ranges offered, as the API's relative `date_from`. */
const RANGES = [["-7d", "Last 7 days"], ["-30d", "Last 30 days"], ["-90d", "Last 90 days"]] as const

/**
 * How often the flag was called, as the SDKs report it (`$feature_flag_called` events, which posthog-js
 * and posthog-node send when code reads a flag): per UTC day and value returned, drawn and in a table,
 * and when an SDK last evaluated it. The page's own test evaluations are not among them.
 */
export const UsagePanel = ({ projectId, flagId, lastCalledAt }: {
  readonly projectId: string
  readonly flagId: string
  readonly lastCalledAt: string | null
}) => {
  const [range, setRange] = useState<string>("-30d")
  const options = { params: { project_id: projectId, id: flagId }, query: { date_from: range } }
  const usage = useApi(PATH, options)
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Usage</h2>
      <div className="usage-head">
        <SelectField label="Range" value={range} onValue={setRange} options={RANGES} />
        <p>Last evaluated: <When at={lastCalledAt} /></p>
      </div>
      <Resourceful resource={usage} onRetry={() => invalidate(urlOf(PATH, options))}>
        {(report) =>
          report.total === 0
            ? (
              <Empty title="No calls reported in this range.">
                <p>SDKs report a call (a <code>$feature_flag_called</code> event) when code reads the flag; see Use in code.</p>
              </Empty>
            )
            : (
              <>
                <p className="usage-total">{report.total} calls from {report.date_from} to {report.date_to}</p>
                <UsageChart report={report} />
                <UsageTable report={report} />
              </>
            )}
      </Resourceful>
    </section>
  )
}
