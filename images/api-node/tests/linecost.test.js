'use strict'
// The line-cost program: each way's bytes and calls, counted; the document against the
// Go structs it must match (kit/contract/linecost.go).

const test = require('node:test')
const assert = require('node:assert')
const crypto = require('crypto')
const fs = require('fs')
const os = require('os')
const path = require('path')

const lc = require('../app/logbench_linecost.js')

const REPO = path.join(__dirname, '..', '..', '..')
const DOC_GO = 'kit/contract/linecost.go'
const LINES = lc.MIN_LINES
// Lines 0..999 as every program writes them; the Go and Python tests hold the same digest.
const EXPECTED_1000 = { bytes: 67890, lines: 1000, sha256: '24b1b20f6d1ca0ff7a562695f8f2f57c783964868b21742f4b324390603272b4' }
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'

function tempDir (t) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'linecost-'))
  t.after(() => fs.rmSync(d, { recursive: true, force: true }))
  return d
}

function config (dir, opts = {}) {
  // No periodic flush inside a trial unless a test asks; few timer reads.
  return new lc.Config(dir, { lines: LINES, flushIntervalMs: 3600e3, timerReads: 1000, lineShape: 'text-notime', ...opts })
}

// The json names of a Go struct's fields, read from the kit's source; null when the
// kit's source is not beside these tests (in the image).
function goJsonTags (file, struct) {
  const p = path.join(REPO, file)
  if (!fs.existsSync(p)) return null
  const m = new RegExp(`type ${struct} struct \\{([\\s\\S]*?)\\n\\}`).exec(fs.readFileSync(p, 'utf8'))
  assert.ok(m, `no struct ${struct} in ${file}`)
  return [...m[1].matchAll(/json:"([^",]*)/g)].map((x) => x[1]).filter((n) => n !== '-')
}

test('the line and its digests', () => {
  assert.strictEqual(lc.line(42), 'level=INFO msg=served seq=42 user=alice path=/api/items status=200\n')
  assert.strictEqual(lc.LINE_FORMAT.replace('{seq}', '42') + '\n', lc.line(42))
  assert.deepStrictEqual(lc.expected(1000), EXPECTED_1000)
  const whole = Array.from({ length: 3000 }, (_, i) => lc.line(i)).join('') // crosses expected()'s chunks
  assert.strictEqual(lc.expected(3000).sha256, crypto.createHash('sha256').update(whole).digest('hex'))
  assert.deepStrictEqual(lc.nothing(), { bytes: 0, lines: 0, sha256: EMPTY_SHA256 })
})

test('format formats the line and writes nothing', async () => {
  const sink = []
  const inst = await lc.newInstance('format', '', { sink })
  inst.run(LINES)
  await inst.finish()
  assert.strictEqual(sink.join(''), Array.from({ length: LINES }, (_, i) => lc.line(i)).join(''))
  assert.strictEqual(inst.user.built, LINES)
  assert.strictEqual(inst.file, null)
})

test('disabled ways: eager builds every line, lazy builds nothing', async (t) => {
  const dir = tempDir(t)
  const cfg = config(dir)
  for (const [way, built] of [['disabled-eager', LINES], ['disabled-lazy', 0]]) {
    const tr = await lc.trial(cfg, way, `linecost-test-${way}.log`)
    assert.strictEqual(tr.args_built, built, way)
    assert.deepStrictEqual(tr.generated, lc.nothing(), way)
    assert.deepStrictEqual([tr.file_name, tr.file, tr.write_calls], ['', lc.noFile(), 0], way)
    assert.ok(tr.thread_write_syscalls <= 0, way)
  }
  assert.deepStrictEqual(fs.readdirSync(dir), [])
})

function checkWritten (tr) {
  const want = lc.expected(LINES)
  assert.deepStrictEqual(tr.generated, want)
  assert.deepStrictEqual(tr.file, want)
  assert.strictEqual(tr.written_bytes, want.bytes)
  assert.strictEqual(tr.args_built, LINES)
  assert.strictEqual(tr.lines_dropped, 0)
  assert.ok(tr.thread_cpu_ns > 0, 'the CPU clock advanced')
  assert.ok(tr.wall_ns > 0)
}

test('unbuffered writes each line with one write', async (t) => {
  const tr = await lc.trial(config(tempDir(t)), 'unbuffered', 'u.log')
  checkWritten(tr)
  assert.deepStrictEqual([tr.write_calls, tr.fsync_calls], [LINES, 0])
  if (tr.thread_write_syscalls >= 0) assert.strictEqual(tr.thread_write_syscalls, LINES)
})

test('fsync syncs each line', async (t) => {
  const real = fs.fsyncSync
  let calls = 0
  fs.fsyncSync = (fd) => { calls++; return real(fd) }
  let tr
  try {
    tr = await lc.trial(config(tempDir(t)), 'fsync', 'f.log')
  } finally {
    fs.fsyncSync = real
  }
  checkWritten(tr)
  assert.strictEqual(calls, LINES)
  assert.deepStrictEqual([tr.write_calls, tr.fsync_calls], [LINES, LINES])
  if (tr.thread_write_syscalls >= 0) assert.strictEqual(tr.thread_write_syscalls, LINES)
})

test('buffered writes a buffer at a time, on the caller', async (t) => {
  const cfg = config(tempDir(t))
  const tr = await lc.trial(cfg, 'buffered', 'b.log')
  checkWritten(tr)
  // Writes of nearly 4 KiB each: at least bytes/4096 of them, and no more than if each
  // fell a line short of the buffer, plus the final flush.
  const size = cfg.bufferBytes
  const longest = Buffer.byteLength(lc.line(LINES - 1))
  assert.ok(tr.write_calls >= Math.floor(tr.written_bytes / size), `${tr.write_calls} writes`)
  assert.ok(tr.write_calls <= Math.floor(tr.written_bytes / (size - longest)) + 1, `${tr.write_calls} writes`)
  assert.strictEqual(tr.fsync_calls, 0)
  // All on the caller while it runs, but the last flush, made when the trial closes.
  if (tr.thread_write_syscalls >= 0) assert.strictEqual(tr.thread_write_syscalls, tr.write_calls - 1)
})

test('buffered flushes every interval on the event loop', async (t) => {
  const file = path.join(tempDir(t), 'periodic.log')
  const inst = await lc.newInstance('buffered', file, { flushIntervalMs: 20 })
  try {
    inst.run(3)
    assert.strictEqual(inst.file.writeCalls, 0) // the timer cannot run during the calls
    const want = lc.expected(3)
    const deadline = Date.now() + 5000
    while (JSON.stringify(lc.readBack(file)) !== JSON.stringify(want)) {
      assert.ok(Date.now() < deadline, 'the lines did not reach the file')
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    assert.strictEqual(inst.file.writeCalls, 1)
  } finally {
    await inst.finish()
  }
})

test('queue hands each line to the writer thread', async (t) => {
  const tr = await lc.trial(config(tempDir(t)), 'queue', 'q.log')
  checkWritten(tr)
  // The worker writes, one write a line; the caller writes nothing.
  assert.strictEqual(tr.write_calls, LINES)
  assert.strictEqual(tr.fsync_calls, 0)
  if (tr.thread_write_syscalls >= 0) assert.strictEqual(tr.thread_write_syscalls, 0)
})

function lines (n) { return Array.from({ length: n }, (_, i) => lc.line(i)).join('') }

test('a full queue drops, counted, and keeps the first lines in order', async (t) => {
  const file = path.join(tempDir(t), 'drop.log')
  // The writer is held back 300 ms: the ring of 2 fills, and the other 8 lines drop.
  const inst = await lc.newInstance('queue', file, { queueSize: 2, queueFull: 'drop', holdMs: 300 })
  inst.run(10)
  await inst.finish()
  assert.deepStrictEqual([inst.queue.dropped, inst.queue.waits], [8, 0])
  assert.strictEqual(fs.readFileSync(file, 'utf8'), lines(2))
  assert.strictEqual(inst.file.writeCalls, 2)
})

test('a full queue blocks the caller, counted, and loses nothing', async (t) => {
  const file = path.join(tempDir(t), 'block.log')
  const inst = await lc.newInstance('queue', file, { queueSize: 2, queueFull: 'block', holdMs: 50 })
  const t0 = Date.now()
  inst.run(10)
  const waited = Date.now() - t0
  await inst.finish()
  assert.strictEqual(inst.queue.dropped, 0)
  assert.ok(inst.queue.waits >= 1, `${inst.queue.waits} waits`)
  assert.ok(waited >= 40, `the caller returned after ${waited} ms, before the writer started`)
  assert.strictEqual(fs.readFileSync(file, 'utf8'), lines(10))
  assert.strictEqual(inst.file.writeCalls, 10)
})

test('the document: trial arithmetic, and the Go structs field for field', async (t) => {
  const dir = tempDir(t)
  const doc = await lc.run(config(dir, { ways: ['format', 'unbuffered'], trials: 2, warmup: 1 }))
  assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['linecost-node-unbuffered-00.log', 'linecost-node-unbuffered-01.log'])
  assert.deepStrictEqual([doc.experiment, doc.language], ['line-cost', 'node'])
  assert.match(doc.library, /process\.cpuUsage\(\), the whole process/)
  assert.match(doc.runtime, /^Node\.js v\d+\./)
  assert.deepStrictEqual([doc.lines_per_trial, doc.trials, doc.warmup_trials], [LINES, 2, 1])
  assert.strictEqual(doc.line_format, 'level=INFO msg=served seq={seq} user=alice path=/api/items status=200')
  assert.strictEqual(doc.timer.reads, 1000)
  assert.ok(doc.timer.monotonic_ns_per_read > 0 && doc.timer.thread_cpu_ns_per_read > 0)
  assert.deepStrictEqual([doc.timer.monotonic_resolution_ns, doc.timer.thread_cpu_resolution_ns], [1, 1000])
  assert.ok(doc.fs.fs_type && doc.fs.mount_point)
  assert.deepStrictEqual(doc.ways.map((w) => w.way), ['format', 'unbuffered'])
  for (const w of doc.ways) {
    assert.deepStrictEqual(w.trials.map((tr) => tr.trial), [0, 1])
    for (const tr of w.trials) {
      assert.strictEqual(tr.lines, LINES)
      for (const [k, v] of Object.entries(tr)) {
        if (typeof v === 'number') assert.ok(Number.isSafeInteger(v), `${k} ${v} is not an integer`)
      }
    }
  }
  // Every integer of the Go structs is one here; the JSON round-trips as Go reads it.
  assert.deepStrictEqual(JSON.parse(JSON.stringify(doc)), doc)

  const tags = (s) => goJsonTags(DOC_GO, s)
  if (tags('LineCostDocument') === null) {
    t.diagnostic('the kit\'s Go source is not beside these tests: shape unchecked')
    return
  }
  assert.deepStrictEqual(Object.keys(doc), tags('LineCostDocument'))
  assert.deepStrictEqual(Object.keys(doc.timer), tags('LineCostTimer'))
  assert.deepStrictEqual(Object.keys(doc.fs), tags('LineCostFS'))
  const counts = goJsonTags('kit/contract/contract.go', 'Counts')
  const snapshot = goJsonTags('kit/contract/contract.go', 'CgroupSnapshot').sort()
  assert.deepStrictEqual([...lc.CGROUP_FIELDS].sort(), snapshot)
  for (const w of doc.ways) {
    assert.deepStrictEqual(Object.keys(w), tags('LineCostWay'))
    for (const tr of w.trials) {
      assert.deepStrictEqual(Object.keys(tr), tags('LineCostTrial'))
      assert.deepStrictEqual(Object.keys(tr.generated), counts)
      assert.deepStrictEqual(Object.keys(tr.file), counts)
      if (!tr.cgroup_error) {
        assert.deepStrictEqual(Object.keys(tr.cgroup_before).sort(), snapshot)
        assert.deepStrictEqual(Object.keys(tr.cgroup_after).sort(), snapshot)
      }
    }
  }
  assert.deepStrictEqual(lc.WAYS, ['format', 'disabled-eager', 'disabled-lazy', 'buffered', 'unbuffered', 'fsync', 'queue'])
})

test('the command writes the document', async (t) => {
  const dir = tempDir(t)
  const out = path.join(dir, 'doc.json')
  const code = await lc.main(['-ways', 'format,disabled-lazy', '-lines', String(LINES), '-trials', '1', '-warmup=0', '--dir', dir, '-out', out])
  assert.strictEqual(code, 0)
  const doc = JSON.parse(fs.readFileSync(out, 'utf8'))
  assert.deepStrictEqual(doc.ways.map((w) => w.trials.length), [1, 1])
  assert.strictEqual(doc.fs.fs_type, '') // no way wrote a file
})

test('bad input: one line, status 2, nothing written', async (t) => {
  const dir = tempDir(t)
  const cases = [
    [['-lines', '999'], 'below the minimum of 1000'],
    [['-ways', 'syslog'], "unknown way 'syslog'"],
    [['-ways', 'fsync,fsync'], 'given twice'],
    [['-queue-full', 'wait'], 'queue-full policy'],
    [['-trials', '0'], 'trials must be at least 1'],
    [['-lines', 'many'], 'want an integer'],
    [['-colour', 'red'], 'unknown flag'],
    [['-dir', path.join(dir, 'missing')], 'not a directory']
  ]
  for (const [argv, want] of cases) {
    let err = ''
    const code = await lc.main(argv.includes('-dir') ? argv : [...argv, '-dir', dir], { write: (s) => { err += s } })
    assert.strictEqual(code, 2, argv.join(' '))
    assert.ok(err.includes(want), `${argv.join(' ')}: ${err}`)
    assert.strictEqual(err.split('\n').length - 1, 1, argv.join(' '))
  }
  assert.deepStrictEqual(fs.readdirSync(dir), [])
  await assert.rejects(lc.run(new lc.Config('/nonexistent', { lines: 10 })), /minimum/)
})

test('the file system from mountinfo', (t) => {
  const mi = path.join(tempDir(t), 'mountinfo')
  fs.writeFileSync(mi,
    '21 1 0:20 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w\n' +
    '30 21 8:1 /volumes/run/_data /run/logbench rw,nosuid,nodev,noexec,relatime master:1 - ext4 /dev/sda1 rw,errors=remount-ro\n' +
    '31 21 0:30 / /run/logbench\\040old rw shared:2 - tmpfs tmpfs rw,size=1024k\n' +
    '32 30 0:31 / /run/logbench/sub rw - tmpfs tmpfs rw\n' +
    '33 21 8:1 / /run/logbench rw,relatime - xfs /dev/sdb rw,attr2\n')
  for (const [dir, mount, fsType, opts] of [
    ['/run/logbench', '/run/logbench', 'xfs', 'rw,relatime'],
    ['/run/logbench/x/y', '/run/logbench', 'xfs', 'rw,relatime'],
    ['/run/logbench/sub', '/run/logbench/sub', 'tmpfs', 'rw'],
    ['/run/logbench old', '/run/logbench old', 'tmpfs', 'rw'],
    ['/run/logbenchx', '/', 'overlay', 'rw,relatime']
  ]) {
    const f = lc.readFSFacts(mi, dir)
    assert.deepStrictEqual([f.dir, f.mount_point, f.fs_type, f.mount_options], [dir, mount, fsType, opts])
  }
  const f = lc.readFSFacts(mi, '/run/logbench/sub')
  assert.deepStrictEqual([f.source, f.super_options], ['tmpfs', 'rw'])
  assert.throws(() => lc.readFSFacts(path.join(path.dirname(mi), 'none'), '/'), { code: 'ENOENT' })
})

test('the cgroup, v1 and v2, as the Go reader reads it', (t) => {
  const root = tempDir(t)
  const put = (p, s) => { fs.mkdirSync(path.dirname(path.join(root, p)), { recursive: true }); fs.writeFileSync(path.join(root, p), s) }
  put('cpu/cpu.cfs_quota_us', '25000\n')
  put('cpu/cpu.cfs_period_us', '100000\n')
  put('cpu/cpu.stat', 'nr_periods 10\nnr_throttled 3\nthrottled_time 4500\n')
  put('cpuacct/cpuacct.usage', '123456789\n')
  put('memory/memory.usage_in_bytes', '1000\n')
  put('memory/memory.max_usage_in_bytes', '2000\n')
  put('memory/memory.limit_in_bytes', '134217728\n')
  put('memory/memory.memsw.limit_in_bytes', '134217728\n')
  const v1 = lc.readCgroup(root)
  assert.deepStrictEqual({ ...v1, unix_ns: 0 }, {
    unix_ns: 0, cgroup_version: 1, cpu_limit_cores: 0.25, memory_limit_bytes: 134217728, swap_limit_bytes: 0, cpu_usage_ns: 123456789,
    cpu_periods: 10, cpu_throttled_periods: 3, cpu_throttled_ns: 4500, memory_usage_bytes: 1000, memory_peak_bytes: 2000
  })
  assert.ok(v1.unix_ns > 1.6e18)

  const root2 = tempDir(t)
  const put2 = (p, s) => fs.writeFileSync(path.join(root2, p), s)
  put2('cgroup.controllers', 'cpu memory\n')
  put2('cpu.max', 'max 100000\n')
  put2('memory.max', 'max\n')
  put2('cpu.stat', 'usage_usec 7\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n')
  put2('memory.current', '42\n')
  const procCgroup = path.join(root2, 'proc-cgroup')
  put2('proc-cgroup', '0::/\n')
  const v2 = lc.readCgroup(root2, procCgroup)
  assert.deepStrictEqual([v2.cgroup_version, v2.cpu_limit_cores, v2.memory_limit_bytes, v2.swap_limit_bytes, v2.cpu_usage_ns, v2.memory_usage_bytes],
    [2, 0, 0, -1, 7000, 42])
})

// --- libraries: the plain logger with its time stamp, and winston (Debian's
// node-winston, in the Node base) -------------------------------------------------

// The templates the Go registry holds (kit/incontainer/linecost/libraries.go), read from
// its source: the host regenerates every line from those, so these must be the same.
function goTemplates () {
  const src = fs.readFileSync(path.join(REPO, 'kit/incontainer/linecost/libraries.go'), 'utf8')
  const consts = { textFields: lc.TEXT_FIELDS, jsonFields: '"seq":{seq},"user":"alice","path":"/api/items","status":200' }
  const names = { Text: 'text', TextNoTime: 'text-notime', JSON: 'json', JSONNoTime: 'json-notime' }
  const out = {}
  for (const lib of src.matchAll(/\{ID: "(\w+)", Language: "(\w+)"[\s\S]*?\n\t\}/g)) {
    for (const m of lib[0].matchAll(/Line(\w+):\s+(.+),\n/g)) {
      let v = ''
      for (const part of m[2].match(/"(?:[^"\\]|\\.)*"|`[^`]*`|\w+/g)) {
        if (part[0] === '`') v += part.slice(1, -1)
        else if (part[0] === '"') v += JSON.parse(part)
        else v += consts[part]
      }
      out[lib[1]] = out[lib[1]] || {}
      out[lib[1]][names[m[1]]] = v
    }
  }
  return out
}

function hasWinston () {
  // Debian's node searches /usr/share/nodejs for Debian's packages; another node is
  // told to (as helpers.js does for Express).
  const Module = require('module')
  const parts = (process.env.NODE_PATH || '').split(path.delimiter).filter(Boolean)
  if (!parts.includes('/usr/share/nodejs')) {
    process.env.NODE_PATH = [...parts, '/usr/share/nodejs'].join(path.delimiter)
    Module._initPaths()
  }
  try {
    require.resolve('winston')
    return true
  } catch {
    return false
  }
}

test('the libraries write the Go registry\'s templates', () => {
  const go = goTemplates()
  for (const [id, lib] of Object.entries(lc.LIBRARIES)) assert.deepStrictEqual(lib.lines, go[id], id)
  const mask = lc.masker('time={time} level=INFO seq={seq}')
  assert.strictEqual(mask('time=2026-12-01T16:05:43.504Z level=INFO seq=7'), 'time={time} level=INFO seq=7')
  assert.strictEqual(mask('time=later level=INFO seq=7'), 'time=later level=INFO seq=7')
  assert.strictEqual(lc.masker('level=INFO seq={seq}'), null)
})

async function checkLibrary (t, library, lineShape) {
  const template = lc.templateOf(library, lineShape)
  const want = lc.expectedOf(template, LINES)
  const sink = []
  const inst = await lc.newInstance('format', '', { sink, library, lineShape })
  inst.run(LINES)
  await inst.finish()
  const mask = lc.masker(template) || ((r) => r)
  assert.strictEqual(mask(sink[0].replace(/\n$/, '')) + '\n', lc.render(template, 0), `${library} ${lineShape}: ${sink[0]}`)
  assert.strictEqual(inst.user.built, LINES)
  const cfg = config(tempDir(t), { library, lineShape })
  for (const way of ['buffered', 'unbuffered', 'fsync', 'queue']) {
    const tr = await lc.trial(cfg, way, `${library}-${way}.log`)
    assert.deepStrictEqual(tr.file, want, `${library} ${lineShape} ${way}`)
    assert.deepStrictEqual(tr.generated, want)
    assert.strictEqual(tr.file_raw.bytes, tr.written_bytes)
    assert.strictEqual(template.includes('{time}'), tr.file_raw.sha256 !== tr.file.sha256)
    if (way === 'unbuffered' || way === 'queue') assert.strictEqual(tr.write_calls, LINES, way)
    if (way === 'fsync') assert.strictEqual(tr.fsync_calls, LINES)
    if (way === 'buffered') assert.ok(tr.write_calls * 10 <= LINES)
  }
  for (const [way, built] of [['disabled-lazy', 0], ['disabled-eager', LINES]]) {
    const tr = await lc.trial(cfg, way, 'x.log')
    assert.deepStrictEqual([tr.args_built, tr.file_name, tr.generated], [built, '', lc.nothing()], way)
  }
}

test('the plain logger with its time stamp', async (t) => { await checkLibrary(t, 'util', 'default') })

test('winston, every shape', { skip: !hasWinston() && 'no winston (Debian\'s node-winston)' }, async (t) => {
  for (const shape of ['default', 'text', 'text-notime', 'json-notime']) await checkLibrary(t, 'winston', shape)
})

test('a shape a library has no encoder for is not offered', async () => {
  assert.match(new lc.Config('/tmp', { ways: ['format'], library: 'util', lineShape: 'json' }).problems().join(' '), /not offered/)
  await assert.rejects(lc.newInstance('format', '', { library: 'util', lineShape: 'json' }), /not offered/)
})
