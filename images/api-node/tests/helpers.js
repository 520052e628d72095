'use strict'
// Shared by the tests. Debian's node searches /usr/share/nodejs for Debian's packages;
// a node from elsewhere (e.g. a developer's) does not, so the tests add it to the
// search path before loading the API, and hand it on to the processes they start.

const http = require('http')
const Module = require('module')
const path = require('path')

const DEBIAN_MODULES = '/usr/share/nodejs'
const parts = (process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean)
if (!parts.includes(DEBIAN_MODULES)) {
  process.env.NODE_PATH = [...parts, DEBIAN_MODULES].join(path.delimiter)
  Module._initPaths() // re-reads NODE_PATH
}

const APP = path.join(__dirname, '..', 'app', 'logbench_api.js')
const api = require(APP)

// One request; resolves with { status, headers, body }.
function request (port, { method = 'GET', path: p = '/', agent } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, agent }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function getJSON (port, p) {
  const r = await request(port, { path: p })
  return { status: r.status, doc: r.body ? JSON.parse(r.body) : null }
}

// A console stream that keeps what it is given.
class Collector {
  constructor () { this.chunks = [] }
  write (chunk) { this.chunks.push(Buffer.from(chunk)); return true }
  on () { return this }
  bytes () { return Buffer.concat(this.chunks) }
}

// morgan writes its line when the response has finished, which may be just after the
// client has read it: wait until the sinks have counted n lines.
async function waitLines (a, n, timeoutMs = 2000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const counts = Object.values(a.sinks).map((s) => s.lines)
    if (counts.every((c) => c >= n)) return
    if (Date.now() > deadline) throw new Error(`sinks counted ${counts} lines, want ${n}`)
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

module.exports = { APP, api, request, getJSON, Collector, waitLines }
