import { Context, Effect, type Fiber } from "effect"
import { HttpServerRequest } from "effect/http"

/**
 * `f` given the request being served, read from the fiber's context in the step that uses it. Every
 * request passes the middleware that read it, and reading it as a service would add a lookup and an
 * Effect step of its own to each.
 */
export const withRequest = <A, E, R>(
  f: (request: HttpServerRequest.HttpServerRequest, fiber: Fiber.Fiber<unknown, unknown>) => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> => Effect.withFiber((fiber) => f(Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest), fiber))
