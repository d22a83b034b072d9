package engine

// TakeStale returns what d, a line dialect, read away inside Move since the last call.
func TakeStale(d Dialect) Stale { return d.(*lineDialect).takeStale() }
