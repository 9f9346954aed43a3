import { randomBase62 } from "../shared/secrets.ts"

/** A link's secret: 43 base-62 characters from the CSPRNG (about 256 bits), as long as a personal API key's. */
const SECRET_LENGTH = 43
const SECRET = /^[0-9A-Za-z]{43}$/

export const newSignInSecret = (): string => randomBase62(SECRET_LENGTH)

/** Anything else names no link, and is not looked up. */
export const isSignInSecret = (text: string): boolean => SECRET.test(text)
