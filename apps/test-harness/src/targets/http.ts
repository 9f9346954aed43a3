import { type Call, endpointOf, type EndpointRef, type RawRequest, type Reply, renderPath, type Target } from "./target.ts"

const parse = (text: string): unknown => {
  if (text === "") return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** A target that speaks HTTP to a base URL: an in-process server or any deployment. */
export const httpTarget = (name: string, baseUrl: string): Target => {
  const raw = async (request: RawRequest) => {
    const response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers ?? {},
      ...(request.body === undefined ? {} : { body: request.body as BodyInit })
    })
    return { status: response.status, headers: response.headers, body: parse(await response.text()) }
  }
  const call = async (ref: EndpointRef, call: Call): Promise<Reply> => {
    const endpoint = endpointOf(ref)
    const headers: Record<string, string> = { ...call.headers }
    if (call.key !== undefined) headers["authorization"] = `Bearer ${call.key}`
    const cookies = Object.entries(call.cookies ?? {})
    if (cookies.length > 0) headers["cookie"] = cookies.map(([name, value]) => `${name}=${value}`).join("; ")
    const sendsBody = call.body !== undefined && endpoint.method !== "GET"
    if (sendsBody) headers["content-type"] = "application/json"
    const { status, body, headers: answered } = await raw({
      method: endpoint.method,
      path: renderPath(endpoint.path, call),
      headers,
      ...(sendsBody ? { body: JSON.stringify(call.body) } : {})
    })
    return { status, body, headers: Object.fromEntries(answered), setCookies: answered.getSetCookie() }
  }
  return { name, call, raw }
}
