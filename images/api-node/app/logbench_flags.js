'use strict'
// Flags as the kit's Go commands take them: -name value, -name=value, one or two
// dashes. Both of the API's command lines (the qps API's and the numbered one's) read
// theirs here.

// parseFlags sets each flag of argv over defaults; a name not in defaults, or a flag
// with no value, is an error (usage() says what the command takes).
function parseFlags (argv, defaults, usage) {
  const out = { ...defaults }
  for (let i = 0; i < argv.length; i++) {
    const m = /^--?([a-z-]+)(?:=(.*))?$/.exec(argv[i])
    if (!m || !(m[1] in defaults)) throw new Error(`unknown argument "${argv[i]}"\n${usage()}`)
    let value = m[2]
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new Error(`flag -${m[1]} needs a value`)
      value = argv[++i]
    }
    out[m[1]] = value
  }
  return out
}

module.exports = { parseFlags }
