import { randomBase62 } from "../shared/secrets.ts"

/** A session's secret: the `sessionid` cookie's value, 40 base-62 characters (about 238 bits) from the CSPRNG. */
const KEY_LENGTH = 40
const KEY = /^[0-9A-Za-z]{40}$/

export const newSessionKey = (): string => randomBase62(KEY_LENGTH)

/** Anything else names no session, and is not looked up. */
export const isSessionKey = (text: string): boolean => KEY.test(text)
