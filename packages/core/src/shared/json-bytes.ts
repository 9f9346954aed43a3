import { Buffer } from "node:buffer"

const COMMA = Buffer.from(",")

/**
 * Each object's JSON bytes, made the first time they are asked for and kept with it: for objects that
 * are never changed once made, and given again while what they say holds. Each in memory of its own
 * (TextEncoder's), not carved out of Node's shared buffer pool, where one kept piece would hold a whole
 * 8 KB slab.
 */
export const keptJson = <A extends object>(textOf: (value: A) => string): (value: A) => Uint8Array => {
  const kept = new WeakMap<A, Uint8Array>()
  const encoder = new TextEncoder()
  return (value) => {
    let bytes = kept.get(value)
    if (bytes === undefined) kept.set(value, bytes = encoder.encode(textOf(value)))
    return bytes
  }
}

/**
 * JSON put together from bytes: `head`, the items' bytes with commas between them, and `tail`, in one
 * buffer, as `head + items.join(",") + tail` would read. An answer made of many kept pieces is made this
 * way outside the JavaScript heap, however large.
 */
export const joinedJson = <A>(head: string, items: ReadonlyArray<A>, bytesOf: (item: A) => Uint8Array, tail: string): Buffer => {
  const first = Buffer.from(head)
  const last = Buffer.from(tail)
  const parts: Array<Uint8Array> = [first]
  let length = first.length + last.length
  for (const item of items) {
    if (parts.length > 1) {
      parts.push(COMMA)
      length += COMMA.length
    }
    const bytes = bytesOf(item)
    parts.push(bytes)
    length += bytes.length
  }
  parts.push(last)
  return Buffer.concat(parts, length)
}
