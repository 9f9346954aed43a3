import type { ProjectId, UserId } from "@hedgerow/core"
import { FlagRepository, newFlagColumns, Transactions } from "@hedgerow/core/ports"
import { Effect } from "effect"

/**
 * Flag keys of a plausible product: area × feature × serial. A search for one area-feature pair finds
 * one flag in 200, which at 10,000 flags is a 50-flag page, as a person narrowing the list would get.
 */
const AREAS = ["checkout", "search", "billing", "onboarding", "analytics", "mobile", "web", "payments", "settings", "reports"]
const FEATURES = [
  "redesign", "beta", "rollout", "experiment", "killswitch", "dark-mode", "new-api", "v2", "pricing", "cache",
  "sidebar", "export", "import", "alerts", "sso", "audit", "notifications", "themes", "graphs", "limits"
]
export const SEARCH_TERM = "checkout-redesign"

const capitalized = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`

/** Mostly partial boolean rollouts, some with a person condition, some multivariate. */
export const filtersOf = (i: number) => {
  switch (i % 7) {
    case 5:
      return { groups: [{ properties: [{ key: "email", value: "@example.com", operator: "icontains", type: "person" }], rollout_percentage: 100 }] }
    case 6:
      return {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
      }
    default:
      return { groups: [{ properties: [], rollout_percentage: (i * 13) % 101 }] }
  }
}

/** The project seeded flags go to, and the user they are created by. */
export interface SeedTenant {
  readonly projectId: ProjectId
  readonly userId: UserId
}

/**
 * Flags `from` to `to - 1` of the plausible product, in one transaction through core's repository, with
 * the columns core derives for any new flag: what an import would write, without 10,000 HTTP round trips
 * (and their activity entries and dashboards, which no list reads). Ranges that do not overlap never
 * share a key, so a project can be seeded in steps.
 */
export const seedFlags = (tenant: SeedTenant, from: number, to: number) =>
  Effect.gen(function*() {
    const flags = yield* FlagRepository
    const transactions = yield* Transactions
    yield* transactions.run(Effect.forEach(
      Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i),
      (i) => {
        const area = AREAS[i % AREAS.length]!
        const feature = FEATURES[Math.floor(i / AREAS.length) % FEATURES.length]!
        const columns = newFlagColumns(
          { key: `${area}-${feature}-${i}`, name: `${capitalized(area)} ${feature} flag ${i}`, filters: filtersOf(i) },
          tenant.userId
        )
        return flags.insert({ ...columns, project_id: tenant.projectId, creation_context: "feature_flags", created_by_id: tenant.userId })
      },
      { discard: true }
    ))
  })
