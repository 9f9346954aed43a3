import { mayAdminister } from "@hedgerow/core/levels"
import type { Me } from "../shell/me.ts"

/** The organization levels the API knows (1 member, 8 administrator, 15 owner), in words. */
export const LEVELS = [[1, "Member"], [8, "Admin"], [15, "Owner"]] as const

export const levelWords = (level: number): string => LEVELS.find(([value]) => value === level)?.[1] ?? `Level ${level}`

/** The caller's level in the organization, from `@me` (null when they are not a member). */
export const myLevel = (me: Me, organizationId: string): number | null =>
  me.organizations.find((organization) => organization.id === organizationId)?.membership_level ?? null

/**
 * The levels worth offering someone at `level`: none above it, which the API refuses (its words are shown
 * when it does). Unknown, all of them: the API decides.
 */
export const levelOptions = (level: number | null): Array<readonly [string, string]> =>
  LEVELS.filter(([value]) => level === null || value <= level).map(([value, words]) => [String(value), words] as const)

/**
 * Whether the page offers the controls of an administrator to someone at `level`: core's rule. Unknown,
 * they are offered, and the API decides.
 */
export const mayAdministerAt = (level: number | null): boolean => level === null || mayAdminister(level)
