import { Level, mayAdminister, mayGrantLevel, mayManageMember } from "@hedgerow/core/levels"
import type { Me } from "../shell/me.ts"

/** The organization levels the API knows, in words. */
export const LEVELS = [[Level.member, "Member"], [Level.admin, "Admin"], [Level.owner, "Owner"]] as const

export const levelWords = (level: number): string => LEVELS.find(([value]) => value === level)?.[1] ?? `Level ${level}`

/** The caller's level in the organization, from `@me` (null when they are not a member). */
export const myLevel = (me: Me, organizationId: string): number | null =>
  me.organizations.find((organization) => organization.id === organizationId)?.membership_level ?? null

/**
 * The levels worth offering someone at `level`: those core lets them give (its words are shown should the
 * API refuse one). Unknown, all of them: the API decides.
 */
export const levelOptions = (level: number | null): Array<readonly [string, string]> =>
  LEVELS.filter(([value]) => level === null || mayGrantLevel(level, value)).map(([value, words]) => [String(value), words] as const)

/** Whether the page offers to change or remove a member at `target` to someone at `level`: core's rule; unknown, offered. */
export const mayManageMemberAt = (level: number | null, target: number): boolean => level === null || mayManageMember(level, target)

/**
 * Whether the page offers the controls of an administrator to someone at `level`: core's rule. Unknown,
 * they are offered, and the API decides.
 */
export const mayAdministerAt = (level: number | null): boolean => level === null || mayAdminister(level)
