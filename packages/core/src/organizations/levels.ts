/**
 * The organization levels (PostHog's numbers) and who may administer an organization. This file imports
 * nothing, so the web console bundles it alone (`@hedgerow/core/levels`) and shows only the controls the
 * API would allow.
 */
export const Level = { member: 1, admin: 8, owner: 15 } as const

/**
 * Whether a member at `level` may change how the organization works: its settings (the two-factor rule
 * among them), domains, roles, projects and the levels of its members.
 */
export const mayAdminister = (level: number): boolean => level >= Level.admin

/** Whether a member at `caller` may change or remove another member at `target`: an administrator, of a level at most their own. */
export const mayManageMember = (caller: number, target: number): boolean => mayAdminister(caller) && target <= caller

/** Whether a member at `caller` may give another the level `level`: owner only by an owner, else at most their own. */
export const mayGrantLevel = (caller: number, level: number): boolean => level === Level.owner ? caller === Level.owner : level <= caller
