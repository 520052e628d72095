'use strict'
// The API end to end in this process: the counters match the bytes written, the file
// is named by the date, reset zeroes the counts, the control documents.

const test = require('node:test')
const assert = require('node:assert')
const crypto = require('crypto')
const fs = require('fs')
const http = require('http')
const os = require('os')
const path = require('path')
const { api, request, getJSON, Collector, waitLines } = require('./helpers')

const T = Date.UTC(2023, 3, 8, 4, 5, 6, 789) // 12:05:06.789 at +08:00

const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex')

async function start (config, t) {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-node-'))
  const out = new Collector()
  const a = new api.API({ config, logDir, consoleStream: out })
  const { control, workload } = await a.listen({ port: 0, controlPort: 0 })
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 })
  t.after(async () => {
    agent.destroy()
    await a.close()
    fs.rmSync(logDir, { recursive: true, force: true })
  })
  return { a, out, logDir, agent, port: workload.port, cport: control.port }
}

async function load (s, n) {
  const before = Math.max(0, ...Object.values(s.a.sinks).map((k) => k.lines))
  const replies = await Promise.all(Array.from({ length: n }, () => request(s.port, { agent: s.agent })))
  for (const r of replies) {
    assert.strictEqual(r.status, 200)
    assert.deepStrictEqual(JSON.parse(r.body), { statusCode: 200, message: 'Hello World!' })
  }
  await waitLines(s.a, before + n)
}

const LINE = {
  console: /^\[12:05:06\.789\] 127\.0\.0\.1 - "GET \/ HTTP\/1\.1" 200 - \d+\.\d{3} ms\n$/,
  file: /^\[2023-04-08 12:05:06\.789\+08:00\] 127\.0\.0\.1 - "GET \/ HTTP\/1\.1" 200 - \d+\.\d{3} ms\n$/
}

function lines (buf) {
  return buf.toString('utf8').split(/(?<=\n)/).filter(Boolean)
}

test('console+file: counters match the bytes written, in the published formats', async (t) => {
  api.setClock(() => T, 480)
  t.after(() => api.setClock())
  const s = await start('console+file', t)
  await load(s, 25)
  const { status, doc } = await getJSON(s.cport, '/report')
  assert.strictEqual(status, 200)
  assert.strictEqual(doc.config, 'console+file')
  assert.strictEqual(doc.requests, 25)

  const written = s.out.bytes()
  assert.deepStrictEqual(
    { bytes: doc.sinks.console.bytes, lines: doc.sinks.console.lines, sha256: doc.sinks.console.sha256 },
    { bytes: written.length, lines: 25, sha256: sha256(written) })
  for (const l of lines(written)) assert.match(l, LINE.console)

  const file = path.join(s.logDir, '2023-04-08.log')
  assert.strictEqual(doc.sinks.file.path, file)
  assert.strictEqual(doc.sinks.file.pending_bytes, 0) // /report waits for the file
  const onDisk = fs.readFileSync(file)
  assert.deepStrictEqual(
    { bytes: doc.sinks.file.bytes, lines: doc.sinks.file.lines, sha256: doc.sinks.file.sha256, start: doc.sinks.file.start_offset_bytes },
    { bytes: onDisk.length, lines: 25, sha256: sha256(onDisk), start: 0 })
  for (const l of lines(onDisk)) assert.match(l, LINE.file)
  assert.deepStrictEqual(fs.readdirSync(s.logDir), ['2023-04-08.log'])
})

test('reset zeroes the counters; the file from start_offset_bytes is what was counted', async (t) => {
  api.setClock(() => T, 480)
  t.after(() => api.setClock())
  const s = await start('console+file', t)
  await load(s, 10) // the warm-up
  const warm = (await getJSON(s.cport, '/report')).doc
  const reset = await request(s.cport, { method: 'POST', path: '/reset' })
  assert.strictEqual(reset.status, 200)

  const zero = (await getJSON(s.cport, '/status')).doc
  const empty = sha256(Buffer.alloc(0))
  assert.strictEqual(zero.requests, 0)
  for (const name of ['console', 'file']) {
    const c = zero.sinks[name]
    assert.deepStrictEqual([c.bytes, c.lines, c.sha256, c.write_errors], [0, 0, empty, 0], name)
  }
  assert.strictEqual(zero.sinks.file.start_offset_bytes, warm.sinks.file.bytes)

  const consoleBefore = s.out.bytes().length
  await load(s, 7)
  const doc = (await getJSON(s.cport, '/report')).doc
  assert.strictEqual(doc.requests, 7)
  const consoleAfter = s.out.bytes().subarray(consoleBefore)
  assert.deepStrictEqual([doc.sinks.console.lines, doc.sinks.console.bytes, doc.sinks.console.sha256],
    [7, consoleAfter.length, sha256(consoleAfter)])
  const counted = fs.readFileSync(doc.sinks.file.path).subarray(doc.sinks.file.start_offset_bytes)
  assert.deepStrictEqual([doc.sinks.file.lines, doc.sinks.file.bytes, doc.sinks.file.sha256],
    [7, counted.length, sha256(counted)])
})

test('the file is named by the date, and a new one begins with a new date', async (t) => {
  let now = Date.UTC(2023, 3, 8, 15, 59, 59, 0) // 23:59:59 at +08:00
  api.setClock(() => now, 480)
  t.after(() => api.setClock())
  const s = await start('file', t)
  await load(s, 3)
  now += 2000 // 00:00:01 on the 9th
  await load(s, 2)
  const doc = (await getJSON(s.cport, '/report')).doc
  assert.strictEqual(doc.sinks.file.rotations, 1)
  assert.strictEqual(doc.sinks.file.path, path.join(s.logDir, '2023-04-09.log'))
  assert.deepStrictEqual(fs.readdirSync(s.logDir).sort(), ['2023-04-08.log', '2023-04-09.log'])
  const day1 = fs.readFileSync(path.join(s.logDir, '2023-04-08.log'))
  const day2 = fs.readFileSync(path.join(s.logDir, '2023-04-09.log'))
  assert.strictEqual(lines(day1).length, 3)
  assert.strictEqual(lines(day2).length, 2)
  assert.match(lines(day2)[0], /^\[2023-04-09 00:00:01\.000\+08:00\] /)
  assert.strictEqual(doc.sinks.file.bytes, day1.length + day2.length)
  assert.strictEqual(doc.sinks.file.sha256, sha256(Buffer.concat([day1, day2])))
})

test('an existing file of the day is appended to', async (t) => {
  api.setClock(() => T, 480)
  t.after(() => api.setClock())
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'api-node-'))
  t.after(() => fs.rmSync(logDir, { recursive: true, force: true }))
  fs.writeFileSync(path.join(logDir, '2023-04-08.log'), 'earlier\n')
  const a = new api.API({ config: 'file', logDir })
  const { workload, control } = await a.listen({ port: 0, controlPort: 0 })
  t.after(() => a.close())
  await request(workload.port)
  await waitLines(a, 1)
  const doc = (await getJSON(control.port, '/report')).doc
  assert.strictEqual(doc.sinks.file.start_offset_bytes, 8)
  const all = fs.readFileSync(doc.sinks.file.path)
  assert.strictEqual(all.subarray(0, 8).toString(), 'earlier\n')
  assert.strictEqual(sha256(all.subarray(8)), doc.sinks.file.sha256)
})

test('each configuration has exactly its sinks', async (t) => {
  const want = { none: [], console: ['console'], file: ['file'], 'console+file': ['console', 'file'] }
  for (const config of api.CONFIGS) {
    const s = await start(config, t)
    await request(s.port, { agent: s.agent })
    await waitLines(s.a, 1)
    const doc = (await getJSON(s.cport, '/status')).doc
    assert.deepStrictEqual(Object.keys(doc.sinks).sort(), want[config], config)
    for (const name of want[config]) assert.strictEqual(doc.sinks[name].lines, 1, config)
    if (!config.includes('console')) assert.strictEqual(s.out.bytes().length, 0, config)
  }
})

test('control documents: ready, status, versions, process facts, unknown paths', async (t) => {
  const s = await start('none', t)
  assert.deepStrictEqual(await getJSON(s.cport, '/ready'), { status: 200, doc: { ready: true } })
  const doc = (await getJSON(s.cport, '/status')).doc
  assert.strictEqual(doc.implementation, 'node')
  assert.strictEqual(doc.runtime, process.version)
  assert.strictEqual(doc.versions.node, process.versions.node)
  assert.match(doc.versions.express, /^4\./)
  assert.match(doc.versions.morgan, /^1\./)
  assert.strictEqual(doc.ready, true)
  assert.strictEqual(doc.process.present, true)
  assert.strictEqual(doc.process.uid, process.getuid())
  assert.ok(doc.process.limits.nofile_soft !== 0 && doc.process.limits.nproc_hard !== 0, JSON.stringify(doc.process.limits))
  for (const k of ['since_reset_ms', 'cpu_user_us', 'cpu_system_us', 'rss_bytes']) {
    assert.strictEqual(typeof doc.usage[k], 'number', k)
  }
  assert.strictEqual((await request(s.cport, { path: '/nothing' })).status, 404)
  assert.strictEqual((await request(s.cport, { method: 'GET', path: '/reset' })).status, 404)
})

test('not ready: reset and report refused, ready says so', async () => {
  const a = new api.API({ config: 'none' })
  const handler = a.controlHandler()
  const call = (method, url) => new Promise((resolve) => {
    handler({ method, url }, {
      writeHead (code) { this.code = code },
      end (body) { resolve({ code: this.code, body }) }
    })
  })
  assert.strictEqual((await call('GET', '/ready')).code, 503)
  assert.strictEqual((await call('POST', '/reset')).code, 503)
  assert.strictEqual((await call('GET', '/report')).code, 503)
  assert.strictEqual((await call('GET', '/status')).code, 200)
})

test('an unknown configuration is refused', () => {
  assert.throws(() => new api.API({ config: 'syslog' }), /unknown configuration "syslog"/)
  assert.throws(() => new api.API({ config: 'file' }), /log directory/)
})

test('process limits: /proc/self/limits and pids.max, unlimited as -1', (t) => {
  const fs = require('fs')
  const os = require('os')
  const dir = fs.mkdtempSync(require('path').join(os.tmpdir(), 'limits-'))
  t.after(() => fs.rmSync(dir, { recursive: true }))
  fs.writeFileSync(dir + '/limits', 'Limit                     Soft Limit           Hard Limit           Units     \n' +
    'Max processes             4096                 4096                 processes \n' +
    'Max open files            4096                 unlimited            files     \n')
  fs.mkdirSync(dir + '/pids')
  fs.writeFileSync(dir + '/pids/pids.max', 'max\n')
  assert.deepStrictEqual(api.readLimits(dir + '/limits', dir),
    { nofile_soft: 4096, nofile_hard: -1, nproc_soft: 4096, nproc_hard: 4096, pids_max: -1 })
})
