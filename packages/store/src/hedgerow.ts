import { CoreServices } from "@hedgerow/core"
import { Layer } from "effect"
import { PasswordHashingFromConfig } from "./password-hashing.ts"
import * as Store from "./store.ts"

/** Core's services over a store: the whole of Hedgerow without a transport, for servers, CLIs and embedding apps. */
export const layer = (options: Store.StoreOptions = {}) =>
  CoreServices.layerNoDeps.pipe(Layer.provide(PasswordHashingFromConfig), Layer.provideMerge(Store.layer(options)))
