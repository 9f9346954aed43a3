import { CURRENT, MAX_BULK_INVITES, ME } from "@hedgerow/core"
import { DEFAULT_POOL_SIZE, MIN_POOL_SIZE } from "@hedgerow/store"
import { describe, expect, it } from "vitest"
import * as Defaults from "../src/defaults.ts"

describe("the values --help shows without loading core or the store", () => {
  it("are core's and the store's own", () => {
    expect({ ...Defaults }).toEqual({ CURRENT, ME, MAX_BULK_INVITES, DEFAULT_POOL_SIZE, MIN_POOL_SIZE })
  })
})
