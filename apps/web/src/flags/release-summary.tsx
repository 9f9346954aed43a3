import type { Flag } from "./flag.tsx"
import { summaryOf } from "./summary.ts"
import { useSummaryNames } from "./summary-names.ts"

/** One flag's release in words, as a line under its title. */
export const ReleaseSummary = ({ projectId, flag }: { readonly projectId: string; readonly flag: Flag }) => (
  <p className="release-summary">{summaryOf(flag, useSummaryNames(projectId, [flag]))}</p>
)
