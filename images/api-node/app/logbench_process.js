'use strict'
// What an API reports of its own process: its privileges and limits as the kernel sees
// them (kit/contract/contract.go's ProcessFacts), read once: they do not change while
// the process runs. Shared by the qps API (logbench_api.js) and the numbered one
// (logbench_numbered.js).

const fs = require('fs')

// The process's privileges as the kernel sees them (kit/incontainer/procinfo.Facts),
// read once: they do not change while the process runs.
function readProcess (statusPath = '/proc/self/status', mountinfoPath = '/proc/self/mountinfo') {
  const f = {
    present: true,
    uid: process.getuid ? process.getuid() : 0,
    gid: process.getgid ? process.getgid() : 0,
    cap_effective: 0,
    no_new_privs: false,
    root_read_only: false
  }
  try {
    for (const line of fs.readFileSync(statusPath, 'utf8').split('\n')) {
      const [key, value] = line.split(':')
      if (key === 'CapEff') f.cap_effective = Number(BigInt('0x' + value.trim()))
      else if (key === 'NoNewPrivs') f.no_new_privs = value.trim() === '1'
    }
  } catch (e) {} // what cannot be read stays at its zero value
  try {
    // Field 5 is the mount point, field 6 the per-mount options; the last mount on /
    // is the one in effect.
    for (const line of fs.readFileSync(mountinfoPath, 'utf8').split('\n')) {
      const fields = line.split(' ')
      if (fields[4] === '/') f.root_read_only = fields[5].split(',').includes('ro')
    }
  } catch (e) {}
  f.limits = readLimits()
  return f
}

// The process's nofile and nproc limits and its cgroup's pids.max
// (kit/contract/limits.go's Rlimits): -1 unlimited, 0 not read.
function readLimits (limitsPath = '/proc/self/limits', cgroupRoot = '/sys/fs/cgroup') {
  const lim = { nofile_soft: 0, nofile_hard: 0, nproc_soft: 0, nproc_hard: 0, pids_max: 0 }
  const value = (s) => (s === 'unlimited' || s === 'max') ? -1 : Number(s)
  const names = { 'Max open files': 'nofile', 'Max processes': 'nproc' }
  try {
    for (const line of fs.readFileSync(limitsPath, 'utf8').split('\n')) {
      for (const [name, key] of Object.entries(names)) {
        if (!line.startsWith(name)) continue
        const [soft, hard] = line.slice(name.length).trim().split(/\s+/)
        lim[key + '_soft'] = value(soft)
        lim[key + '_hard'] = value(hard)
      }
    }
  } catch (e) {}
  for (const p of [cgroupRoot + '/pids/pids.max', cgroupRoot + '/pids.max']) {
    try {
      lim.pids_max = value(fs.readFileSync(p, 'utf8').trim())
      break
    } catch (e) {}
  }
  return lim
}

module.exports = { readProcess, readLimits }
