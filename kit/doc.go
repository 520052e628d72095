// Package kit is logbench's library. Its folders say where each package's code runs:
//
//   - contract: the JSON documents that cross the container boundary, and the rules
//     both sides apply (the percentile rule, what counts as an error). Standard library
//     only.
//   - incontainer: the programs inside a run's containers (the Go API, the FIFO reader,
//     the load generators and the conductor, cgroup and host readings).
//   - host: drives a Docker Engine from the kit's machine (images, pods, runs, matrices,
//     calibration).
//   - offline: works on bundles alone (schema, derivation, verify, archive, compare,
//     report); never links the engine's client.
//   - experiments: one package per published experiment, the plug-ins that the host and
//     offline packages serve; experiment is the type they implement.
//
// layout_test.go enforces the rules between them.
package kit
