// The baseline: a bare node:http handler answering the same JSON as GET /api/organizations.
import http from 'node:http'

const port = Number(process.env.PORT ?? 3999)
const body = JSON.stringify({ id: '6f1c1c55-9f3b-4a43-9d0b-3f5b8c1d2e4f' })
http
  .createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end(request.url === '/healthz' ? '{"status":"ok"}' : body)
  })
  .listen(port, '127.0.0.1')
