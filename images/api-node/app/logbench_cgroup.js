'use strict'
// A snapshot of the process's own cgroup (kit/contract/contract.go's CgroupSnapshot):
// the CPU and memory limits in force and the CPU, throttling and memory counters, read
// as images/api-python/app/logbench_cgroup.py and the Go side (kit/incontainer/cgroupstat)
// read them. Shared by the line-cost program and the numbered API.

const fs = require('fs')
const path = require('path')

const CGROUP_FIELDS = ['unix_ns', 'cgroup_version', 'cpu_limit_cores', 'memory_limit_bytes',
  'swap_limit_bytes', 'cpu_usage_ns', 'cpu_periods', 'cpu_throttled_periods',
  'cpu_throttled_ns', 'memory_usage_bytes', 'memory_peak_bytes']

// The wall clock in nanoseconds since the Unix epoch, as a Number: exact to a quarter of
// a microsecond at today's dates (a double's 53 bits).
function unixNanos () {
  return Math.round((performance.timeOrigin + performance.now()) * 1e6)
}

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

module.exports = { CGROUP_FIELDS, readCgroup, unixNanos }
