/** RFC 4648's base32 alphabet, the one authenticator apps and otpauth addresses use. */
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** Bytes in base32, upper case, without padding. */
export const base32Encode = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
    buffer &= (1 << bits) - 1
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]
  return out
}

/** Base32 text back to bytes; case and `=` padding are ignored. Only this server's own secrets are decoded. */
export const base32Decode = (text: string): Buffer => {
  const bytes: Array<number> = []
  let buffer = 0
  let bits = 0
  for (const char of text.toUpperCase()) {
    if (char === "=") continue
    const value = ALPHABET.indexOf(char)
    if (value === -1) throw new Error("not base32")
    buffer = (buffer << 5) | value
    bits += 5
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff)
      bits -= 8
    }
    buffer &= (1 << bits) - 1
  }
  return Buffer.from(bytes)
}
