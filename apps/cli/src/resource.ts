import type { PageEnvelope } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { type Argument, Command } from "effect/cli"
import { emit, jsonFlag } from "./output.ts"
import type { Core } from "./packages.ts"
import { listCommand, pageFlags, type PageOptions, type PageQuery } from "./paging.ts"
import { type ApiClient, checkPayload, remoteFlags, withApi } from "./remote.ts"
import type { Scope } from "./scope.ts"

/**
 * The API commands of a resource (domains, roles, flags...) share their shape: the server's flags, where
 * the items live, an item's id, `--json`, and the same way of listing, showing, writing and deleting.
 * A resource is described once, and its commands are made from the description; a command with a
 * behaviour of its own is made from the same parts by `onAll` or `onItem`.
 */

type Config = Command.Command.Config
type Values<C extends Config> = Command.Command.Config.InferValue<C>

export interface ResourceDescription<S extends Config, At, A> {
  /** What one item is called in the lines the commands print, e.g. `Deleted domain …`. */
  readonly noun: string
  readonly scope: Scope<S, At>
  /** The argument naming one item. */
  readonly id: Argument.Argument<string>
  /** One item as text; `--json` prints it whole. */
  readonly show: (item: A) => string
}

/** What a command runs with: a client for the server, where the items live, the command's own values. */
export interface Call<At, V> {
  readonly client: ApiClient
  readonly at: At
  readonly values: V
  readonly json: boolean
}

/** The same for a command on one item. */
export interface ItemCall<At, V> extends Call<At, V> {
  readonly id: string
}

/**
 * A command's own arguments and flags: `input` comes before the scope's flag (the item's name, the
 * address to invite), `flags` after it.
 */
export interface OwnParams<I extends Config, F extends Config> {
  readonly description: string
  readonly input?: I
  readonly flags?: F
}

/** A write: the body from the command's values, checked with core's schema as the server checks it, then sent. */
export interface Write<V, C, S extends Schema.Top, A, E1, R1, E2, R2> {
  readonly body: (values: V) => Effect.Effect<object, E1, R1>
  readonly schema: (core: Core) => S
  readonly send: (call: C, payload: S["Type"]) => Effect.Effect<A, E2, R2>
}

// An absent `input` or `flags` adds no parameter; its type is then the empty config it defaults to.
const none = <C extends Config>(given: C | undefined): C => given ?? ({} as C)

/** A resource's description with the commands made from it. */
export type Resource<S extends Config, At, A> = ReturnType<typeof resource<S, At, A>>

export const resource = <S extends Config, At, A>(description: ResourceDescription<S, At, A>) => {
  const { scope } = description

  /**
   * A command with the server's flags, `lead` (the item's id, or nothing), the command's own input, the
   * scope's flags, the command's other flags and `--json`, in that order.
   */
  const command = <L extends Config, I extends Config, F extends Config, E, R>(
    name: string,
    lead: L,
    spec: OwnParams<I, F> & { readonly run: (call: Call<At, Values<I> & Values<F>> & Values<L>) => Effect.Effect<void, E, R> }
  ) =>
    Command.make(
      name,
      { ...remoteFlags, lead, input: none(spec.input), scope: scope.flags, flags: none(spec.flags), json: jsonFlag },
      (options) =>
        withApi(options, (client) =>
          spec.run({
            client,
            at: scope.at(options.scope),
            values: Object.assign({}, options.input, options.flags),
            json: options.json,
            ...options.lead
          }))
    ).pipe(Command.withDescription(spec.description))

  /** A command on the resource as a whole (a list without pages, a create that is more than a write). */
  const onAll = <I extends Config = {}, F extends Config = {}, E = never, R = never>(
    name: string,
    spec: OwnParams<I, F> & { readonly run: (call: Call<At, Values<I> & Values<F>>) => Effect.Effect<void, E, R> }
  ) => command(name, {}, spec)

  /** A command on one item, named by the resource's id argument. */
  const onItem = <I extends Config = {}, F extends Config = {}, E = never, R = never>(
    name: string,
    spec: OwnParams<I, F> & { readonly run: (call: ItemCall<At, Values<I> & Values<F>>) => Effect.Effect<void, E, R> }
  ) => command(name, { id: description.id }, spec)

  /** One page of a list, or every page with `--all`, as a table of `columns` of each item or of what `row` makes of it. */
  const pages = <Item extends object, C, E, R>(spec: {
    readonly columns: ReadonlyArray<string>
    readonly row?: (item: Item) => object
    readonly fetch: (call: C, page: PageQuery) => Effect.Effect<PageEnvelope<Item>, E, R>
  }) =>
  (call: C, options: PageOptions & { readonly json: boolean }) =>
    listCommand(options, spec.columns, (page) => spec.fetch(call, page), spec.row)

  /** Body, check, send, then the answer as text or JSON. */
  const written = <V, C extends Call<At, V>, Sc extends Schema.Top, E1, R1, E2, R2>(
    spec: Write<V, C, Sc, A, E1, R1, E2, R2> & { readonly show?: (item: A) => string }
  ) =>
  (call: C) =>
    spec.body(call.values).pipe(
      Effect.flatMap((body) => checkPayload(spec.schema, body)),
      Effect.flatMap((payload) => spec.send(call, payload)),
      Effect.flatMap(emit(call.json, spec.show ?? description.show))
    )

  /** A change to one item (`update`, or a command named for the one change it makes), shown as the server answers it. */
  const update = <I extends Config = {}, F extends Config = {}, Sc extends Schema.Top = never, E1 = never, R1 = never, E2 = never, R2 = never>(
    name: string,
    spec: OwnParams<I, F> & Write<Values<I> & Values<F>, ItemCall<At, Values<I> & Values<F>>, Sc, A, E1, R1, E2, R2>
  ) => onItem(name, { ...spec, run: written(spec) })

  return {
    ...description,
    onAll,
    onItem,
    update,

    /**
     * `list`: the resource's items, a page at a time. `flags` filter the list; they come before the
     * page flags.
     */
    list: <Item extends object, F extends Config = {}, E = never, R = never>(spec: {
      readonly description: string
      readonly flags?: F
      readonly columns: ReadonlyArray<string>
      readonly row?: (item: Item) => object
      readonly fetch: (call: Call<At, Values<F>>, page: PageQuery) => Effect.Effect<PageEnvelope<Item>, E, R>
    }) =>
      onAll("list", {
        description: spec.description,
        flags: { filters: none(spec.flags), page: pageFlags },
        run: (call) => pages(spec)({ ...call, values: call.values.filters }, { ...call.values.page, json: call.json })
      }),

    /** A list that belongs to one item (a role's members), a page at a time. */
    listOf: <Item extends object, E = never, R = never>(name: string, spec: {
      readonly description: string
      readonly columns: ReadonlyArray<string>
      readonly row?: (item: Item) => object
      readonly fetch: (call: ItemCall<At, PageOptions>, page: PageQuery) => Effect.Effect<PageEnvelope<Item>, E, R>
    }) => onItem(name, { description: spec.description, flags: pageFlags, run: (call) => pages(spec)(call, { ...call.values, json: call.json }) }),

    /** `get`: one item, shown. */
    get: <E, R>(spec: { readonly description: string; readonly fetch: (call: ItemCall<At, {}>) => Effect.Effect<A, E, R> }) =>
      onItem("get", {
        description: spec.description,
        run: (call) => spec.fetch(call).pipe(Effect.flatMap(emit(call.json, description.show)))
      }),

    /** `create`: a new item from the command's values, shown as the server answers it. */
    create: <I extends Config = {}, F extends Config = {}, Sc extends Schema.Top = never, E1 = never, R1 = never, E2 = never, R2 = never>(
      spec:
        & OwnParams<I, F>
        & Write<Values<I> & Values<F>, Call<At, Values<I> & Values<F>>, Sc, A, E1, R1, E2, R2>
        & { readonly show?: (item: A) => string }
    ) => onAll("create", { ...spec, run: written(spec) }),

    /**
     * `delete`: the item is gone, which the API answers with no body; the JSON says what was done, so
     * scripts still get an object, and the line is `done`'s or `Deleted <noun> <id>.`.
     */
    delete: <E, R>(spec: {
      readonly description: string
      readonly send: (call: ItemCall<At, {}>) => Effect.Effect<unknown, E, R>
      readonly done?: (id: string) => string
    }) =>
      onItem("delete", {
        description: spec.description,
        run: (call) =>
          spec.send(call).pipe(
            Effect.andThen(emit(call.json, () => spec.done?.(call.id) ?? `Deleted ${description.noun} ${call.id}.`)({
              id: call.id,
              deleted: true
            }))
          )
      }),

    /**
     * `delete` and `restore` of items that are kept when deleted (flags, cohorts): each a PATCH of
     * `deleted` with the resource's own update, answered with the item.
     */
    softDelete: <Sc extends Schema.Top, E, R>(
      spec: Omit<Write<{}, ItemCall<At, {}>, Sc, A, never, never, E, R>, "body"> & { readonly remove: string; readonly restore: string }
    ) => ({
      remove: update("delete", { ...spec, description: spec.remove, body: () => Effect.succeed({ deleted: true }) }),
      restore: update("restore", { ...spec, description: spec.restore, body: () => Effect.succeed({ deleted: false }) })
    })
  }
}
