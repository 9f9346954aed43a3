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
 * in red: a request that failed (refused, blocked by CORS, aborted) or was answered 4xx or 5xx. A request
 * answered and then cut short by the page itself (the SDKs cancel the body of a capture answer they need
 * only the status of) keeps its status: nothing failed on the way.
 */
export class NetworkLog {
  readonly entries: Array<Logged> = []
  private readonly answered = new Map<Request, number>()

  constructor(page: Page) {
    page.on("response", (response) => {
      this.answered.set(response.request(), response.status())
    })
    page.on("requestfinished", (request) => this.add(request, this.answered.get(request) ?? "failed"))
    page.on("requestfailed", (request) => {
      const status = this.answered.get(request)
      this.add(request, status ?? "failed", status === undefined ? request.failure()?.errorText : undefined)
    })
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
