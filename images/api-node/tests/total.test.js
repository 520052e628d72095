'use strict'
// A sink's totals cover the whole process (warm-up included), its counters only the
// lines since the last reset: the engine's log stream holds every line ever written.

const test = require('node:test')
const assert = require('node:assert')
const crypto = require('crypto')
const { api } = require('./helpers')

test('totals survive a reset, counters start again', () => {
  const written = []
  const sink = new api.CountingSink('console', { write: (b) => written.push(Buffer.from(b)), on: () => {} })
  sink.write('warm-up line\n')
  sink.reset()
  sink.write('measured line\n')
  sink.write('another\n')
  const s = sink.snapshot()
  const sha = (text) => crypto.createHash('sha256').update(text).digest('hex')
  assert.strictEqual(s.lines, 2)
  assert.strictEqual(s.bytes, 'measured line\nanother\n'.length)
  assert.strictEqual(s.sha256, sha('measured line\nanother\n'))
  const all = 'warm-up line\nmeasured line\nanother\n'
  assert.deepStrictEqual(s.total, { lines: 3, bytes: all.length, sha256: sha(all) })
  assert.strictEqual(Buffer.concat(written).toString(), all)
})
