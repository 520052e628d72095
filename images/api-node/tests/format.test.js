'use strict'
// The published line formats, on pinned examples.

const test = require('node:test')
const assert = require('node:assert')
const { api } = require('./helpers')

// 2023-04-08 04:05:06.789 UTC, the article's date.
const T = Date.UTC(2023, 3, 8, 4, 5, 6, 789)

test.afterEach(() => api.setClock())

test('time tokens in the zone of the clock', () => {
  const cases = [
    // offset (minutes east of UTC), :time-short, :time, file date
    [0, '04:05:06.789', '2023-04-08 04:05:06.789+00:00', '2023-04-08'],
    [480, '12:05:06.789', '2023-04-08 12:05:06.789+08:00', '2023-04-08'],
    [-330, '22:35:06.789', '2023-04-07 22:35:06.789-05:30', '2023-04-07'],
    [1200, '00:05:06.789', '2023-04-09 00:05:06.789+20:00', '2023-04-09']
  ]
  for (const [offset, short, long, day] of cases) {
    api.setClock(() => T, offset)
    assert.strictEqual(api.timeShort(T), short, `offset ${offset}`)
    assert.strictEqual(api.timeLong(T), long, `offset ${offset}`)
    assert.strictEqual(api.fileDate(T), day, `offset ${offset}`)
  }
})

test('time tokens pad every field', () => {
  api.setClock(null, 0)
  const t = Date.UTC(2024, 0, 2, 3, 4, 5, 6)
  assert.strictEqual(api.timeShort(t), '03:04:05.006')
  assert.strictEqual(api.timeLong(t), '2024-01-02 03:04:05.006+00:00')
})

// A request and response as morgan sees them after the response has been sent.
function exchange () {
  return {
    req: {
      method: 'GET',
      url: '/',
      originalUrl: '/',
      httpVersionMajor: 1,
      httpVersionMinor: 1,
      ip: '127.0.0.1',
      headers: {},
      _startAt: [100, 0]
    },
    res: { statusCode: 200, headersSent: true, _startAt: [100, 123456] }
  }
}

test('console and file lines, token for token', () => {
  api.setClock(() => T, 480)
  const { req, res } = exchange()
  const consoleLine = api.morgan.compile(api.CONSOLE_FORMAT)(api.morgan, req, res)
  const fileLine = api.morgan.compile(api.FILE_FORMAT)(api.morgan, req, res)
  assert.strictEqual(consoleLine, '[12:05:06.789] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms')
  assert.strictEqual(fileLine, '[2023-04-08 12:05:06.789+08:00] 127.0.0.1 - "GET / HTTP/1.1" 200 - 0.123 ms')
})

test('formats are the published ones', () => {
  assert.strictEqual(api.CONSOLE_FORMAT, '[:time-short] :remote-addr - ":method :url HTTP/:http-version" :status - :response-time ms')
  assert.strictEqual(api.FILE_FORMAT, '[:time] :remote-addr - ":method :url HTTP/:http-version" :status - :response-time ms')
})

test('flags, environment and defaults', () => {
  const d = api.parseArgs([], {})
  assert.deepStrictEqual(d, { config: 'console+file', 'log-dir': '/run/logbench/logs', host: '127.0.0.1', port: 8080, 'control-port': 9001 })
  assert.strictEqual(api.parseArgs([], { LOGBENCH_CONFIG: 'file' }).config, 'file')
  const a = api.parseArgs(['-config', 'none', '--log-dir=/tmp/x', '-port=0', '--control-port', '9'], { LOGBENCH_CONFIG: 'file' })
  assert.deepStrictEqual(a, { config: 'none', 'log-dir': '/tmp/x', host: '127.0.0.1', port: 0, 'control-port': 9 })
  assert.throws(() => api.parseArgs(['-config', 'syslog'], {}), /unknown configuration "syslog"/)
  assert.throws(() => api.parseArgs(['-verbose'], {}), /unknown argument/)
  assert.throws(() => api.parseArgs(['-port', 'x'], {}), /bad -port/)
  assert.throws(() => api.parseArgs(['-config'], {}), /needs a value/)
})
