'use strict'
// The log-driver experiment's API in Node.js: the kit's fifo-stall protocol as the Go
// API (kit/incontainer/apiserver) and the Python one (images/api-python) serve it, with
// the logging modes none and numbered, the log on standard output.
//
// The command line is theirs (kit/contract/args.go's FIFOArgs): -mode (none or
// numbered), -fifo (only "-", standard output: Node.js's standard library cannot make a
// FIFO) and -max-log-bytes; -port and -control-port move the two ports, for tests.
// logbench_api.js, the image's program, hands such a command line over to this one.
//
// The request path is node's http module, one connection per request, the same fixed
// hash computation and JSON body as the other APIs. In numbered mode each request writes
// the next numbered line (kit/contract/lines.go's NumberedLine, byte for byte; numbered
// from 0 at start, never reset) with fs.writeSync on the standard output's descriptor,
// on the request path: when the output is full the write holds the event loop, and so
// every request, as a blocked write holds the Go and Python APIs' requests. That stall
// is what the experiment measures. process.stdout and process.stderr are never made
// (not even for the worker below): on a pipe process.stdout writes asynchronously,
// queueing lines in memory without bound, which would hide the stall, and making
// either sets O_NONBLOCK on its descriptor, which the container's stdout and stderr
// may share.
//
// The control server (GET /status, POST /reset, GET /report: kit/contract/contract.go's
// APIStatus and APIReport) runs on a worker thread, whose event loop answers while the
// main thread is blocked in a write, as the Go and Python APIs' control ports do. The
// main thread tells it, through a MessagePort, each line generated (before the write)
// and written (after), and each request's span; the worker keeps the counters. Before it
// answers it takes every message already sent (receiveMessageOnPort), so a document
// read after a response counts that response's line. The output cap's byte count is
// shared memory: the main thread refuses a line at once, and a reset zeroes it.

const crypto = require('crypto')
const fs = require('fs')
const http = require('http')
const { MessageChannel, Worker, isMainThread, receiveMessageOnPort, workerData } = require('worker_threads')

const { readCgroup, unixNanos } = require('./logbench_cgroup')
const { parseFlags } = require('./logbench_flags')
const { readProcess } = require('./logbench_process')

const NONE = 'none'
const NUMBERED = 'numbered'
const MODES = [NONE, NUMBERED]

// The FIFO that means standard output (kit/contract/args.go's LogToStdout).
const LOG_TO_STDOUT = '-'
const DEFAULT_FIFO = '/run/logbench/log.fifo'

// Loopback ports and header shared with the kit (kit/contract/contract.go).
const WORKLOAD_PORT = 8080
const CONTROL_PORT = 9001
const SEQ_HEADER = 'x-logbench-seq'

// The fixed per-request computation: small next to the I/O.
const HASH_ROUNDS = 64
const RESPONSE_BODY = Buffer.from('{"status":"ok","service":"logbench-api"}\n')

// --- the numbered line (kit/contract/lines.go) -------------------------------------

const NUMBERED_LINE_BYTES = 128
const MIN_NUMBERED_LINE_BYTES = NUMBERED_LINE_BYTES
const MAX_NUMBERED_LINE_BYTES = 65536
const MAX_NUMBERED_SEQ = 999999999999
const SUM_TAG = ' sum='
const HEAD_BYTES = 'logbench seq='.length + 12 + 1
const FIXED_BYTES = HEAD_BYTES + SUM_TAG.length + 8 + 1
const PAD = '-'.repeat(MAX_NUMBERED_LINE_BYTES - FIXED_BYTES)

// checkLineBytes refuses a line length the format has no line of
// (contract.CheckNumberedLineBytes).
function checkLineBytes (n) {
  if (!Number.isSafeInteger(n) || n < MIN_NUMBERED_LINE_BYTES || n > MAX_NUMBERED_LINE_BYTES) {
    throw new RangeError(`a numbered line of ${n} bytes: want ${MIN_NUMBERED_LINE_BYTES} to ${MAX_NUMBERED_LINE_BYTES}`)
  }
}

// Line seq of lineBytes, newline included, as a string of single-byte characters:
// "logbench seq=" and twelve digits, a space, '-' up to " sum=", and the first 8 hex
// digits of the SHA-256 of every byte before " sum=" (kit/contract/lines.go's
// NumberedLineOf).
function numberedLine (seq, lineBytes = NUMBERED_LINE_BYTES) {
  if (!Number.isSafeInteger(seq) || seq < 0 || seq > MAX_NUMBERED_SEQ) {
    throw new RangeError(`numbered line ${seq} out of [0, ${MAX_NUMBERED_SEQ}]`)
  }
  checkLineBytes(lineBytes)
  const head = 'logbench seq=' + String(seq).padStart(12, '0') + ' ' + PAD.slice(0, lineBytes - FIXED_BYTES)
  return head + SUM_TAG + crypto.createHash('sha256').update(head, 'latin1').digest('hex').slice(0, 8) + '\n'
}

// The fixed per-request computation: SHA-256 of the path, re-hashed 64 times in all.
function digestOf (p) {
  let d = crypto.createHash('sha256').update(p, 'utf8').digest()
  for (let i = 1; i < HASH_ROUNDS; i++) d = crypto.createHash('sha256').update(d).digest()
  return d
}

// --- writing -----------------------------------------------------------------------

const pause = new Int32Array(new SharedArrayBuffer(4))

// writeAll writes buf to fd, with as many write calls as it takes, and returns when all
// of it is written, as a blocking write does. A descriptor left non-blocking by whoever
// opened it answers EAGAIN when full: the wait is then a millisecond at a time, still on
// the caller. An error carries how many bytes were written before it (err.written).
function writeAll (fd, buf, write = fs.writeSync) {
  let off = 0
  while (off < buf.length) {
    try {
      off += write(fd, buf, off, buf.length - off)
    } catch (err) {
      if (err.code === 'EAGAIN' || err.code === 'EINTR') {
        Atomics.wait(pause, 0, 0, 1)
        continue
      }
      err.written = off
      throw err
    }
  }
  return off
}

class OutputCapReached extends Error {}

const nanosSince = (start) => Number(process.hrtime.bigint() - start)

// The logging work of a request, on the main thread. It posts to port what the control
// worker counts: {t: 'g'} a line generated, {t: 'w'} its write, {t: 'f'} a line the cap
// refused, {t: 's'} a span alone.
class RequestLog {
  // opts: mode, fd, port, capCell (a BigInt64Array of one: generated bytes since the
  // reset), maxBytes (0: none), write (fs.writeSync, for tests), lineBytes (the
  // numbered line's length).
  constructor ({ mode, fd, port, capCell, maxBytes = 0, write = fs.writeSync, lineBytes = NUMBERED_LINE_BYTES }) {
    checkLineBytes(lineBytes)
    this.mode = mode
    this.lineBytes = lineBytes
    this.fd = fd
    this.port = port
    this.capCell = capCell
    this.maxBytes = BigInt(maxBytes)
    this.write = write
    this.nextLine = 0 // from 0 at start, never reset
  }

  // Does the logging work of the request numbered seq (null: no number, no span) and
  // returns what went wrong, or null.
  log (seq) {
    if (this.mode === NONE) {
      if (seq !== null) this.port.postMessage({ t: 's', span: { seq, generate_ns: 0, log_call_ns: 0 } })
      return null
    }
    // Building the line is the generation; counting and writing it are the logging call.
    const start = process.hrtime.bigint()
    const line = numberedLine(this.nextLine, this.lineBytes)
    const built = process.hrtime.bigint()
    const generateNs = Number(built - start)
    const bytes = BigInt(line.length)
    if (this.maxBytes > 0n && Atomics.load(this.capCell, 0) + bytes > this.maxBytes) {
      // Never generated: its number is the next line's.
      const err = new OutputCapReached(`output volume cap reached (${this.maxBytes} bytes)`)
      this.port.postMessage({ t: 'f', failure: err.message, span: seq === null ? null : { seq, generate_ns: generateNs, log_call_ns: nanosSince(built), error: err.message } })
      return err
    }
    Atomics.add(this.capCell, 0, bytes)
    this.port.postMessage({ t: 'g', line, unixNs: unixNanos() })
    this.nextLine++
    let written = line.length
    let error = null
    try {
      writeAll(this.fd, Buffer.from(line, 'latin1'), this.write)
    } catch (err) {
      written = err.written || 0
      error = err
    }
    const span = seq === null ? null : { seq, generate_ns: generateNs, log_call_ns: nanosSince(built) }
    if (span && error) span.error = 'log write: ' + error.message
    this.port.postMessage({ t: 'w', written, error: error ? 'log write: ' + error.message : '', span })
    return error
  }
}

// --- the API -----------------------------------------------------------------------

class API {
  // opts: mode, fifo, maxLogBytes, fd (the standard output's descriptor: 1),
  // cgroupRoot, write (fs.writeSync, for tests), lineBytes (the numbered line's length).
  constructor ({ mode = NONE, fifo = DEFAULT_FIFO, maxLogBytes = 0, fd = 1, cgroupRoot = '/sys/fs/cgroup', write, lineBytes = NUMBERED_LINE_BYTES } = {}) {
    if (!MODES.includes(mode)) {
      throw new Error(`unknown logging mode "${mode}" (the Node.js API's: ${MODES.join(', ')})`)
    }
    if (fifo !== LOG_TO_STDOUT) {
      throw new Error(`-fifo ${fifo}: the Node.js API writes its log to standard output only (-fifo=${LOG_TO_STDOUT}); Node.js's standard library cannot make a FIFO`)
    }
    if (!Number.isSafeInteger(maxLogBytes) || maxLogBytes < 0) throw new Error(`bad -max-log-bytes ${maxLogBytes}`)
    this.mode = mode
    this.cgroupRoot = cgroupRoot
    this.capCell = new BigInt64Array(new SharedArrayBuffer(8))
    const { port1, port2 } = new MessageChannel()
    this.port = port1
    this.workerPort = port2
    this.log = new RequestLog({ mode, fd, port: port1, capCell: this.capCell, maxBytes: maxLogBytes, write, lineBytes })
  }

  serve (req, res) {
    const digest = digestOf(req.url.split('?', 1)[0])
    const text = req.headers[SEQ_HEADER]
    const seq = typeof text === 'string' && /^[+-]?\d{1,15}$/.test(text) ? Number(text) : null
    const err = this.log.log(seq)
    res.setHeader('Connection', 'close') // one connection per request, as measured
    if (err) {
      const body = 'logging failed: ' + err.message + '\n'
      res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) })
      res.end(body)
      return
    }
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': RESPONSE_BODY.length, 'X-Digest': digest.subarray(0, 8).toString('hex') })
    res.end(RESPONSE_BODY)
  }

  // Starts the control worker, then the request path; resolves with both bound
  // addresses once the request path is open. onFailure(err) hears of a worker that dies.
  listen ({ host = '127.0.0.1', port = WORKLOAD_PORT, controlHost = '127.0.0.1', controlPort = CONTROL_PORT, onFailure } = {}) {
    // The worker's stdout and stderr are streams of its own, not piped into this
    // thread's process.stdout and process.stderr: making those would set O_NONBLOCK on
    // descriptors 1 and 2 (libuv's pipes are non-blocking), and the log's writes would
    // meet EAGAIN instead of blocking.
    this.worker = new Worker(__filename, {
      workerData: { logbenchControl: true, port: this.workerPort, capCell: this.capCell, mode: this.mode, host: controlHost, controlPort, cgroupRoot: this.cgroupRoot },
      transferList: [this.workerPort],
      stdout: true,
      stderr: true
    })
    const control = new Promise((resolve, reject) => {
      this.worker.once('message', (m) => m.listening ? resolve(m.listening) : reject(new Error(m.error)))
      this.worker.once('error', reject)
      this.worker.once('exit', (code) => reject(new Error(`the control worker exited (${code})`)))
    })
    return control.then((controlAddress) => {
      this.worker.on('error', (err) => onFailure && onFailure(err))
      this.workload = http.createServer((req, res) => this.serve(req, res))
      return new Promise((resolve, reject) => {
        this.workload.once('error', reject)
        // A blocked event loop leaves new connections waiting in the listen backlog.
        this.workload.listen({ host, port, backlog: 4096 }, () => {
          this.workload.off('error', reject)
          this.port.postMessage({ t: 'ready' })
          resolve({ control: controlAddress, workload: this.workload.address() })
        })
      })
    })
  }

  close () {
    const closing = []
    if (this.workload) {
      this.workload.closeAllConnections()
      closing.push(new Promise((resolve) => this.workload.close(() => resolve())))
    }
    if (this.worker) {
      this.worker.removeAllListeners('exit')
      closing.push(this.worker.terminate())
    }
    this.port.close()
    return Promise.all(closing)
  }
}

// --- the control worker ------------------------------------------------------------

// Bytes, newlines and a running SHA-256 of a byte stream (kit/contract/contract.go's Counts).
class Tally {
  constructor () { this.reset() }
  reset () {
    this.bytes = 0
    this.lines = 0
    this.hash = crypto.createHash('sha256')
  }

  add (text) {
    this.bytes += text.length
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lines++
    this.hash.update(text, 'latin1')
  }

  snapshot () { return { bytes: this.bytes, lines: this.lines, sha256: this.hash.copy().digest('hex') } }
}

// The counters and documents the worker keeps from the main thread's messages.
class Control {
  constructor ({ mode, capCell, cgroupRoot }) {
    this.mode = mode
    this.capCell = capCell
    this.cgroupRoot = cgroupRoot
    this.process = readProcess()
    this.ready = false
    this.generated = new Tally()
    this.written = new Tally()
    this.reset()
  }

  reset () {
    this.generated.reset()
    this.written.reset()
    this.timeline = []
    this.spans = []
    this.writeErrors = 0
    this.failure = ''
    this.pending = '' // the line generated and not yet reported written
    Atomics.store(this.capCell, 0, 0n)
  }

  take (m) {
    switch (m.t) {
      case 'ready':
        this.ready = true
        return
      case 'g':
        this.generated.add(m.line)
        this.timeline.push({ unix_ns: m.unixNs, bytes: this.generated.bytes })
        this.pending = m.line
        return
      case 'w':
        this.written.add(this.pending.slice(0, m.written))
        this.pending = ''
        if (m.error) {
          this.writeErrors++
          if (!this.failure) this.failure = m.error
        }
        break
      case 'f':
        if (!this.failure) this.failure = m.failure
        break
    }
    if (m.span) this.spans.push(m.span)
  }

  counters () {
    if (!this.ready) {
      const empty = { bytes: 0, lines: 0, sha256: '' }
      return { generated: { ...empty }, written: { ...empty }, queue_drops: 0, write_errors: 0, failure: '' }
    }
    return { generated: this.generated.snapshot(), written: this.written.snapshot(), queue_drops: 0, write_errors: this.writeErrors, failure: this.failure }
  }

  status () {
    return {
      implementation: 'node',
      runtime: process.version,
      mode: this.mode,
      ready: this.ready,
      counters: this.counters(),
      cgroup: readCgroup(this.cgroupRoot),
      process: this.process
    }
  }

  report () {
    return { ...this.status(), spans: this.spans.slice(), generated: this.timeline.slice() }
  }
}

function runControl ({ port, capCell, mode, host, controlPort, cgroupRoot }) {
  const { parentPort } = require('worker_threads')
  const c = new Control({ mode, capCell, cgroupRoot })
  port.on('message', (m) => c.take(m))
  const catchUp = () => {
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) c.take(m.message)
  }
  const send = (res, code, body, type = 'text/plain; charset=utf-8') => {
    res.writeHead(code, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
    res.end(body)
  }
  const answer = (res, make) => {
    let body
    try {
      body = JSON.stringify(make()) + '\n'
    } catch (err) { // e.g. an unreadable cgroup file
      return send(res, 500, err.message + '\n')
    }
    send(res, 200, body, 'application/json')
  }
  const server = http.createServer((req, res) => {
    catchUp()
    switch (req.method + ' ' + req.url) {
      case 'GET /status':
        return answer(res, () => c.status())
      case 'POST /reset':
        if (!c.ready) return send(res, 503, 'not ready\n')
        c.reset()
        return send(res, 200, '')
      case 'GET /report':
        if (!c.ready) return send(res, 500, 'not ready\n')
        return answer(res, () => c.report())
      default:
        return send(res, 404, 'not found\n')
    }
  })
  server.once('error', (err) => parentPort.postMessage({ error: err.message }))
  server.listen(controlPort, host, () => parentPort.postMessage({ listening: server.address() }))
}

// --- command line ------------------------------------------------------------------

const FLAGS = {
  mode: [NONE, 'logging mode: none or numbered'],
  fifo: [DEFAULT_FIFO, 'log FIFO; only - (standard output, no FIFO) is served'],
  'max-log-bytes': ['0', 'output-volume stop condition (0: none)'],
  'line-bytes': [String(NUMBERED_LINE_BYTES), 'numbered mode: each line\'s length, newline included (128 to 65536)'],
  port: [String(WORKLOAD_PORT), 'workload port (loopback)'],
  'control-port': [String(CONTROL_PORT), 'control port (loopback)']
}

function usage () {
  return 'usage: logbench_numbered.js [-flag=value]...\n' + Object.entries(FLAGS)
    .map(([name, [def, help]]) => `  -${name}  ${help} (default ${def})`).join('\n') + '\n'
}

// isItsCommandLine tells the fifo-stall protocol's command line (-mode, -fifo,
// -max-log-bytes) from the qps API's.
function isItsCommandLine (argv) {
  return argv.some((a) => /^--?(mode|fifo|max-log-bytes)(=|$)/.test(a))
}

// The fifo-stall protocol's flags, as the kit's Go commands take them.
function parseArgs (argv) {
  const defaults = {}
  for (const [name, [def]] of Object.entries(FLAGS)) defaults[name] = def
  const out = parseFlags(argv, defaults, usage)
  for (const p of ['max-log-bytes', 'line-bytes', 'port', 'control-port']) {
    if (!/^\d+$/.test(out[p])) throw new Error(`bad -${p} "${out[p]}"`)
    out[p] = Number(out[p])
  }
  if (out.port > 65535 || out['control-port'] > 65535) throw new Error('a port is above 65535')
  checkLineBytes(out['line-bytes'])
  return out
}

function main (argv) {
  const fail = (code, err) => {
    process.stderr.write('api: ' + err.message + '\n')
    process.exit(code)
  }
  let args, api
  try {
    args = parseArgs(argv)
  } catch (err) {
    return fail(2, err)
  }
  // As PID 1 the process would ignore SIGTERM without a handler: exit at once. The
  // handler runs on the event loop, so a process held by a full standard output exits
  // once its write returns, or when the engine kills it.
  process.on('SIGTERM', () => process.exit(0))
  process.on('SIGINT', () => process.exit(0))
  try {
    api = new API({ mode: args.mode, fifo: args.fifo, maxLogBytes: args['max-log-bytes'], lineBytes: args['line-bytes'] })
  } catch (err) {
    return fail(1, err)
  }
  api.listen({ port: args.port, controlPort: args['control-port'], onFailure: (err) => fail(1, err) }).catch((err) => fail(1, err))
}

module.exports = {
  API, RequestLog, Control, MODES, NONE, NUMBERED, LOG_TO_STDOUT, NUMBERED_LINE_BYTES, MAX_NUMBERED_SEQ,
  MIN_NUMBERED_LINE_BYTES, MAX_NUMBERED_LINE_BYTES, checkLineBytes,
  RESPONSE_BODY, SEQ_HEADER, numberedLine, digestOf, writeAll, isItsCommandLine, parseArgs, main
}

if (!isMainThread && workerData && workerData.logbenchControl) {
  runControl(workerData)
} else if (isMainThread && require.main === module) {
  main(process.argv.slice(2))
}
