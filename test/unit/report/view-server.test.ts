// The viewer's answers to requests a browser would never send, over a real socket: a request
// target that is not a URL (`GET http://[`) is a bad request (400), not a failure of the viewer (500).
import { connect } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { startViewServer, type ViewServer } from '../../../src/report/view-server.js'

let server: ViewServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text))
    let answer = ''
    socket.on('data', (d: Buffer) => (answer += d.toString()))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    setTimeout(() => (socket.destroy(), resolve(answer)), 3000)
  })
}

test('GET http://[ is answered 400 and the store is not read', async () => {
  let loads = 0
  const errors: unknown[] = []
  server = await startViewServer({
    port: 0,
    load: () => {
      loads++
      return Promise.resolve({ tenant: 'acme', generated_at: '2026-12-01T00:00:00.000Z', digline_version: '0.1.0', suites: [], skipped: [], live: [] })
    },
    onError: (e) => errors.push(e),
  })
  const answer = await rawRequest(server.port, `GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`)
  expect(answer).toMatch(/^HTTP\/1\.1 400 /)
  expect(answer).toContain('bad request')
  expect(loads).toBe(0)
  expect(errors).toEqual([])
  const page = await rawRequest(server.port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`)
  expect(page).toMatch(/^HTTP\/1\.1 200 /)
})
