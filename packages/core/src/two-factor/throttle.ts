/**
 * Guessing codes is slowed as django-otp slows it: after `n` failures in a row, no code is checked until
 * 2^(n-1) seconds have passed since the last one (1, 2, 4, 8 ... seconds), the right code included. A
 * success starts the count again.
 */
export const retryDelayMillis = (failures: number): number => (failures <= 0 ? 0 : 2 ** (failures - 1) * 1000)

/** Whether a code may be checked now, after `failures` failures in a row, the last at `lastFailure` (epoch milliseconds). */
export const verificationAllowed = (failures: number, lastFailure: number | null, now: number): boolean =>
  failures <= 0 || lastFailure === null || now - lastFailure >= retryDelayMillis(failures)
