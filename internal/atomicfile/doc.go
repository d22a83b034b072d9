// Package atomicfile writes a file so that a reader finds the old file or the new one,
// whole, never half of one: weights files, checkpoints, opening sets and charts that a
// tournament or a later run reads, and that an interrupted run must not leave cut short.
package atomicfile
