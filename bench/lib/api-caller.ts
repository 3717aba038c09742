// Requests to Sprout's API on 127.0.0.1 as the web app sends them: same origin, JSON, a token.

export type ApiCall = (
  pathname: string,
  init?: RequestInit & { token?: string },
) => Promise<Response>

/** fetch() of the server on 127.0.0.1:{port} with the origin of its PUBLIC_URL. */
export function apiCaller(port: number, publicUrl = `http://localhost:${port}`): ApiCall {
  return (pathname, init = {}) => {
    const headers = new Headers(init.headers)
    headers.set('origin', publicUrl)
    if (init.body) headers.set('content-type', 'application/json')
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    return fetch(`http://127.0.0.1:${port}${pathname}`, { ...init, headers })
  }
}
