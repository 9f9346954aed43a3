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
