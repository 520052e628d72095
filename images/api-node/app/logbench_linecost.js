'use strict'
// What one log line costs, seven ways, as Node.js programs log: the Node.js third of
// the line-cost experiment (the Go one is kit/incontainer/linecost, the Python one
// images/api-python/app/logbench_linecost.py; this program's JSON follows their
// document, kit/contract/linecost.go, field for field).
//
// A Node.js logger is a level check, util.format (what console.log and winston's splat
// format with) or a template string, and a write to a file descriptor. The ways:
//   format          log.info formats the line and hands it to a sink that keeps nothing
//   disabled-eager  log.debug(`...${user}...`) under INFO: the template string is built,
//                   then the level check drops it
//   disabled-lazy   log.debug('...%s...', user) under INFO: the level check returns first
//   buffered        an in-process 4 KiB Buffer, written with one fs.writeSync when the
//                   next line does not fit, and flushed every second by an event-loop timer
//   unbuffered      one fs.writeSync a line: what process.stderr does when it is a file
//                   or a pipe (Node writes those synchronously)
//   fsync           fs.writeSync then fs.fsyncSync, per line
//   queue           the line, formatted on the caller, copied into a bounded ring in a
//                   SharedArrayBuffer that a worker_thread drains with one fs.writeSync a
//                   line (the design of pino's thread-stream); when the ring is full the
//                   caller blocks in Atomics.wait (default) or drops the line, counted
//
// Why the buffered way is a Buffer of its own and not fs.createWriteStream with
// cork/uncork: a WriteStream writes on libuv's thread pool only when the event loop
// turns, so during a run of synchronous calls it queues every line in memory, without
// bound, and then writes them in one writev: neither 4 KiB nor when full. The Buffer is
// the Go (bufio.Writer) and Python (BufferedWriter) ways' 4 KiB buffer, written by the
// caller when full. Its timer runs on the event loop: it never interrupts the calls and
// needs no lock, but a process that never yields never has its buffer flushed by it.
//
// Why the queue is a worker_thread and not the event loop's asynchronous writes: a
// bounded queue drained by the event loop cannot block a synchronous caller (the loop
// does not turn while the caller waits), so "block" would never end; a worker drains
// while the caller runs, as Go's goroutine and Python's QueueListener thread do.
//
// The CPU clock: Node.js 18 has no per-thread CPU clock (process.threadCpuUsage came
// later), so a trial's CPU time is process.cpuUsage(), the whole process's user and
// system time in microseconds: the calls, and also V8's garbage collector and compiler
// threads and, in the queue way, the worker's writes. Wall time is
// process.hrtime.bigint() (CLOCK_MONOTONIC).
//
// Run as node /app/logbench_linecost.js with the flags of cmd/incontainer/linecost.
// Node's standard library only.

const crypto = require('crypto')
const fs = require('fs')
const path = require('path')
const util = require('util')
const v8 = require('v8')
const vm = require('vm')
const { Worker, isMainThread, workerData } = require('worker_threads')

const WAYS = ['format', 'disabled-eager', 'disabled-lazy', 'buffered', 'unbuffered', 'fsync', 'queue']
const FILE_WAYS = new Set(['buffered', 'unbuffered', 'fsync', 'queue'])
const BLOCK = 'block'
const DROP = 'drop'

// The fewest lines a trial may have; why, see MinLines in kit/incontainer/linecost.
const MIN_LINES = 1000
const DEFAULT_LINES = 20000
const DEFAULT_TRIALS = 5
const DEFAULT_WARMUP = 1
const DEFAULT_QUEUE_SIZE = 1024
const DEFAULT_BUFFER_BYTES = 4096
const DEFAULT_FLUSH_INTERVAL_MS = 1000
const DEFAULT_TIMER_READS = 100000
// The queue's ring holds lines of up to SLOT_BYTES each (the experiment's are ~70).
const SLOT_BYTES = 256

// The line: four fields after the level and the message.
const USER_NAME = 'alice'
const ITEM_PATH = '/api/items'
const HTTP_STATUS = 200
const MESSAGE = 'served seq=%d user=%s path=%s status=%d'
const LINE_FORMAT = 'level=INFO msg=served seq={seq} user=alice path=/api/items status=200'

const LIBRARY = 'util.format and fs.writeSync (no logging package); CPU clock: process.cpuUsage(), the whole process (Node.js 18 has no per-thread CPU clock)'

const CGROUP_FIELDS = ['unix_ns', 'cgroup_version', 'cpu_limit_cores', 'memory_limit_bytes',
  'swap_limit_bytes', 'cpu_usage_ns', 'cpu_periods', 'cpu_throttled_periods',
  'cpu_throttled_ns', 'memory_usage_bytes', 'memory_peak_bytes']

// Line seq as every enabled way writes it, newline included.
function line (seq) {
  return `level=INFO msg=served seq=${seq} user=alice path=/api/items status=200\n`
}

// --- counting -------------------------------------------------------------------

// Counts and hashes a byte stream as the experiment verifies it (contract.Counts).
class Tally {
  constructor () {
    this.h = crypto.createHash('sha256')
    this.bytes = 0
    this.lines = 0
  }

  add (buf) {
    this.h.update(buf)
    this.bytes += buf.length
    for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) this.lines++
  }

  counts () {
    return { bytes: this.bytes, lines: this.lines, sha256: this.h.digest('hex') }
  }
}

// What lines calls of an enabled way generate: lines 0..lines-1.
function expected (lines) {
  const t = new Tally()
  let chunk = []
  for (let seq = 0; seq < lines; seq++) {
    chunk.push(line(seq))
    if (chunk.length === 1024) {
      t.add(Buffer.from(chunk.join('')))
      chunk = []
    }
  }
  t.add(Buffer.from(chunk.join('')))
  return t.counts()
}

function nothing () { return new Tally().counts() }

function noFile () { return { bytes: 0, lines: 0, sha256: '' } }

function readBack (file) {
  const t = new Tally()
  const fd = fs.openSync(file, 'r')
  try {
    const buf = Buffer.alloc(1 << 16)
    for (let n; (n = fs.readSync(fd, buf, 0, buf.length, null)) > 0;) t.add(buf.subarray(0, n))
  } finally {
    fs.closeSync(fd)
  }
  return t.counts()
}

// The way's log file, counting its calls: each fs.writeSync on a regular file is one
// write system call, each fs.fsyncSync one fsync. fs is looked up at each call so that
// a test can watch the calls reach it.
class CountingFile {
  constructor (file) {
    this.fd = fs.openSync(file, 'w', 0o644)
    this.writeCalls = 0
    this.fsyncCalls = 0
    this.writtenBytes = 0
  }

  write (data, offset, length) {
    this.writeCalls++
    const n = typeof data === 'string' ? fs.writeSync(this.fd, data) : fs.writeSync(this.fd, data, offset, length)
    this.writtenBytes += n
    return n
  }

  sync () {
    this.fsyncCalls++
    fs.fsyncSync(this.fd)
  }

  close () { fs.closeSync(this.fd) }
}

// The calling thread's write system calls so far, as the kernel counts them; -1 when
// it does not say.
function threadWriteSyscalls () {
  try {
    const m = /^syscw:\s*(\d+)/m.exec(fs.readFileSync('/proc/thread-self/io', 'latin1'))
    return m ? Number(m[1]) : -1
  } catch {
    return -1
  }
}

// --- the ways -------------------------------------------------------------------

// The line's argument that costs something to render; counts its renderings so that
// every trial shows which ways build their lines (util.format's %s and a template
// string both call toString).
class User {
  constructor (name) {
    this.name = name
    this.built = 0
  }

  toString () {
    this.built++
    return this.name
  }
}

const DEBUG = 10
const INFO = 20

// A logger as Node.js programs write one: a level check, then util.format, then the
// sink.
class Logger {
  constructor (level, sink) {
    this.level = level
    this.sink = sink
  }

  debug (fmt, ...args) {
    if (this.level > DEBUG) return
    this.sink(`level=DEBUG msg=${util.format(fmt, ...args)}\n`)
  }

  info (fmt, ...args) {
    if (this.level > INFO) return
    this.sink(`level=INFO msg=${util.format(fmt, ...args)}\n`)
  }
}

// A Buffer of size bytes written to the file when the next line does not fit, and
// flushed every interval by an event-loop timer.
class BufferedSink {
  constructor (file, size, intervalMs) {
    this.file = file
    this.buf = Buffer.alloc(size)
    this.used = 0
    this.timer = setInterval(() => this.flush(), intervalMs)
    this.timer.unref() // a quiet process may exit; close flushes what is left
  }

  write (s) {
    const n = Buffer.byteLength(s)
    if (this.used + n > this.buf.length) {
      this.flush()
      if (n > this.buf.length) {
        this.file.write(s)
        return
      }
    }
    this.used += this.buf.write(s, this.used)
  }

  flush () {
    if (this.used > 0) {
      this.file.write(this.buf, 0, this.used)
      this.used = 0
    }
  }

  close () {
    clearInterval(this.timer)
    this.flush()
  }
}

// The queue's shared control words.
const Q_COUNT = 0 // lines in the ring
const Q_CLOSED = 1 // the caller has put its last line
const Q_READY = 2 // the writer is running
const Q_DONE = 3 // the writer has written every line and its counts
const Q_WORDS = 4

// A bounded ring of lines in a SharedArrayBuffer, drained by a worker_thread.
class QueueSink {
  constructor (file, size, drop, holdMs = 0) {
    this.file = file
    this.size = size
    this.drop = drop
    this.waits = 0 // calls that found the ring full
    this.dropped = 0
    this.head = 0
    this.ctl = new Int32Array(new SharedArrayBuffer(Q_WORDS * 4))
    this.lens = new Int32Array(new SharedArrayBuffer(size * 4))
    this.data = Buffer.from(new SharedArrayBuffer(size * SLOT_BYTES))
    this.stats = new Float64Array(new SharedArrayBuffer(2 * 8)) // the writer's write calls and bytes
    // holdMs holds the writer back before it starts, so that a test can fill the ring.
    this.worker = new Worker(__filename, {
      workerData: { linecostQueue: true, fd: file.fd, size, ctl: this.ctl, lens: this.lens, data: this.data.buffer, stats: this.stats, holdMs }
    })
  }

  // ready resolves once the writer is waiting for lines, so that no trial pays its start.
  ready () {
    return new Promise((resolve, reject) => {
      this.worker.once('error', reject)
      this.worker.once('message', () => {
        this.worker.off('error', reject)
        resolve()
      })
    })
  }

  write (s) {
    const ctl = this.ctl
    if (Atomics.load(ctl, Q_COUNT) >= this.size) {
      if (this.drop) {
        this.dropped++
        return
      }
      this.waits++
      while (Atomics.load(ctl, Q_COUNT) >= this.size) Atomics.wait(ctl, Q_COUNT, this.size)
    }
    const n = this.data.write(s, this.head * SLOT_BYTES, SLOT_BYTES)
    if (n !== Buffer.byteLength(s)) throw new Error(`a line of ${Buffer.byteLength(s)} bytes does not fit the queue's ${SLOT_BYTES}-byte slots`)
    this.lens[this.head] = n
    this.head = (this.head + 1) % this.size
    // The writer waits only on an empty ring: wake it only then.
    if (Atomics.add(ctl, Q_COUNT, 1) === 0) Atomics.notify(ctl, Q_COUNT)
  }

  // close waits, blocking, until every queued line is written, then for the worker's end.
  async close () {
    Atomics.store(this.ctl, Q_CLOSED, 1)
    Atomics.notify(this.ctl, Q_COUNT)
    while (Atomics.load(this.ctl, Q_DONE) === 0) Atomics.wait(this.ctl, Q_DONE, 0)
    this.file.writeCalls += this.stats[0]
    this.file.writtenBytes += this.stats[1]
    await new Promise((resolve) => {
      if (this.worker.threadId < 0) resolve()
      else this.worker.once('exit', resolve)
    })
  }
}

// The queue's writer, in its worker_thread: one fs.writeSync a line, in order.
function drainQueue (d) {
  const { parentPort } = require('worker_threads')
  const { ctl, lens, stats, size, fd } = d
  const data = Buffer.from(d.data)
  Atomics.store(ctl, Q_READY, 1)
  parentPort.postMessage('ready')
  if (d.holdMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, d.holdMs)
  let tail = 0
  let writes = 0
  let bytes = 0
  for (;;) {
    if (Atomics.load(ctl, Q_COUNT) === 0) {
      if (Atomics.load(ctl, Q_CLOSED) === 1 && Atomics.load(ctl, Q_COUNT) === 0) break
      Atomics.wait(ctl, Q_COUNT, 0)
      continue
    }
    writes++
    bytes += fs.writeSync(fd, data, tail * SLOT_BYTES, lens[tail])
    tail = (tail + 1) % size
    // The caller waits only on a full ring: wake it only then.
    if (Atomics.sub(ctl, Q_COUNT, 1) === size) Atomics.notify(ctl, Q_COUNT)
  }
  stats[0] = writes
  stats[1] = bytes
  Atomics.store(ctl, Q_DONE, 1)
  Atomics.notify(ctl, Q_DONE)
}

const CALL_INFO = "log.info('served seq=%d user=%s path=%s status=%d', seq, user, path, 200)"
const WAY_INFO = {
  format: [CALL_INFO, 'Logger.info checks the level, util.format builds the message, a template string the line, handed to a sink that keeps nothing'],
  'disabled-eager': ['log.debug(`served seq=${seq} user=${user} path=${path} status=${200}`)', // eslint-disable-line no-template-curly-in-string
    'the template string is built at the call site; Logger.debug finds DEBUG disabled and returns'],
  'disabled-lazy': ["log.debug('served seq=%d user=%s path=%s status=%d', seq, user, path, 200)",
    'Logger.debug finds DEBUG disabled and returns: the arguments, gathered in a rest array, are never rendered'],
  buffered: [CALL_INFO, 'the formatted line is copied into a 4 KiB Buffer, written with one fs.writeSync when the next line does not fit; an event-loop timer flushes it every second (it cannot run during synchronous calls)'],
  unbuffered: [CALL_INFO, 'one fs.writeSync per line: one write system call, as process.stderr does to a file or pipe'],
  fsync: [CALL_INFO, 'fs.writeSync then fs.fsyncSync, per line'],
  queue: [CALL_INFO, 'formatted on the caller and copied into a bounded ring in a SharedArrayBuffer (Atomics, as pino\'s thread-stream); a worker_thread writes each line with one fs.writeSync. The CPU figure is the whole process\'s, the worker\'s writes included']
}

// One trial's set-up of a way: run(n) is the measured loop, finish() gets every line
// out of the process and closes the file.
class Instance {
  constructor () {
    this.user = new User(USER_NAME)
    this.run = null
    this.file = null // the CountingFile of the ways that write a file
    this.queue = null
    this.closers = []
  }

  async finish () {
    for (const close of this.closers) await close()
  }
}

async function newInstance (way, file, { bufferBytes = DEFAULT_BUFFER_BYTES, flushIntervalMs = DEFAULT_FLUSH_INTERVAL_MS, queueSize = DEFAULT_QUEUE_SIZE, queueFull = BLOCK, holdMs = 0, sink = null } = {}) {
  if (!WAYS.includes(way)) throw new Error(`unknown way '${way}' (ways: ${WAYS.join(', ')})`)
  const inst = new Instance()
  const user = inst.user
  if (way === 'disabled-eager') {
    const log = new Logger(INFO, () => {})
    inst.run = (n) => {
      for (let seq = 0; seq < n; seq++) log.debug(`served seq=${seq} user=${user} path=${ITEM_PATH} status=${HTTP_STATUS}`)
    }
    return inst
  }
  if (way === 'disabled-lazy') {
    const log = new Logger(INFO, () => {})
    inst.run = (n) => {
      for (let seq = 0; seq < n; seq++) log.debug(MESSAGE, seq, user, ITEM_PATH, HTTP_STATUS)
    }
    return inst
  }
  let out
  if (way === 'format') {
    // The sink keeps nothing unless a test asks to see the lines; it touches each so
    // that the formatting cannot be optimised away.
    let total = 0
    out = sink ? (s) => sink.push(s) : (s) => { total += s.length }
    inst.closers.push(() => { inst.formatted = total })
  } else {
    const f = new CountingFile(file)
    inst.file = f
    if (way === 'buffered') {
      const b = new BufferedSink(f, bufferBytes, flushIntervalMs)
      out = (s) => b.write(s)
      inst.closers.push(() => b.close())
    } else if (way === 'unbuffered') {
      out = (s) => f.write(s)
    } else if (way === 'fsync') {
      out = (s) => { f.write(s); f.sync() }
    } else {
      const q = new QueueSink(f, queueSize, queueFull === DROP, holdMs)
      await q.ready()
      inst.queue = q
      out = (s) => q.write(s)
      inst.closers.push(() => q.close())
    }
    inst.closers.push(() => f.close())
  }
  const log = new Logger(INFO, out)
  inst.run = (n) => {
    for (let seq = 0; seq < n; seq++) log.info(MESSAGE, seq, user, ITEM_PATH, HTTP_STATUS)
  }
  return inst
}

// --- measuring ------------------------------------------------------------------

class Config {
  constructor (dir, { ways = WAYS, lines = DEFAULT_LINES, trials = DEFAULT_TRIALS, warmup = DEFAULT_WARMUP, queueSize = DEFAULT_QUEUE_SIZE, queueFull = BLOCK, bufferBytes = DEFAULT_BUFFER_BYTES, flushIntervalMs = DEFAULT_FLUSH_INTERVAL_MS, timerReads = DEFAULT_TIMER_READS, cgroupRoot = '/sys/fs/cgroup', mountinfo = '/proc/self/mountinfo' } = {}) {
    Object.assign(this, { dir, ways: [...ways], lines, trials, warmup, queueSize, queueFull, bufferBytes, flushIntervalMs, timerReads, cgroupRoot, mountinfo })
  }

  writesFiles () { return this.ways.some((w) => FILE_WAYS.has(w)) }

  // What is wrong with the configuration, one message each.
  problems () {
    const out = []
    const int = (v) => Number.isSafeInteger(v)
    if (this.ways.length === 0) out.push('no ways to measure')
    this.ways.forEach((w, i) => {
      if (!WAYS.includes(w)) out.push(`unknown way '${w}' (ways: ${WAYS.join(', ')})`)
      else if (this.ways.slice(0, i).includes(w)) out.push(`way '${w}' given twice`)
    })
    if (!int(this.lines) || this.lines < MIN_LINES) {
      out.push(`${this.lines} lines per trial is below the minimum of ${MIN_LINES}: a shorter trial is too close to the clock's resolution and the cost of reading it`)
    }
    if (!int(this.trials) || this.trials < 1) out.push(`trials must be at least 1, not ${this.trials}`)
    if (!int(this.warmup) || this.warmup < 0) out.push(`warm-up trials must be 0 or more, not ${this.warmup}`)
    if (!int(this.queueSize) || this.queueSize < 1) out.push(`queue size must be at least 1, not ${this.queueSize}`)
    if (this.queueFull !== BLOCK && this.queueFull !== DROP) out.push(`queue-full policy must be '${BLOCK}' or '${DROP}', not '${this.queueFull}'`)
    if (!int(this.bufferBytes) || this.bufferBytes < 1) out.push(`buffer size must be at least 1 byte, not ${this.bufferBytes}`)
    if (!(this.flushIntervalMs > 0)) out.push(`flush interval must be positive, not ${this.flushIntervalMs}`)
    if (!int(this.timerReads) || this.timerReads < 1) out.push(`timer reads must be at least 1, not ${this.timerReads}`)
    if (this.writesFiles()) {
      let dir = false
      try { dir = fs.statSync(this.dir).isDirectory() } catch {}
      if (!dir) out.push(`directory for the log files: ${this.dir} is not a directory`)
    }
    return out
  }
}

// The process's CPU time in nanoseconds (user and system, every thread).
function processCPUNanos () {
  const u = process.cpuUsage()
  return (u.user + u.system) * 1000
}

function unixNanos () {
  return Math.round((performance.timeOrigin + performance.now()) * 1e6)
}

// Each clock read reads times back to back (kit/incontainer/linecost.MeasureTimer).
// Node cannot ask clock_getres: the monotonic resolution is libuv's clock,
// CLOCK_MONOTONIC, which is 1 ns on Linux with high-resolution timers; the CPU clock's
// is process.cpuUsage()'s unit, a microsecond.
function measureTimer (reads) {
  const mono = process.hrtime.bigint
  let start = mono()
  for (let i = 0; i < reads; i++) mono()
  const monoNs = Number(mono() - start) / reads
  let sum = 0
  start = mono()
  for (let i = 0; i < reads; i++) sum += processCPUNanos()
  const cpuNs = Number(mono() - start) / reads
  if (sum === 0) throw new Error('the process CPU clock cannot be read')
  return {
    reads,
    monotonic_ns_per_read: monoNs,
    thread_cpu_ns_per_read: cpuNs,
    monotonic_resolution_ns: 1,
    thread_cpu_resolution_ns: 1000
  }
}

// mountinfo escapes space, tab, newline and backslash as \ooo.
function unescape (s) {
  return s.replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)))
}

function parseMountinfoLine (row) {
  const f = row.trim().split(/\s+/)
  const sep = f.indexOf('-', 6)
  if (sep < 0 || f.length < sep + 4) return null
  return { mount_point: unescape(f[4]), fs_type: f[sep + 1], source: unescape(f[sep + 2]), mount_options: f[5], super_options: f[sep + 3] }
}

function within (p, mountPoint) {
  return mountPoint === '/' || p === mountPoint || p.startsWith(mountPoint + '/')
}

// The mount that holds dir (kit/incontainer/linecost.ReadFSFacts).
function readFSFacts (mountinfo, dir) {
  let p = path.resolve(dir)
  try { p = fs.realpathSync(p) } catch {}
  let best = null
  for (const row of fs.readFileSync(mountinfo, 'utf8').split('\n')) {
    const m = parseMountinfoLine(row)
    if (m === null || !within(p, m.mount_point)) continue
    // The longest mount point wins; of equal ones the later, which hides the earlier.
    if (best === null || m.mount_point.length >= best.mount_point.length) best = m
  }
  if (best === null) throw new Error(`no mount holds ${p} in ${mountinfo}`)
  return { dir, mount_point: best.mount_point, fs_type: best.fs_type, source: best.source, mount_options: best.mount_options, super_options: best.super_options }
}

// --- the cgroup (as images/api-python/app/logbench_cgroup.py reads it) -------------

function readText (p) { return fs.readFileSync(p, 'utf8').trim() }

function readInt (p, dflt) {
  try {
    return Number(BigInt(readText(p)))
  } catch (err) {
    if (err.code === 'ENOENT' && dflt !== undefined) return dflt
    throw err
  }
}

function readKeyed (p) {
  let text
  try { text = readText(p) } catch (err) {
    if (err.code === 'ENOENT') return {}
    throw err
  }
  const out = {}
  for (const row of text.split('\n')) {
    const parts = row.trim().split(/\s+/)
    if (parts.length === 2 && /^-?\d+$/.test(parts[1])) out[parts[0]] = Number(parts[1])
  }
  return out
}

function quotaCores (quota, period) { return quota <= 0 || period <= 0 ? 0 : quota / period }

// cgroup v1 reports "unlimited" as a huge page-rounded number.
function unlimitedAsZero (v) { return v >= 2 ** 62 ? 0 : v }

function v2Limit (p, dflt) {
  let text
  try { text = readText(p) } catch (err) {
    if (err.code === 'ENOENT' && dflt !== undefined) return dflt
    throw err
  }
  return text === 'max' ? 0 : Number(text)
}

function snapshot (version) {
  return {
    unix_ns: unixNanos(),
    cgroup_version: version,
    cpu_limit_cores: 0,
    memory_limit_bytes: 0,
    swap_limit_bytes: -1,
    cpu_usage_ns: 0,
    cpu_periods: 0,
    cpu_throttled_periods: 0,
    cpu_throttled_ns: 0,
    memory_usage_bytes: 0,
    memory_peak_bytes: 0
  }
}

function v2Group (procCgroup) {
  try {
    for (const row of readText(procCgroup).split('\n')) {
      if (row.startsWith('0::')) return row.slice(3) || '/'
    }
  } catch {}
  return '/'
}

// A snapshot of the process's own cgroup (kit/contract/contract.go's CgroupSnapshot).
function readCgroup (root, procCgroup = '/proc/self/cgroup') {
  if (fs.existsSync(path.join(root, 'cgroup.controllers'))) {
    const s = snapshot(2)
    const d = path.join(root, v2Group(procCgroup))
    const max = readText(path.join(d, 'cpu.max')).split(/\s+/)
    if (max.length !== 2) throw new Error(`cpu.max: unexpected '${max.join(' ')}'`)
    if (max[0] !== 'max') s.cpu_limit_cores = quotaCores(Number(max[0]), Number(max[1]))
    s.memory_limit_bytes = v2Limit(path.join(d, 'memory.max'))
    s.swap_limit_bytes = v2Limit(path.join(d, 'memory.swap.max'), -1)
    const cpu = readKeyed(path.join(d, 'cpu.stat'))
    s.cpu_usage_ns = (cpu.usage_usec || 0) * 1000
    s.cpu_periods = cpu.nr_periods || 0
    s.cpu_throttled_periods = cpu.nr_throttled || 0
    s.cpu_throttled_ns = (cpu.throttled_usec || 0) * 1000
    s.memory_usage_bytes = readInt(path.join(d, 'memory.current'), 0)
    s.memory_peak_bytes = readInt(path.join(d, 'memory.peak'), 0) // kernel >= 5.19
    return s
  }
  // Docker mounts the container's own cgroup at each controller's root.
  const s = snapshot(1)
  const cpuDir = path.join(root, 'cpu')
  s.cpu_limit_cores = quotaCores(readInt(path.join(cpuDir, 'cpu.cfs_quota_us')), readInt(path.join(cpuDir, 'cpu.cfs_period_us')))
  const cpu = readKeyed(path.join(cpuDir, 'cpu.stat'))
  s.cpu_periods = cpu.nr_periods || 0
  s.cpu_throttled_periods = cpu.nr_throttled || 0
  s.cpu_throttled_ns = cpu.throttled_time || 0
  // cpuacct.usage is exact nanoseconds (the user/system split is tick based).
  s.cpu_usage_ns = readInt(path.join(root, 'cpuacct', 'cpuacct.usage'), 0)
  const mem = path.join(root, 'memory')
  s.memory_usage_bytes = readInt(path.join(mem, 'memory.usage_in_bytes'), 0)
  s.memory_peak_bytes = readInt(path.join(mem, 'memory.max_usage_in_bytes'), 0)
  s.memory_limit_bytes = unlimitedAsZero(readInt(path.join(mem, 'memory.limit_in_bytes'), 0))
  const memsw = readInt(path.join(mem, 'memory.memsw.limit_in_bytes'), 0)
  // memsw counts memory plus swap: the swap allowed is the difference.
  if (memsw > 0) s.swap_limit_bytes = unlimitedAsZero(memsw) - s.memory_limit_bytes
  return s
}

function tryCgroup (root) {
  try {
    return [readCgroup(root), '']
  } catch (err) {
    const s = {}
    for (const k of CGROUP_FIELDS) s[k] = 0
    return [s, err.message]
  }
}

// A full collection before each trial, so that one trial does not pay for the garbage
// of the one before: gc is exposed at run time, the entrypoint needs no flag.
let collect = null
function gc () {
  if (collect === null) {
    if (typeof globalThis.gc === 'function') {
      collect = globalThis.gc
    } else {
      v8.setFlagsFromString('--expose-gc')
      collect = vm.runInNewContext('gc')
    }
  }
  collect()
}

// One trial of way (kit/incontainer/linecost.Trial).
async function trial (cfg, way, name) {
  const file = FILE_WAYS.has(way) ? path.join(cfg.dir, name) : ''
  const inst = await newInstance(way, file, cfg)
  gc()
  const [before, errBefore] = tryCgroup(cfg.cgroupRoot)
  const sys0 = threadWriteSyscalls()

  const cpu0 = processCPUNanos()
  const t0 = process.hrtime.bigint()
  inst.run(cfg.lines)
  const t1 = process.hrtime.bigint()
  const cpu1 = processCPUNanos()

  const sys1 = threadWriteSyscalls()
  await inst.finish()
  const t2 = process.hrtime.bigint()
  const [after, errAfter] = tryCgroup(cfg.cgroupRoot)

  const f = inst.file
  const q = inst.queue
  return {
    trial: 0,
    lines: cfg.lines,
    thread_cpu_ns: cpu1 - cpu0,
    wall_ns: Number(t1 - t0),
    drain_wall_ns: Number(t2 - t1),
    cgroup_before: before,
    cgroup_after: after,
    cgroup_error: [errBefore, errAfter].filter(Boolean).join('; '),
    args_built: inst.user.built,
    thread_write_syscalls: sys0 >= 0 && sys1 >= 0 ? sys1 - sys0 : -1,
    write_calls: f ? f.writeCalls : 0,
    fsync_calls: f ? f.fsyncCalls : 0,
    written_bytes: f ? f.writtenBytes : 0,
    queue_full_waits: q ? q.waits : 0,
    lines_dropped: q ? q.dropped : 0,
    generated: way.startsWith('disabled-') ? nothing() : expected(cfg.lines),
    file_name: file ? name : '',
    file: file ? readBack(file) : noFile()
  }
}

// Measures cfg's ways; resolves to the document (kit/contract.LineCostDocument).
// Trials go round-robin over the ways; warm-ups are discarded with their files.
async function run (cfg) {
  const problems = cfg.problems()
  if (problems.length) throw new Error(problems.join('; '))
  const doc = {
    experiment: 'line-cost',
    language: 'node',
    runtime: `Node.js ${process.version} ${process.platform}/${process.arch}`,
    library: LIBRARY,
    line_format: LINE_FORMAT,
    started_unix_ns: unixNanos(),
    lines_per_trial: cfg.lines,
    trials: cfg.trials,
    warmup_trials: cfg.warmup,
    queue_size: cfg.queueSize,
    queue_full: cfg.queueFull,
    buffer_bytes: cfg.bufferBytes,
    flush_interval_ns: Math.round(cfg.flushIntervalMs * 1e6),
    timer: measureTimer(cfg.timerReads),
    fs: cfg.writesFiles()
      ? readFSFacts(cfg.mountinfo, cfg.dir)
      : { dir: cfg.dir, mount_point: '', fs_type: '', source: '', mount_options: '', super_options: '' },
    ways: cfg.ways.map((w) => ({ way: w, call: WAY_INFO[w][0], path: WAY_INFO[w][1], trials: [] }))
  }
  const two = (n) => String(n).padStart(2, '0')
  for (let rnd = 0; rnd < cfg.warmup + cfg.trials; rnd++) {
    for (let i = 0; i < cfg.ways.length; i++) {
      const w = cfg.ways[i]
      const warm = rnd < cfg.warmup
      const name = warm ? `linecost-node-${w}-warmup-${two(rnd)}.log` : `linecost-node-${w}-${two(rnd - cfg.warmup)}.log`
      const tr = await trial(cfg, w, name)
      if (warm) {
        if (tr.file_name) fs.unlinkSync(path.join(cfg.dir, tr.file_name))
        continue
      }
      tr.trial = rnd - cfg.warmup
      doc.ways[i].trials.push(tr)
    }
  }
  return doc
}

// The flags of cmd/incontainer/linecost, as Go's flag package takes them: -name value,
// -name=value, or with two dashes.
function parseArgs (argv) {
  const spec = { ways: 'string', lines: 'int', trials: 'int', warmup: 'int', dir: 'string', out: 'string', 'queue-size': 'int', 'queue-full': 'string' }
  const a = { ways: WAYS.join(','), lines: DEFAULT_LINES, trials: DEFAULT_TRIALS, warmup: DEFAULT_WARMUP, dir: '/run/logbench', out: '-', 'queue-size': DEFAULT_QUEUE_SIZE, 'queue-full': BLOCK }
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(argv[i])
    if (!m || !(m[1] in spec)) throw new UsageError(`unknown flag or argument '${argv[i]}'`)
    let v = m[2]
    if (v === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: -${m[1]}`)
      v = argv[++i]
    }
    if (spec[m[1]] === 'int') {
      if (!/^-?\d+$/.test(v)) throw new UsageError(`invalid value '${v}' for flag -${m[1]}: want an integer`)
      v = Number(v)
    }
    a[m[1]] = v
  }
  return a
}

class UsageError extends Error {}

// The command; resolves to its exit status (2: bad input, before anything starts).
async function main (argv, stderr = process.stderr) {
  let cfg
  try {
    const a = parseArgs(argv)
    cfg = new Config(a.dir, { ways: a.ways.split(','), lines: a.lines, trials: a.trials, warmup: a.warmup, queueSize: a['queue-size'], queueFull: a['queue-full'] })
    cfg.out = a.out
    const problems = cfg.problems()
    if (problems.length) throw new UsageError(problems.join('; '))
  } catch (err) {
    stderr.write(`linecost: ${err.message}\n`)
    return 2
  }
  try {
    const text = JSON.stringify(await run(cfg), null, 2) + '\n'
    if (cfg.out === '-') fs.writeSync(1, text)
    else fs.writeFileSync(cfg.out, text)
  } catch (err) {
    stderr.write(`linecost: ${String(err.message).replace(/\n/g, '; ')}\n`)
    return 1
  }
  return 0
}

module.exports = {
  WAYS, FILE_WAYS, MIN_LINES, LINE_FORMAT, LIBRARY, CGROUP_FIELDS, SLOT_BYTES, MESSAGE, ITEM_PATH, HTTP_STATUS,
  line, expected, nothing, noFile, readBack, newInstance, Config, trial, run, main, parseArgs,
  readFSFacts, readCgroup, measureTimer, QueueSink, CountingFile
}

if (!isMainThread && workerData && workerData.linecostQueue) {
  drainQueue(workerData)
} else if (isMainThread && require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code })
}
