import * as fs from "node:fs"
import * as path from "node:path"

/**
 * A directory as a tar archive (POSIX ustar), read with asynchronous file reads so that the event loop
 * stays free while it is copied. Entries are named `/<path inside the directory>`, directories before
 * what they hold, as PGlite names the entries of its own data directory archives, so PGlite starts from
 * one (`loadDataDir`).
 */

const BLOCK = 512
const REGULAR = "0"
const DIRECTORY = "5"

/** The name field holds 100 bytes; the data directory's deepest paths are far shorter. */
const MAX_NAME = 100

const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, "0")

const header = (name: string, mode: number, size: number, mtime: Date, type: string): Uint8Array => {
  const bytes = Buffer.byteLength(name)
  if (bytes > MAX_NAME) throw new Error(`${name} is too long a name for the archive (${bytes} bytes, at most ${MAX_NAME})`)
  const block = Buffer.alloc(BLOCK)
  block.write(name, 0, "utf8")
  block.write(octal(mode & 0o7777, 8), 100, "ascii")
  block.write(octal(0, 8), 108, "ascii")
  block.write(octal(0, 8), 116, "ascii")
  block.write(octal(size, 12), 124, "ascii")
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, "ascii")
  block.write(type, 156, "ascii")
  block.write("ustar\u000000", 257, "ascii")
  // The checksum is the sum of the header's bytes with its own field counted as spaces.
  block.fill(" ", 148, 156)
  const sum = block.reduce((total, byte) => total + byte, 0)
  block.write(`${octal(sum, 7)}\u0000 `, 148, "ascii")
  return block
}

/** The archive of everything under `root`, in parts to be written one after the other. */
export const archiveDirectory = async (root: string): Promise<ReadonlyArray<Uint8Array>> => {
  const parts: Array<Uint8Array> = []
  const walk = async (dir: string, name: string): Promise<void> => {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true })
    for (const entry of entries) {
      const full = path.join(dir, entry.name)
      const entryName = `${name}/${entry.name}`
      const stat = await fs.promises.stat(full)
      if (stat.isDirectory()) {
        parts.push(header(entryName, stat.mode, 0, stat.mtime, DIRECTORY))
        await walk(full, entryName)
      } else if (stat.isFile()) {
        const data = await fs.promises.readFile(full)
        parts.push(header(entryName, stat.mode, data.byteLength, stat.mtime, REGULAR), data)
        const padding = (BLOCK - (data.byteLength % BLOCK)) % BLOCK
        if (padding > 0) parts.push(new Uint8Array(padding))
      }
    }
  }
  await walk(root, "")
  // Two empty blocks end the archive.
  parts.push(new Uint8Array(2 * BLOCK))
  return parts
}
