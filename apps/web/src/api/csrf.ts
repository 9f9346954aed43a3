/** The cookie log-in sets for scripts to read, and the header every unsafe session request echoes it in. */
export const CSRF_COOKIE = "posthog_csrftoken"
export const CSRF_HEADER = "X-CSRFToken"

/** Methods that change nothing, which need no token. */
const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "TRACE"])

/** A cookie's value in a `document.cookie` string, or undefined. */
export const cookieValue = (cookies: string, name: string): string | undefined => {
  for (const part of cookies.split(";")) {
    const separator = part.indexOf("=")
    if (separator !== -1 && part.slice(0, separator).trim() === name) return decodeURIComponent(part.slice(separator + 1).trim())
  }
  return undefined
}

/** The CSRF header for a request, when its method is unsafe and the cookie is there. */
export const csrfHeaders = (method: string, cookies: string): Record<string, string> => {
  if (SAFE_METHODS.has(method.toUpperCase())) return {}
  const token = cookieValue(cookies, CSRF_COOKIE)
  return token === undefined || token === "" ? {} : { [CSRF_HEADER]: token }
}
