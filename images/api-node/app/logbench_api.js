'use strict'
// The API of the qps experiment: Express with morgan access logs, as published
// (reference/qps-experiment.md), and nothing else on the request path.
//
// One route answers a fixed small JSON body. Access logging is the published pair of
// morgan middlewares, chosen by configuration: "none", "console", "file" or
// "console+file" (the published default). Console is this process's stdout, so in a
// container the engine's log driver carries it; file is a stream named by the date,
// logs/%DATE%.log, in the run's shared volume.
//
// Every byte handed to a sink is counted on the way through (lines, bytes and a
// running SHA-256), so that a run can prove what the API wrote. A control server on
// its own port serves the counters in the style of the kit's control protocol
// (kit/incontainer/control): /ready, /status, POST /reset, /report.
//
// Express and morgan are Debian's packages, installed under /usr/share/nodejs, which
// Debian's node searches by default.
//
// This is the image's program. Given the fifo-stall protocol's command line (-mode,
// -fifo, -max-log-bytes), which the kit gives every API it drives that way, it is the
// log-driver experiment's API instead (logbench_numbered.js): handed over here, before
// Express and morgan are loaded, so that API carries neither.

if (require.main === module) {
  const numbered = require('./logbench_numbered')
  if (numbered.isItsCommandLine(process.argv.slice(2))) {
    numbered.main(process.argv.slice(2))
    return // a CommonJS module's body is a function: the rest is the qps API's
  }
}

const crypto = require('crypto')
const fs = require('fs')
const http = require('http')
const path = require('path')

const express = require('express')
const morgan = require('morgan')

const { parseFlags } = require('./logbench_flags')
const { readProcess, readLimits } = require('./logbench_process')

// Loopback ports shared with the kit (kit/incontainer/control).
const WORKLOAD_PORT = 8080
const CONTROL_PORT = 9001

const NONE = 'none'
const CONSOLE = 'console'
const FILE = 'file'
const CONSOLE_FILE = 'console+file'
const CONFIGS = [NONE, CONSOLE, FILE, CONSOLE_FILE]

// The published formats, token for token.
const CONSOLE_FORMAT = '[:time-short] :remote-addr - ":method :url HTTP/:http-version" :status - :response-time ms'
const FILE_FORMAT = '[:time] :remote-addr - ":method :url HTTP/:http-version" :status - :response-time ms'

// The published service returns this object from its one route.
const RESPONSE_BODY = Object.freeze({ statusCode: 200, message: 'Hello World!' })

// --- time --------------------------------------------------------------------------

// The clock of the time tokens and of the file's date. The published tokens format
// Date.now() in the process's time zone (dayjs with a default zone); offsetMinutes
// pins the zone for tests, null means the process's own (TZ; UTC in a container).
const clock = { now: Date.now, offsetMinutes: null }

function setClock (now, offsetMinutes) {
  clock.now = now || Date.now
  clock.offsetMinutes = offsetMinutes === undefined ? null : offsetMinutes
}

function pad (n, width) {
  return String(n).padStart(width, '0')
}

// The wall-clock fields of ms in the clock's zone, and the zone's offset east of UTC.
function localFields (ms) {
  const offset = clock.offsetMinutes !== null ? clock.offsetMinutes : -new Date(ms).getTimezoneOffset()
  const d = new Date(ms + offset * 60000)
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
    offset
  }
}

// dayjs's "Z": the offset as +HH:mm.
function zone (offset) {
  const sign = offset < 0 ? '-' : '+'
  const a = Math.abs(offset)
  return sign + pad(Math.floor(a / 60), 2) + ':' + pad(a % 60, 2)
}

function date (f) {
  return pad(f.y, 4) + '-' + pad(f.mo, 2) + '-' + pad(f.d, 2)
}

function clockTime (f) {
  return pad(f.h, 2) + ':' + pad(f.mi, 2) + ':' + pad(f.s, 2) + '.' + pad(f.ms, 3)
}

// :time-short, HH:mm:ss.SSS
function timeShort (ms) {
  return clockTime(localFields(ms))
}

// :time, YYYY-MM-DD HH:mm:ss.SSSZ
function timeLong (ms) {
  const f = localFields(ms)
  return date(f) + ' ' + clockTime(f) + zone(f.offset)
}

// %DATE% of the file's name, YYYY-MM-DD.
function fileDate (ms) {
  return date(localFields(ms))
}

// As published, each token reads the clock when the line is formatted, at the end of
// the response.
morgan.token('time-short', () => timeShort(clock.now()))
morgan.token('time', () => timeLong(clock.now()))

// --- sinks -------------------------------------------------------------------------

// A stream named by the date: dir/YYYY-MM-DD.log, appended to, a new file when the date
// changes (the published daily file stream, logs/%DATE%.log). Writes go through
// fs.WriteStream, the same asynchronous file stream the published rotator wraps.
class DateNamedFile {
  constructor (dir) {
    this.dir = dir
    this.stream = null
    this.path = ''
    this.date = ''
    this.rotations = 0
    this.offset = 0 // the current file's size once everything handed over is written
    this.onError = null // set by the counting sink
    this._open(fileDate(clock.now()))
  }

  _open (name) {
    if (this.stream) {
      this.stream.end()
      this.rotations++
    }
    this.date = name
    this.path = path.join(this.dir, name + '.log')
    try {
      this.offset = fs.statSync(this.path).size // appended to, as the published stream does
    } catch (e) {
      this.offset = 0
    }
    this.stream = fs.createWriteStream(this.path, { flags: 'a' })
    this.stream.on('error', (err) => { if (this.onError) this.onError(err) })
  }

  write (chunk) {
    const name = fileDate(clock.now())
    if (name !== this.date) this._open(name)
    this.offset += chunk.length
    return this.stream.write(chunk)
  }

  // Bytes handed over and not yet written to the file.
  pendingBytes () {
    return this.stream ? this.stream.writableLength : 0
  }

  close (cb) {
    if (!this.stream) return cb && cb()
    this.stream.end(cb)
  }
}

// Counts exactly the bytes given to the target stream: morgan writes one line (a
// string) per request; it is encoded once, counted, and the same bytes written.
class CountingSink {
  constructor (name, target) {
    this.name = name
    this.target = target
    this.writeErrors = 0
    this.failure = ''
    const failed = (err) => {
      this.writeErrors++
      if (!this.failure) this.failure = String(err && err.message ? err.message : err)
    }
    if (typeof target.on === 'function') target.on('error', failed)
    else target.onError = failed
    // Since the process started, never reset: what the engine's log driver must give
    // back of the whole run, warm-up included.
    this.total = { bytes: 0, lines: 0, hash: crypto.createHash('sha256') }
    this.reset()
  }

  reset () {
    this.bytes = 0
    this.lines = 0
    this.hash = crypto.createHash('sha256')
    this.writeErrors = 0
    this.failure = ''
    if (this.target instanceof DateNamedFile) {
      // Where the counted bytes begin: with no rotation since, the file's bytes from
      // start_offset_bytes on are exactly the counted ones.
      this.rotationsAtReset = this.target.rotations
      this.startOffset = this.target.offset
    }
  }

  write (line) {
    const buf = typeof line === 'string' ? Buffer.from(line, 'utf8') : line
    let lines = 0
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) lines++
    this.bytes += buf.length
    this.lines += lines
    this.hash.update(buf)
    this.total.bytes += buf.length
    this.total.lines += lines
    this.total.hash.update(buf)
    return this.target.write(buf)
  }

  snapshot () {
    const s = {
      bytes: this.bytes,
      lines: this.lines,
      sha256: this.hash.copy().digest('hex'),
      write_errors: this.writeErrors,
      failure: this.failure,
      total: { bytes: this.total.bytes, lines: this.total.lines, sha256: this.total.hash.copy().digest('hex') }
    }
    if (this.target instanceof DateNamedFile) {
      s.path = this.target.path
      s.start_offset_bytes = this.startOffset
      s.pending_bytes = this.target.pendingBytes()
      s.rotations = this.target.rotations - this.rotationsAtReset
    }
    return s
  }
}

function versions () {
  return {
    node: process.versions.node,
    express: require('express/package.json').version,
    morgan: require('morgan/package.json').version
  }
}

// --- the API -----------------------------------------------------------------------

class API {
  // opts: config, logDir, consoleStream (default process.stdout).
  constructor (opts = {}) {
    const config = opts.config || CONSOLE_FILE
    if (!CONFIGS.includes(config)) {
      throw new Error(`unknown configuration "${config}" (known: ${CONFIGS.join(', ')})`)
    }
    this.config = config
    this.sinks = {}
    this.ready = false
    this.requests = 0
    this.process = readProcess()
    this.versions = versions()
    this.app = express()
    // The published order: the file logger first, then the console logger.
    if (config === FILE || config === CONSOLE_FILE) {
      if (!opts.logDir) throw new Error('the file configurations need a log directory')
      fs.mkdirSync(opts.logDir, { recursive: true })
      this.sinks.file = new CountingSink(FILE, new DateNamedFile(opts.logDir))
      this.app.use(morgan(FILE_FORMAT, { stream: this.sinks.file }))
    }
    if (config === CONSOLE || config === CONSOLE_FILE) {
      this.sinks.console = new CountingSink(CONSOLE, opts.consoleStream || process.stdout)
      this.app.use(morgan(CONSOLE_FORMAT, { stream: this.sinks.console }))
    }
    this.app.get('/', (req, res) => {
      this.requests++
      res.json(RESPONSE_BODY)
    })
    this._resetUsage()
  }

  _resetUsage () {
    this.resetAt = process.hrtime.bigint()
    this.cpuAtReset = process.cpuUsage()
  }

  reset () {
    for (const s of Object.values(this.sinks)) s.reset()
    this.requests = 0
    this._resetUsage()
  }

  status () {
    const sinks = {}
    for (const [name, s] of Object.entries(this.sinks)) sinks[name] = s.snapshot()
    const cpu = process.cpuUsage(this.cpuAtReset)
    return {
      implementation: 'node',
      runtime: process.version,
      versions: this.versions,
      config: this.config,
      ready: this.ready,
      requests: this.requests,
      sinks,
      usage: {
        since_reset_ms: Number(process.hrtime.bigint() - this.resetAt) / 1e6,
        cpu_user_us: cpu.user,
        cpu_system_us: cpu.system,
        rss_bytes: process.memoryUsage.rss()
      },
      process: this.process
    }
  }

  // Resolves once the file stream has handed everything to the kernel (or after
  // timeoutMs), so that the counters of a report match the file on disk.
  settle (timeoutMs = 2000) {
    const file = this.sinks.file
    if (!file) return Promise.resolve()
    const deadline = Date.now() + timeoutMs
    return new Promise((resolve) => {
      const poll = () => {
        if (file.target.pendingBytes() === 0 || Date.now() >= deadline) return resolve()
        setTimeout(poll, 5)
      }
      poll()
    })
  }

  controlHandler () {
    const send = (res, code, body, type = 'text/plain; charset=utf-8') => {
      res.writeHead(code, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
      res.end(body)
    }
    const json = (res, code, doc) => send(res, code, JSON.stringify(doc) + '\n', 'application/json')
    return (req, res) => {
      const route = req.method + ' ' + req.url
      switch (route) {
        case 'GET /ready':
          return json(res, this.ready ? 200 : 503, { ready: this.ready })
        case 'GET /status':
          return json(res, 200, this.status())
        case 'POST /reset':
          if (!this.ready) return send(res, 503, 'not ready\n')
          this.reset()
          return send(res, 200, '')
        case 'GET /report':
          if (!this.ready) return send(res, 503, 'not ready\n')
          return this.settle().then(() => json(res, 200, this.status()))
        default:
          return send(res, 404, 'not found\n')
      }
    }
  }

  // Starts the control server, then the workload server; resolves with both bound
  // addresses once the request path is open.
  listen ({ host = '127.0.0.1', port = WORKLOAD_PORT, controlHost = '127.0.0.1', controlPort = CONTROL_PORT } = {}) {
    const listen = (server, h, p) => new Promise((resolve, reject) => {
      server.once('error', reject)
      server.listen(p, h, () => { server.off('error', reject); resolve(server.address()) })
    })
    this.control = http.createServer(this.controlHandler())
    this.workload = http.createServer(this.app)
    return listen(this.control, controlHost, controlPort).then((control) =>
      listen(this.workload, host, port).then((workload) => {
        this.ready = true
        return { control, workload }
      }))
  }

  close () {
    const closing = []
    for (const server of [this.workload, this.control]) {
      if (!server) continue
      if (server.closeAllConnections) server.closeAllConnections()
      closing.push(new Promise((resolve) => server.close(() => resolve())))
    }
    if (this.sinks.file) closing.push(new Promise((resolve) => this.sinks.file.target.close(resolve)))
    return Promise.all(closing)
  }
}

// --- command line ------------------------------------------------------------------

const FLAGS = {
  config: ['LOGBENCH_CONFIG', CONSOLE_FILE, 'none, console, file or console+file'],
  'log-dir': ['LOGBENCH_LOG_DIR', '/run/logbench/logs', 'directory of the date-named log file'],
  host: ['LOGBENCH_HOST', '127.0.0.1', 'workload listen address'],
  port: ['LOGBENCH_PORT', String(WORKLOAD_PORT), 'workload port'],
  'control-port': ['LOGBENCH_CONTROL_PORT', String(CONTROL_PORT), 'control port (loopback)']
}

function usage () {
  return 'usage: logbench_api.js [-flag value]...\n' + Object.entries(FLAGS)
    .map(([name, [env, def, help]]) => `  -${name}  ${help} (env ${env}, default ${def})`).join('\n') + '\n'
}

// Flags as the kit's Go commands take them (-name value, -name=value, one or two
// dashes); each falls back to its environment variable, then to its default.
function parseArgs (argv, env = process.env) {
  const defaults = {}
  for (const [name, [key, def]] of Object.entries(FLAGS)) defaults[name] = env[key] !== undefined ? env[key] : def
  const out = parseFlags(argv, defaults, usage)
  if (!CONFIGS.includes(out.config)) throw new Error(`unknown configuration "${out.config}" (known: ${CONFIGS.join(', ')})`)
  for (const p of ['port', 'control-port']) {
    const n = Number(out[p])
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`bad -${p} "${out[p]}"`)
    out[p] = n
  }
  return out
}

function main (argv = process.argv.slice(2)) {
  let args
  try {
    args = parseArgs(argv)
  } catch (e) {
    process.stderr.write('api: ' + e.message + '\n')
    process.exit(2)
  }
  // As PID 1 the process would ignore SIGTERM without a handler: exit at once.
  process.on('SIGTERM', () => process.exit(0))
  process.on('SIGINT', () => process.exit(0))
  let api
  try {
    api = new API({ config: args.config, logDir: args['log-dir'] })
  } catch (e) {
    process.stderr.write('api: ' + e.message + '\n')
    process.exit(1)
  }
  api.listen({ host: args.host, port: args.port, controlPort: args['control-port'] }).catch((e) => {
    process.stderr.write('api: ' + e.message + '\n')
    process.exit(1)
  })
}

module.exports = {
  API,
  CountingSink,
  DateNamedFile,
  CONFIGS,
  CONSOLE_FORMAT,
  FILE_FORMAT,
  RESPONSE_BODY,
  WORKLOAD_PORT,
  CONTROL_PORT,
  morgan,
  setClock,
  timeShort,
  timeLong,
  fileDate,
  parseArgs,
  readProcess,
  readLimits
}

if (require.main === module) main()
