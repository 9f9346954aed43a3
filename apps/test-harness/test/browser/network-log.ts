import type { Page, Request } from "playwright-core"

/** One request the page made, as its network log shows it: answered with a status, or failed. */
export interface Logged {
  readonly method: string
  readonly url: string
  readonly status: number | "failed"
  readonly failure?: string | undefined
}

/**
 * Every request a page makes, with how it ended. `failures` are what a developer's console would show
 * in red: a request that failed (refused, blocked by CORS, aborted) or was answered 4xx or 5xx.
 */
export class NetworkLog {
  readonly entries: Array<Logged> = []

  constructor(page: Page) {
    page.on("requestfinished", (request) => {
      void request.response().then((response) => this.add(request, response?.status() ?? "failed"))
    })
    page.on("requestfailed", (request) => this.add(request, "failed", request.failure()?.errorText))
  }

  private add(request: Request, status: number | "failed", failure?: string) {
    this.entries.push({ method: request.method(), url: request.url(), status, failure })
  }

  get failures(): ReadonlyArray<Logged> {
    return this.entries.filter((entry) => entry.status === "failed" || entry.status >= 400)
  }

  /** The requests to `origin` whose path starts with one of `paths`. */
  to(origin: string, ...paths: ReadonlyArray<string>): ReadonlyArray<Logged> {
    return this.entries.filter((entry) => {
      const url = new URL(entry.url)
      return url.origin === origin && paths.some((path) => url.pathname.startsWith(path))
    })
  }
}
