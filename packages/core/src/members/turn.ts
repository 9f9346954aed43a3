import type { OrganizationId } from "../shared/ids.ts"

/**
 * The `Transactions.serialize` name taken by writes that decide who belongs to, or is invited to, an
 * organization: invites (replacing an address's invites, refusing a member's address) and member
 * additions, so that neither decides on what the other has not committed yet.
 */
export const membersTurn = (organization: OrganizationId): string => `hedgerow:members:${organization}`
