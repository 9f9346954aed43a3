import { randomBase62 } from "../shared/secrets.ts"

/**
 * The secret a browser holds, in an HttpOnly cookie, while an SSO log-in it started is away at the
 * provider: 40 base-62 characters from the CSPRNG. The store keeps only its SHA-256.
 */
const BROWSER_KEY = /^[0-9A-Za-z]{40}$/

export const newBrowserKey = (): string => randomBase62(40)

/** Whether a cookie's value has a browser key's form; anything else names no log-in. */
export const isBrowserKey = (text: string): boolean => BROWSER_KEY.test(text)
