import { spawnSync } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { archiveDirectory } from "../src/sql/directory-archive.ts"

const root = mkdtempSync(path.join(tmpdir(), "hedgerow-archive-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe("a directory as a tar archive", () => {
  it("is a standard archive that tar reads back whole: files of every size around a block, nested directories, an empty one", async () => {
    const source = path.join(root, "source")
    const files: Record<string, Buffer> = {
      "PG_VERSION": Buffer.from("17\n"),
      "empty-file": Buffer.alloc(0),
      "base/1/1259": Buffer.alloc(512, 7),
      "base/1/1259_fsm": Buffer.alloc(513, 9),
      "pg_wal/000000010000000000000001": Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251))
    }
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(source, name)), { recursive: true })
      writeFileSync(path.join(source, name), data)
    }
    mkdirSync(path.join(source, "pg_tblspc"))

    const parts = await archiveDirectory(source)
    const file = path.join(root, "source.tar")
    writeFileSync(file, Buffer.concat(parts))
    const listed = spawnSync("tar", ["-tf", file], { encoding: "utf8" })
    expect(listed.status).toBe(0)
    expect(listed.stdout.split("\n").filter((line) => line !== "").sort()).toEqual(
      ["/PG_VERSION", "/base", "/base/1", "/base/1/1259", "/base/1/1259_fsm", "/empty-file", "/pg_tblspc", "/pg_wal", "/pg_wal/000000010000000000000001"]
    )
    const copy = path.join(root, "copy")
    mkdirSync(copy)
    const extracted = spawnSync("tar", ["-xf", file, "-C", copy], { encoding: "utf8" })
    expect(extracted.status).toBe(0)
    for (const [name, data] of Object.entries(files)) expect(readFileSync(path.join(copy, name)).equals(data), name).toBe(true)
  })

  it("refuses a name too long for the archive's header rather than cutting it", async () => {
    const source = path.join(root, "long")
    mkdirSync(source)
    writeFileSync(path.join(source, "n".repeat(120)), "x")
    await expect(archiveDirectory(source)).rejects.toThrow(`/${"n".repeat(120)} is too long a name for the archive (121 bytes, at most 100)`)
  })
})
