/**
 * What sends a box's processes through its egress proxy: the variables npm, curl, git and Node
 * (NODE_USE_ENV_PROXY) read, the box's own loopback left direct.
 */
export function proxyVariables(proxyUrl: string): Record<string, string> {
  return {
    HTTP_PROXY: proxyUrl,
    HTTPS_PROXY: proxyUrl,
    http_proxy: proxyUrl,
    https_proxy: proxyUrl,
    NO_PROXY: 'localhost,127.0.0.1,::1',
    no_proxy: 'localhost,127.0.0.1,::1',
    NODE_USE_ENV_PROXY: '1',
    npm_config_proxy: proxyUrl,
    npm_config_https_proxy: proxyUrl,
  }
}
