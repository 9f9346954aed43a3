import { type Call, endpointOf, type EndpointRef, type FormCall, type RawRequest, type Reply, renderPath, type Target } from "./target.ts"

const formDataOf = (form: FormCall): FormData => {
  const data = new FormData()
  for (const [name, value] of form.fields ?? []) data.append(name, value)
  for (const [name, file] of Object.entries(form.files ?? {})) data.append(name, new Blob([file.content as BlobPart], { type: "text/csv" }), file.name)
  return data
}

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
    // A form is sent as a browser sends one: fetch writes its content type, boundary and all.
    const form = call.form === undefined ? undefined : formDataOf(call.form)
    const { status, body, headers: answered } = await raw({
      method: endpoint.method,
      path: renderPath(endpoint.path, call),
      headers,
      ...(form !== undefined ? { body: form } : sendsBody ? { body: JSON.stringify(call.body) } : {})
    })
    return { status, body, headers: Object.fromEntries(answered), setCookies: answered.getSetCookie() }
  }
  return { name, call, raw }
}
