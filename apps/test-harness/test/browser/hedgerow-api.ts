/**
 * The management API as a team's script calls it, over HTTP with a personal API key: what the SDK tests
 * set their flags up with.
 */
export interface HedgerowApi {
  readonly call: (method: string, path: string, body?: unknown) => Promise<any>
  readonly createFlag: (flag: Record<string, unknown>) => Promise<{ readonly id: number; readonly key: string }>
}

export const hedgerowApi = (base: string, key: string, project: number): HedgerowApi => {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path.replace("{project}", String(project))}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return text === "" ? undefined : JSON.parse(text)
  }
  return {
    call,
    createFlag: (flag) => call("POST", "/api/projects/{project}/feature_flags/", flag)
  }
}

/** A condition set on everyone, `percentage` of them. */
export const rolledOut = (percentage: number) => ({ groups: [{ properties: [], rollout_percentage: percentage }] })
