package referee

import (
	"time"

	"github.com/arenaref/arena/internal/loadmeter"
)

// Load is how overloaded the referee's machine was during a span of time: Late is the
// largest delay the referee's own timers, goroutines and threads met, Steal the largest
// share of CPU time the hypervisor took (see package loadmeter).
type Load = loadmeter.Load

// LoadMeter measures the referee's own lateness. A reply that came late by no more than
// the referee itself was late then is not the player's fault (see Config.Load).
type LoadMeter interface {
	// Load returns the load between from and to, times of the referee's Clock.
	Load(from, to time.Time) Load
}

// LoadMeterFunc adapts a function to a LoadMeter.
type LoadMeterFunc func(from, to time.Time) Load

// Load returns f(from, to).
func (f LoadMeterFunc) Load(from, to time.Time) Load { return f(from, to) }

// QuietLoad is a LoadMeter that always reports a quiet machine: every late reply is the
// player's fault, as before the referee measured itself.
var QuietLoad LoadMeter = LoadMeterFunc(func(time.Time, time.Time) Load { return Load{} })

// SystemLoad returns the process's meter of its own lateness on the wall clock
// (loadmeter.System). It measures while games are played.
func SystemLoad() LoadMeter { return loadmeter.System() }

// acquirer is a LoadMeter that measures only while held.
type acquirer interface {
	Acquire() (release func())
}
