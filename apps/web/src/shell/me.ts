import { createContext, useContext } from "react"
import type { Success } from "../api/contract.ts"

export type Me = Success<"GET", "/api/users/@me/">

/** The logged-in user, as `/api/users/@me/` answers: every page inside the shell has one. */
export const MeContext = createContext<Me | undefined>(undefined)

export const useMe = (): Me => {
  const me = useContext(MeContext)
  if (me === undefined) throw new Error("useMe outside the logged-in shell")
  return me
}

/** An organization's name when the user belongs to it, else its id. */
export const organizationName = (me: Me, organizationId: string): string =>
  me.organizations.find((organization) => organization.id === organizationId)?.name ?? organizationId
