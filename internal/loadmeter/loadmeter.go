package loadmeter

import (
	"bufio"
	"bytes"
	"os"
	"runtime/metrics"
	"strconv"
	"sync"
	"time"
)

// Load is how overloaded the machine was during a span of time, as this process saw it.
type Load struct {
	// Late is the largest delay the process's own timers and goroutines met: how late a
	// timer fired, or how long a goroutine that could run waited for a thread.
	Late time.Duration
	// Wait is how long, in all, the process's threads waited for a core while the process
	// was busy (threads waited at least half of a reading's 20ms): what a computation of
	// the process, such as a built-in player's search, lost to the machine. An idle
	// process's wake-ups (its timers') do not count.
	Wait time.Duration
	// Steal is the largest share of the machine's CPU time that its hypervisor gave to
	// others over a second (0 to 1), where /proc/stat counts it; 0 elsewhere.
	Steal float64
}

// System returns the process's meter. It measures only while someone holds it (Acquire),
// so an idle process pays nothing.
func System() *Meter { return sysLoad }

// Watch starts the process's meter for a timed check in a test and returns a function
// that stops it and returns the load since Watch, the stall at its end included (it waits
// for the meter's next sample, up to a second). A test that checks a wall-clock duration
// allows the check this much more: end-to-end timing checks measure lateness and tolerate
// load.
func Watch() (stop func() Load) {
	m := System()
	release := m.Acquire()
	from := time.Now()
	return func() Load {
		defer release()
		to := time.Now()
		for wait := time.Now().Add(time.Second); time.Now().Before(wait) && !m.sampledAfter(to); {
			time.Sleep(loadTick)
		}
		return m.Load(from, to)
	}
}

// Sampling of the system meter.
const (
	// loadTick is the period of the timer whose lateness is measured: short enough to
	// see a stall of a few milliseconds, long enough to cost nothing (100 wake-ups a
	// second).
	loadTick = 10 * time.Millisecond
	// waitEvery is how many ticks pass between two readings of the threads' run-queue
	// waits, schedEvery between two readings of the Go scheduler's latencies, and
	// stealEvery between two readings of /proc/stat.
	waitEvery  = 2
	schedEvery = 10
	stealEvery = 100
	// loadSamples is how many samples are kept: 8192 ticks, over 80 seconds, longer than
	// the turns whose lateness is asked for (a longer turn is judged on the samples kept).
	loadSamples = 1 << 13
)

var sysLoad = &Meter{}

// Meter is the process's lateness meter: a timer that measures how late it fires,
// the Go scheduler's latencies (runtime/metrics /sched/latencies:seconds: how long
// runnable goroutines waited for a thread, all of the process's goroutines included), how long the process's threads waited on the kernel's run queues
// (/proc/self/task/*/schedstat: a thread that computes, such as a built-in player's
// search, or a reply on its way through the process, is held back by a busy machine
// although the timer, which mostly sleeps, is woken in time), and the CPU steal of
// /proc/stat. On a quiet machine all of them stay at a millisecond or less.
type Meter struct {
	mu    sync.Mutex
	users int
	quit  chan struct{}
	ring  [loadSamples]loadSample
	n     int // samples written in all
}

// loadSample is the load seen during the loadTick before at.
type loadSample struct {
	at    time.Time
	late  time.Duration
	wait  time.Duration // how long the threads waited for a core since the last reading
	steal float64
}

// Acquire starts the meter, unless it runs already, until every Acquire's release has
// been called.
func (m *Meter) Acquire() (release func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users++
	if m.users == 1 {
		m.quit = make(chan struct{})
		go m.run(m.quit)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			if m.users--; m.users == 0 {
				close(m.quit)
			}
		})
	}
}

func (m *Meter) run(quit <-chan struct{}) {
	timer := time.NewTimer(loadTick)
	defer timer.Stop()
	sched := newSchedReader()
	var waits waitReader
	waits.read()
	var steal stealReader
	stealNow := steal.read()
	for i := 1; ; i++ {
		due := time.Now().Add(loadTick)
		timer.Reset(loadTick)
		select {
		case <-quit:
			return
		case now := <-timer.C:
			late := max(time.Since(due), now.Sub(due), 0)
			var wait time.Duration
			if i%waitEvery == 0 {
				if w, span := waits.read(); w >= span/2 {
					wait = w
				}
			}
			if i%schedEvery == 0 {
				late = max(late, sched.read())
			}
			if i%stealEvery == 0 {
				stealNow = steal.read()
			}
			m.add(loadSample{at: time.Now(), late: late, wait: wait, steal: stealNow})
		}
	}
}

func (m *Meter) add(s loadSample) {
	m.mu.Lock()
	m.ring[m.n%loadSamples] = s
	m.n++
	m.mu.Unlock()
}

// sampledAfter reports whether the meter has a sample after t.
func (m *Meter) sampledAfter(t time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n > 0 && m.ring[(m.n-1)%loadSamples].at.After(t)
}

// Load returns the largest lateness and steal of the samples that cover from to to, and
// their threads' waits added up: a sample covers the ticks before it, and the first one
// after to is taken too, since a stall at the end of the span shows only in the next
// sample, however late it comes.
func (m *Meter) Load(from, to time.Time) Load {
	m.mu.Lock()
	defer m.mu.Unlock()
	return loadOf(m.ring[:], m.n, from, to)
}

// loadOf is the load of the samples of ring (n written in all, the newest at (n-1)%len)
// that cover from to to.
func loadOf(ring []loadSample, n int, from, to time.Time) Load {
	var l Load
	take := func(s loadSample) {
		l.Late = max(l.Late, s.late)
		l.Steal = max(l.Steal, s.steal)
		l.Wait += s.wait
	}
	var next *loadSample // the first sample after to
samples:
	for i := n - 1; i >= max(n-len(ring), 0); i-- {
		s := &ring[i%len(ring)]
		switch {
		case s.at.After(to):
			next = s
		case s.at.Before(from):
			break samples // older samples cover nothing of the span
		default:
			take(*s)
		}
	}
	if next != nil {
		take(*next)
	}
	return l
}

// schedReader reads the growth of the Go scheduler's latency histogram.
type schedReader struct {
	sample []metrics.Sample
	prev   []uint64
}

func newSchedReader() *schedReader {
	r := &schedReader{sample: []metrics.Sample{{Name: "/sched/latencies:seconds"}}}
	r.read()
	return r
}

// read returns the lower bound of the highest bucket that grew since the last read: the
// longest a runnable goroutine waited, rounded down.
func (r *schedReader) read() time.Duration {
	metrics.Read(r.sample)
	if r.sample[0].Value.Kind() != metrics.KindFloat64Histogram {
		return 0
	}
	h := r.sample[0].Value.Float64Histogram()
	var worst time.Duration
	if len(r.prev) == len(h.Counts) {
		for i := len(h.Counts) - 1; i >= 0; i-- {
			if h.Counts[i] > r.prev[i] {
				if b := h.Buckets[i]; b > 0 {
					worst = time.Duration(b * float64(time.Second))
				}
				break
			}
		}
	}
	r.prev = append(r.prev[:0], h.Counts...)
	return worst
}

// waitReader reads how long the process's threads waited on the kernel's run queues.
type waitReader struct {
	prev, cur map[string]uint64 // by thread id, in nanoseconds
	last      time.Time         // the last read
	off       bool              // no schedstat here
}

// read returns how long the process's threads waited for a core since the last read, in
// all but at most the time since then (span): a reply passes through several goroutines
// (the player's, its connection's, the embedded server's, the referee's), on threads that
// may each wait in turn, and a process that had some thread waiting all the time was held
// back all the time. It returns 0 the first time, and counts no thread it had not seen.
func (r *waitReader) read() (wait, span time.Duration) {
	if r.off {
		return 0, 0
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		r.off = true
		return 0, 0
	}
	if r.cur == nil {
		r.cur = map[string]uint64{}
	}
	clear(r.cur)
	var sum uint64
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/self/task/" + t.Name() + "/schedstat")
		if err != nil {
			continue // a thread that ended
		}
		w, ok := parseSchedstat(data)
		if !ok {
			continue
		}
		r.cur[t.Name()] = w
		if p, seen := r.prev[t.Name()]; seen && w > p {
			sum += w - p
		}
	}
	if len(r.cur) == 0 {
		r.off = true
	}
	now := time.Now()
	span = now.Sub(r.last)
	r.prev, r.cur, r.last = r.cur, r.prev, now
	return min(time.Duration(sum), span), span
}

// parseSchedstat reads "on-cpu run-queue-wait timeslices": the wait, in nanoseconds.
func parseSchedstat(data []byte) (wait uint64, ok bool) {
	fields := bytes.Fields(data)
	if len(fields) < 2 {
		return 0, false
	}
	w, err := strconv.ParseUint(string(fields[1]), 10, 64)
	return w, err == nil
}

// stealReader reads the machine's CPU steal from /proc/stat.
type stealReader struct {
	steal, total uint64
	off          bool // no /proc/stat, or no steal column
}

// read returns the share of CPU time stolen since the last read, 0 the first time.
func (r *stealReader) read() float64 {
	if r.off {
		return 0
	}
	steal, total, ok := procStatCPU()
	if !ok {
		r.off = true
		return 0
	}
	var share float64
	if r.total > 0 && total > r.total && steal >= r.steal {
		share = float64(steal-r.steal) / float64(total-r.total)
	}
	r.steal, r.total = steal, total
	return share
}

// procStatCPU returns the steal and total of the first line of /proc/stat, in ticks.
func procStatCPU() (steal, total uint64, ok bool) {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return 0, 0, false
	}
	return parseCPULine(sc.Bytes())
}

// parseCPULine reads "cpu user nice system idle iowait irq softirq steal ...": the steal
// (the eighth number) and the sum of the first eight.
func parseCPULine(line []byte) (steal, total uint64, ok bool) {
	fields := bytes.Fields(line)
	if len(fields) < 9 || string(fields[0]) != "cpu" {
		return 0, 0, false
	}
	for i, f := range fields[1:9] {
		v, err := strconv.ParseUint(string(f), 10, 64)
		if err != nil {
			return 0, 0, false
		}
		total += v
		if i == 7 {
			steal = v
		}
	}
	return steal, total, true
}
