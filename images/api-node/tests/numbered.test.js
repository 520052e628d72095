'use strict'
// The log-driver experiment's API (logbench_numbered.js): numbered lines byte for byte
// the Go contract's (kit/contract/testdata/numbered_lines.txt, which a Go test keeps equal
// to contract.NumberedLine), the control documents of kit/contract/contract.go, and a
// full standard output that holds the requests.

const test = require('node:test')
const assert = require('node:assert')
const { spawn } = require('child_process')
const crypto = require('crypto')
const fs = require('fs')
const http = require('http')
const net = require('net')
const os = require('os')
const path = require('path')

const nb = require('../app/logbench_numbered.js')

// The kit's tree: the repository beside these tests, or / in the test image, which
// carries the files the tests read to /kit.
const REPO = path.join(__dirname, '..', '..', '..')
const FIXTURE = path.join(REPO, 'kit', 'contract', 'testdata', 'numbered_lines.txt')
const CONTRACT = path.join(REPO, 'kit', 'contract', 'contract.go')
const APP = path.join(__dirname, '..', 'app', 'logbench_api.js')

const sha256 = (b) => crypto.createHash('sha256').update(b).digest('hex')
const linesFrom = (first, n) => Buffer.from(Array.from({ length: n }, (_, i) => nb.numberedLine(first + i)).join(''), 'latin1')

// The Go contract's lines, by number. A missing file fails: it is the test.
function goLines () {
  const data = fs.readFileSync(FIXTURE)
  const out = new Map()
  for (let at = 0; at < data.length;) {
    const end = data.indexOf(10, at) + 1
    assert.ok(end > 0, 'the fixture ends inside a line')
    const line = data.subarray(at, end)
    out.set(Number(line.subarray(13, 25).toString('latin1')), line)
    at = end
  }
  assert.ok(out.size >= 10, `${FIXTURE} holds ${out.size} lines`)
  return out
}

// The json names of a Go struct's fields, read from the kit's source.
function goJsonTags (struct) {
  const m = new RegExp(`type ${struct} struct \\{([\\s\\S]*?)\\n\\}`).exec(fs.readFileSync(CONTRACT, 'utf8'))
  assert.ok(m, `no struct ${struct} in ${CONTRACT}`)
  return [...m[1].matchAll(/json:"([^",]*)/g)].map((x) => x[1]).filter((n) => n !== '-')
}

function tempDir (t) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'numbered-'))
  t.after(() => fs.rmSync(d, { recursive: true, force: true }))
  return d
}

test('the numbered line is the Go contract\'s, byte for byte', () => {
  const lines = goLines()
  for (const [seq, line] of lines) {
    const have = Buffer.from(nb.numberedLine(seq), 'latin1')
    assert.ok(have.equals(line), `line ${seq}:\n${have}\nwant\n${line}`)
    assert.strictEqual(have.length, nb.NUMBERED_LINE_BYTES)
  }
  assert.ok(lines.has(nb.MAX_NUMBERED_SEQ))
  for (const bad of [-1, nb.MAX_NUMBERED_SEQ + 1, 1.5]) assert.throws(() => nb.numberedLine(bad), RangeError)
})

// The Go contract's lines of other lengths (testdata/numbered_lines_long.txt): each line's
// length is where its newline is.
test('numbered lines of other lengths are the Go contract\'s, byte for byte', () => {
  const data = fs.readFileSync(path.join(REPO, 'kit', 'contract', 'testdata', 'numbered_lines_long.txt'))
  const lengths = new Set()
  for (let at = 0; at < data.length;) {
    const end = data.indexOf(10, at) + 1
    assert.ok(end > 0, 'the fixture ends inside a line')
    const line = data.subarray(at, end)
    const seq = Number(line.subarray(13, 25).toString('latin1'))
    const have = Buffer.from(nb.numberedLine(seq, line.length), 'latin1')
    assert.ok(have.equals(line), `line ${seq} of ${line.length} bytes differs`)
    lengths.add(line.length)
    at = end
  }
  assert.ok(lengths.has(nb.MIN_NUMBERED_LINE_BYTES) && lengths.has(nb.MAX_NUMBERED_LINE_BYTES) && lengths.size >= 5, `lengths ${[...lengths]}`)
  for (const bad of [nb.MIN_NUMBERED_LINE_BYTES - 1, nb.MAX_NUMBERED_LINE_BYTES + 1, 200.5]) assert.throws(() => nb.numberedLine(0, bad), RangeError)
  assert.strictEqual(nb.parseArgs(['-mode=numbered', '-fifo=-', '-max-log-bytes=0', '-line-bytes=4096'])['line-bytes'], 4096)
  assert.throws(() => nb.parseArgs(['-mode=numbered', '-line-bytes=65537']), RangeError)
})

// A RequestLog on a port whose messages are collected, as the control worker gets them.
function requestLog (t, opts) {
  const { port1, port2 } = new MessageChannelPair()
  t.after(() => { port1.close(); port2.close() })
  const log = new nb.RequestLog({ mode: nb.NUMBERED, port: port1, capCell: new BigInt64Array(new SharedArrayBuffer(8)), ...opts })
  const control = new nb.Control({ mode: nb.NUMBERED, capCell: log.capCell, cgroupRoot: '/nonexistent' })
  control.take({ t: 'ready' })
  const take = () => {
    const { receiveMessageOnPort } = require('worker_threads')
    for (let m = receiveMessageOnPort(port2); m; m = receiveMessageOnPort(port2)) control.take(m.message)
    return control
  }
  return { log, take }
}

function MessageChannelPair () { return new (require('worker_threads').MessageChannel)() }

test('lines count from zero whatever the requests, and are counted as written', (t) => {
  const file = path.join(tempDir(t), 'log')
  const fd = fs.openSync(file, 'w')
  t.after(() => fs.closeSync(fd))
  const { log, take } = requestLog(t, { fd })
  for (let i = 0; i < 1001; i++) assert.strictEqual(log.log(7 - i), null) // warm-up requests are negative
  const out = fs.readFileSync(file)
  assert.ok(out.equals(linesFrom(0, 1001)))
  for (const [seq, line] of goLines()) {
    if (seq <= 1000) assert.ok(out.subarray(seq * 128, (seq + 1) * 128).equals(line), `line ${seq}`)
  }
  const c = take()
  const counters = c.counters()
  assert.deepStrictEqual(counters.written, { bytes: out.length, lines: 1001, sha256: sha256(out) })
  assert.deepStrictEqual(counters.generated, counters.written)
  assert.strictEqual(c.spans.length, 1001)
  assert.deepStrictEqual(c.spans.slice(0, 2).map((s) => s.seq), [7, 6])
  assert.ok(c.spans.every((s) => s.generate_ns > 0 && s.log_call_ns > 0 && !('error' in s)))
  assert.deepStrictEqual(c.timeline.slice(-1).map((s) => s.bytes), [out.length])
})

test('a line over the cap takes no number; a failed write keeps its own', (t) => {
  const file = path.join(tempDir(t), 'log')
  const fd = fs.openSync(file, 'w')
  t.after(() => fs.closeSync(fd))
  const { log, take } = requestLog(t, { fd, maxBytes: 300 })
  assert.deepStrictEqual([log.log(0), log.log(1)], [null, null])
  const refused = log.log(2)
  assert.ok(refused instanceof Error && refused.message === 'output volume cap reached (300 bytes)', String(refused))
  assert.strictEqual(log.nextLine, 2)
  const c = take()
  assert.strictEqual(c.counters().failure, 'output volume cap reached (300 bytes)')
  assert.strictEqual(c.spans[2].error, 'output volume cap reached (300 bytes)')
  assert.ok(fs.readFileSync(file).equals(linesFrom(0, 2)))

  // A descriptor open for reading only refuses the write.
  const ro = fs.openSync(file, 'r')
  t.after(() => fs.closeSync(ro))
  const failing = requestLog(t, { fd: ro })
  const err = failing.log.log(0)
  assert.strictEqual(err.code, 'EBADF')
  assert.strictEqual(failing.log.nextLine, 1)
  const f = failing.take().counters()
  assert.deepStrictEqual([f.generated.lines, f.written.lines, f.write_errors], [1, 0, 1])
  assert.match(f.failure, /^log write: EBADF/)
})

test('a full non-blocking output is waited for, not dropped or queued', () => {
  let calls = 0
  const got = []
  const write = (fd, buf, off, len) => {
    calls++
    if (calls <= 3) throw Object.assign(new Error('EAGAIN: resource temporarily unavailable, write'), { code: 'EAGAIN' })
    const n = Math.min(len, 50) // and a short write
    got.push(buf.subarray(off, off + n))
    return n
  }
  const line = Buffer.from(nb.numberedLine(9), 'latin1')
  assert.strictEqual(nb.writeAll(1, line, write), 128)
  assert.ok(Buffer.concat(got).equals(line))
  assert.strictEqual(calls, 3 + 3)
})

function request (port, { method = 'GET', path: p = '/', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers, agent: false }, (res) => {
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
  assert.strictEqual(r.status, 200, r.body)
  return JSON.parse(r.body)
}

test('the API in this process: the control documents are the Go structs, and the numbering outlives a reset', async (t) => {
  const file = path.join(tempDir(t), 'stdout')
  const fd = fs.openSync(file, 'w')
  const a = new nb.API({ mode: nb.NUMBERED, fifo: '-', fd })
  const { control, workload } = await a.listen({ port: 0, controlPort: 0 })
  t.after(async () => { await a.close(); fs.closeSync(fd) })

  const first = await request(workload.port, { headers: { 'X-Logbench-Seq': '-1' } })
  assert.strictEqual(first.status, 200)
  assert.strictEqual(first.body, '{"status":"ok","service":"logbench-api"}\n')
  assert.strictEqual(first.headers['content-type'], 'application/json')
  assert.strictEqual(first.headers.connection, 'close')
  assert.strictEqual(first.headers['x-digest'], nb.digestOf('/').subarray(0, 8).toString('hex'))
  assert.strictEqual(first.headers['x-digest'], '9ea788f6649129eb') // the Python API's digest_of("/")

  assert.strictEqual((await request(control.port, { method: 'POST', path: '/reset' })).status, 200)
  for (let seq = 0; seq < 3; seq++) assert.strictEqual((await request(workload.port, { headers: { 'X-Logbench-Seq': String(seq) } })).status, 200)
  assert.strictEqual((await request(workload.port)).status, 200) // no number: served, no span

  const st = await getJSON(control.port, '/status')
  assert.deepStrictEqual(Object.keys(st), goJsonTags('APIStatus'))
  assert.deepStrictEqual([st.implementation, st.runtime, st.mode, st.ready], ['node', process.version, 'numbered', true])
  assert.deepStrictEqual(Object.keys(st.counters), goJsonTags('Counters'))
  assert.deepStrictEqual(Object.keys(st.counters.generated), goJsonTags('Counts'))
  assert.deepStrictEqual(Object.keys(st.cgroup).sort(), goJsonTags('CgroupSnapshot').sort())
  assert.deepStrictEqual(Object.keys(st.process), goJsonTags('ProcessFacts'))
  const since = linesFrom(1, 4) // line 0 came before the reset
  assert.deepStrictEqual(st.counters.written, { bytes: since.length, lines: 4, sha256: sha256(since) })
  assert.deepStrictEqual(st.counters.generated, st.counters.written)
  assert.ok(fs.readFileSync(file).equals(linesFrom(0, 5)))

  const rep = await getJSON(control.port, '/report')
  assert.deepStrictEqual(Object.keys(rep), [...goJsonTags('APIStatus'), ...goJsonTags('APIReport')])
  assert.deepStrictEqual(rep.spans.map((s) => s.seq), [0, 1, 2])
  for (const s of rep.spans) assert.deepStrictEqual(Object.keys(s), goJsonTags('Span').slice(0, 3)) // "error" is omitted when empty
  assert.deepStrictEqual(rep.generated.map((s) => s.bytes), [128, 256, 384, 512])
  assert.deepStrictEqual(Object.keys(rep.generated[0]), goJsonTags('Sample'))

  assert.strictEqual((await request(control.port, { path: '/nothing' })).status, 404)
})

test('not ready: zero counters as the Go API reports them', () => {
  const c = new nb.Control({ mode: nb.NONE, capCell: new BigInt64Array(new SharedArrayBuffer(8)), cgroupRoot: '/nonexistent' })
  const empty = { bytes: 0, lines: 0, sha256: '' }
  assert.deepStrictEqual(c.counters(), { generated: empty, written: empty, queue_drops: 0, write_errors: 0, failure: '' })
})

test('the command line is the kit\'s, and what it cannot serve it refuses', () => {
  const args = nb.parseArgs(['-mode=numbered', '-fifo=-', '-max-log-bytes=0']) // contract.APIArgs.FIFOArgs
  assert.deepStrictEqual([args.mode, args.fifo, args['max-log-bytes'], args.port, args['control-port']], ['numbered', '-', 0, 8080, 9001])
  assert.ok(nb.isItsCommandLine(['-mode=numbered', '-fifo=-', '-max-log-bytes=0']))
  assert.ok(!nb.isItsCommandLine(['-config', 'console', '-log-dir', '/run/logbench/logs']))
  assert.throws(() => new nb.API({ mode: 'json-sync', fifo: '-' }), /unknown logging mode "json-sync"/)
  assert.throws(() => new nb.API({ mode: 'numbered' }), /standard output only/)
  assert.throws(() => nb.parseArgs(['-mode=numbered', '-config=console']), /unknown argument/)
})

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

// Whether a process's descriptor has O_NONBLOCK (octal 04000), from /proc.
function nonBlocking (pid, fd) {
  const m = /^flags:\s+([0-7]+)$/m.exec(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))
  assert.ok(m, `no flags for descriptor ${fd} of ${pid}`)
  return (parseInt(m[1], 8) & 0o4000) !== 0
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

test('the image\'s program, given the kit\'s command line: lines on its stdout, and a full stdout holds the requests', { timeout: 120000 }, async (t) => {
  const [port, cport] = [await freePort(), await freePort()]
  const child = spawn(process.execPath, [APP, '-mode=numbered', '-fifo=-', '-max-log-bytes=0', '-port=' + port, '-control-port=' + cport],
    { stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  child.stderr.on('data', (c) => { err += c })
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  t.after(() => child.kill('SIGKILL'))

  const deadline = Date.now() + 10000
  for (;;) {
    const st = await getJSON(cport, '/status').catch(() => null)
    if (st && st.ready) break
    assert.ok(Date.now() < deadline, 'not ready: ' + err)
    await sleep(20)
  }
  await request(cport, { method: 'POST', path: '/reset' })
  // Its stdout stays as it was given, blocking (libuv gives a child blocking stdio): a
  // write waits in the kernel, not in a retry.
  assert.strictEqual(nonBlocking(child.pid, 1), false)
  assert.strictEqual(nonBlocking(child.pid, 2), false)

  // Nobody reads the child's stdout: the socket's buffers take what fits, then a write
  // blocks and holds the event loop, and every request after it waits. The control
  // port, on its own thread, still answers.
  const total = 2000
  let answered = 0
  const client = (async () => {
    for (let seq = 0; seq < total; seq++) {
      assert.strictEqual((await request(port, { headers: { 'X-Logbench-Seq': String(seq) } })).status, 200)
      answered++
    }
  })()
  let stalled = null
  for (let last = null; ;) {
    const c = (await getJSON(cport, '/status')).counters
    const now = [c.generated.lines, c.written.lines]
    if (now[0] === now[1] + 1 && last && now[0] === last[0] && now[1] === last[1] && answered <= now[1]) {
      stalled = { generated: now[0], written: now[1], answered }
      break
    }
    assert.ok(answered < total, `all ${total} requests were answered with nobody reading: nothing blocked`)
    last = now
    await sleep(300)
  }
  assert.ok(stalled.written > 0 && stalled.generated < total, JSON.stringify(stalled))

  // Reading releases it: every line, in order, counted exactly.
  const chunks = []
  child.stdout.on('data', (c) => chunks.push(c))
  await client
  const want = linesFrom(0, total)
  for (const until = Date.now() + 30000; Buffer.concat(chunks).length < want.length && Date.now() < until;) await sleep(20)
  const out = Buffer.concat(chunks)
  assert.ok(out.equals(want), `stdout: ${out.length} bytes, want ${want.length}`)
  const rep = await getJSON(cport, '/report')
  assert.deepStrictEqual(rep.counters.written, { bytes: want.length, lines: total, sha256: sha256(want) })
  assert.deepStrictEqual(rep.counters.generated, rep.counters.written)
  assert.strictEqual(rep.spans.length, total)
  // The stalled request's logging call lasted until the reading began.
  const slowest = rep.spans.reduce((a, b) => (b.log_call_ns > a.log_call_ns ? b : a))
  assert.strictEqual(slowest.seq, stalled.written, JSON.stringify(stalled))
  t.diagnostic(`stalled after ${stalled.written} lines; that write waited ${(slowest.log_call_ns / 1e6).toFixed(0)} ms`)

  child.kill('SIGTERM')
  assert.deepStrictEqual(await exited, { code: 0, signal: null })
  assert.strictEqual(err, '')
})

test('a FIFO or a mode it does not serve: one line on stderr, exit status 1', async () => {
  for (const argv of [['-mode=numbered', '-fifo=/run/logbench/log.fifo'], ['-mode=short1', '-fifo=-']]) {
    const child = spawn(process.execPath, [APP, ...argv, '-port=0', '-control-port=0'])
    let err = ''
    child.stderr.on('data', (c) => { err += c })
    const code = await new Promise((resolve) => child.on('exit', resolve))
    assert.strictEqual(code, 1, err)
    assert.match(err, /^api: (-fifo \/run\/logbench\/log\.fifo: the Node\.js API writes its log to standard output only|unknown logging mode "short1")/)
  }
})
