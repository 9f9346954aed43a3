import { Buffer } from "node:buffer"

const COMMA = 0x2c

/**
 * Keeps each object's JSON bytes: made the first time they are asked for, and kept as long as the object
 * lives. Only for objects that never change once made. Each piece has memory of its own (TextEncoder's)
 * rather than a slice of Node's shared buffer pool, where one kept slice would pin a whole 8 KB slab.
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
  const parts: Array<Uint8Array> = new Array(items.length)
  let length = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, items.length - 1)
  for (let i = 0; i < items.length; i++) length += (parts[i] = bytesOf(items[i]!)).length
  // Written straight into one buffer: no list of parts with a comma between each to concatenate.
  const joined = Buffer.allocUnsafe(length)
  let at = joined.write(head, 0)
  for (let i = 0; i < parts.length; i++) {
    if (i > 0) joined[at++] = COMMA
    joined.set(parts[i]!, at)
    at += parts[i]!.length
  }
  joined.write(tail, at)
  return joined
}
