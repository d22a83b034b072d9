package engine

// TakeStale returns what d, a line dialect, read away inside Move since the last call.
func TakeStale(d Dialect) Stale { return d.(*lineDialect).takeStale() }

// Expected is the line dialect's expected: whether the fence takes line as the answer owed
// after a stray line.
func Expected(d Dialect, line string) bool { return d.(*lineDialect).expected(line) }
