/**
 * A browser as far as a log-in needs one: it keeps each host's cookies (by host name, as browsers do,
 * whatever the port) and follows nothing by itself, so a test sees every redirect. `rewrite` maps an
 * address the server names (its site URL) to where the test reaches it; `headers` go with every request
 * (the address a proxy in front of the server says the browser has, say).
 */
export class Browser {
  private readonly jar = new Map<string, Map<string, string>>()
  private readonly rewrite: (url: string) => string
  private readonly headers: Record<string, string>

  constructor(rewrite: (url: string) => string = (url) => url, headers: Record<string, string> = {}) {
    this.rewrite = rewrite
    this.headers = headers
  }

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name)
  }

  setCookie(host: string, name: string, value: string): void {
    const cookies = this.jar.get(host) ?? new Map<string, string>()
    cookies.set(name, value)
    this.jar.set(host, cookies)
  }

  async request(url: string, init: { readonly method?: string; readonly form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(this.rewrite(url))
    const cookies = [...(this.jar.get(target.hostname) ?? new Map<string, string>())].map(([name, value]) => `${name}=${value}`).join("; ")
    const response = await fetch(target, {
      method: init.method ?? "GET",
      redirect: "manual",
      headers: {
        accept: "text/html",
        ...this.headers,
        ...(cookies === "" ? {} : { cookie: cookies }),
        ...(init.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" })
      },
      ...(init.form === undefined ? {} : { body: new URLSearchParams(init.form).toString() })
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim())
      const at = pair.indexOf("=")
      const name = pair.slice(0, at)
      const removed = attributes.some((attribute) => /^max-age=0$/i.test(attribute) || /^expires=thu, 01 jan 1970/i.test(attribute))
      const cookiesOfHost = this.jar.get(target.hostname) ?? new Map<string, string>()
      if (removed) cookiesOfHost.delete(name)
      else cookiesOfHost.set(name, pair.slice(at + 1))
      this.jar.set(target.hostname, cookiesOfHost)
    }
    return response
  }

  /** Where a redirect leads, resolved against the address asked. */
  static location(response: Response, asked: string): string {
    const location = response.headers.get("location")
    if (location === null) throw new Error(`no redirect from ${asked}: ${response.status}`)
    return new URL(location, asked).toString()
  }
}
