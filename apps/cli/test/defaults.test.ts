import { CURRENT, MAX_ADDED_AT_ONCE, MAX_BULK_INVITES, MAX_MEMBERS_PER_REQUEST, ME } from "@hedgerow/core"
import { MAX_FORM_BYTES } from "@hedgerow/http-server"
import { DEFAULT_POOL_SIZE, MIN_POOL_SIZE } from "@hedgerow/store"
import { describe, expect, it } from "vitest"
import * as Defaults from "../src/defaults.ts"

describe("the values --help shows without loading core or the store", () => {
  it("are core's, the server's and the store's own", () => {
    expect({ ...Defaults }).toEqual({
      CURRENT,
      ME,
      MAX_BULK_INVITES,
      MAX_ADDED_AT_ONCE,
      MAX_MEMBERS_PER_REQUEST,
      MAX_FORM_BYTES,
      DEFAULT_POOL_SIZE,
      MIN_POOL_SIZE
    })
  })
})
