import { randomBytes } from "node:crypto"
import { secureValueOf } from "../shared/secrets.ts"
import { base32Encode } from "./base32.ts"

/** How many backup codes a user gets at a time, as PostHog gives them. */
export const BACKUP_CODE_COUNT = 5

/** A backup code as PostHog makes them: 5 random bytes in lower-case base32, 8 characters. */
const newBackupCode = (): string => base32Encode(randomBytes(5)).toLowerCase()

/** A new set of backup codes, each different. */
export const newBackupCodes = (): ReadonlyArray<string> => {
  const codes = new Set<string>()
  while (codes.size < BACKUP_CODE_COUNT) codes.add(newBackupCode())
  return [...codes]
}

/** What is stored of a backup code: only its hash, of the code in lower case, so it is taken in either case. */
export const backupCodeHash = (code: string): string => secureValueOf(code.toLowerCase())
