'use strict'
// The API as the container runs it: its own process, console lines on its stdout (what
// the engine's log driver carries), the control port reporting what went there.

const test = require('node:test')
const assert = require('node:assert')
const { spawn } = require('child_process')
const crypto = require('crypto')
const fs = require('fs')
const http = require('http')
const net = require('net')
const os = require('os')
const path = require('path')
const { APP, request, getJSON } = require('./helpers')

function freePort () {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

async function until (f, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const v = await f()
      if (v) return v
    } catch (e) {
      if (Date.now() > deadline) throw e
    }
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test('console lines go to the process stdout, counted exactly', async (t) => {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-node-'))
  const [port, cport] = [await freePort(), await freePort()]
  const child = spawn(process.execPath, [APP, '-config', 'console+file', '-log-dir', logDir,
    '-port', String(port), '-control-port', String(cport)], { env: { ...process.env, TZ: 'UTC' } })
  const out = []
  let err = ''
  child.stdout.on('data', (c) => out.push(c))
  child.stderr.on('data', (c) => { err += c })
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  t.after(() => fs.rmSync(logDir, { recursive: true, force: true }))

  await until(async () => (await getJSON(cport, '/ready')).doc.ready)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 })
  for (let i = 0; i < 12; i++) assert.strictEqual((await request(port, { agent })).status, 200)
  agent.destroy()
  const doc = await until(async () => {
    const d = (await getJSON(cport, '/report')).doc
    return d.sinks.console.lines === 12 && d.sinks.file.lines === 12 && d
  })
  const stdout = await until(() => {
    const b = Buffer.concat(out)
    return b.length >= doc.sinks.console.bytes && b
  })
  assert.strictEqual(stdout.length, doc.sinks.console.bytes)
  assert.strictEqual(crypto.createHash('sha256').update(stdout).digest('hex'), doc.sinks.console.sha256)
  for (const line of stdout.toString().trimEnd().split('\n')) {
    assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] 127\.0\.0\.1 - "GET \/ HTTP\/1\.1" 200 - \d+\.\d{3} ms$/)
  }
  const today = new Date().toISOString().slice(0, 10)
  assert.strictEqual(doc.sinks.file.path, path.join(logDir, today + '.log'))
  assert.match(fs.readFileSync(doc.sinks.file.path, 'utf8').split('\n')[0],
    /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\+00:00\] 127\.0\.0\.1 - "GET \/ HTTP\/1\.1" 200 - /)

  child.kill('SIGTERM')
  assert.deepStrictEqual(await exited, { code: 0, signal: null })
  assert.strictEqual(err, '')
})

test('a bad flag: one line on stderr, exit status 2', async () => {
  const child = spawn(process.execPath, [APP, '-config', 'syslog'])
  let err = ''
  child.stderr.on('data', (c) => { err += c })
  const code = await new Promise((resolve) => child.on('exit', resolve))
  assert.strictEqual(code, 2)
  assert.match(err, /^api: unknown configuration "syslog"/)
})
