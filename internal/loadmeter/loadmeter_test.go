package loadmeter

import (
	"testing"
	"time"
)

// testStart is any fixed time.
var testStart = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// TestLoadOf: the load of a span is the worst of the samples inside it and of the first
// one after it, however late that one came, or the threads' waits added up over them when
// that is more; samples before it do not count.
func TestLoadOf(t *testing.T) {
	at := func(ms int) time.Time { return testStart.Add(time.Duration(ms) * time.Millisecond) }
	ring := make([]loadSample, 4)
	n := 0
	for _, s := range []loadSample{
		{at: at(10), late: 90 * time.Millisecond}, // overwritten: the ring keeps 4
		{at: at(20), late: 7 * time.Millisecond, steal: 0.5},
		{at: at(30), late: time.Millisecond, wait: 2 * time.Millisecond},
		{at: at(40), late: 2 * time.Millisecond, wait: 3 * time.Millisecond},
		{at: at(95), late: 45 * time.Millisecond}, // a stall after 40
	} {
		ring[n%len(ring)] = s
		n++
	}
	cases := []struct {
		name     string
		from, to int
		want     Load
	}{
		{"inside, waits added up", 25, 35, Load{Late: 2 * time.Millisecond, Wait: 5 * time.Millisecond}},
		{"the stall after the span counts", 31, 41, Load{Late: 45 * time.Millisecond, Wait: 3 * time.Millisecond}},
		{"from the start", 15, 25, Load{Late: 7 * time.Millisecond, Wait: 2 * time.Millisecond, Steal: 0.5}},
		{"before every sample kept", 0, 5, Load{Late: 7 * time.Millisecond, Steal: 0.5}},
		{"after every sample", 100, 200, Load{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := loadOf(ring, n, at(tc.from), at(tc.to)); got != tc.want {
				t.Errorf("load %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestParseSchedstat(t *testing.T) {
	cases := []struct {
		data string
		wait uint64
		ok   bool
	}{
		{"2098029348 6962383728 1858\n", 6962383728, true},
		{"2098029348\n", 0, false},
		{"1 x 3\n", 0, false},
	}
	for _, tc := range cases {
		if wait, ok := parseSchedstat([]byte(tc.data)); wait != tc.wait || ok != tc.ok {
			t.Errorf("%q: got %d, %v; want %d, %v", tc.data, wait, ok, tc.wait, tc.ok)
		}
	}
}

func TestParseCPULine(t *testing.T) {
	cases := []struct {
		line         string
		steal, total uint64
		ok           bool
	}{
		{"cpu  10 1 5 100 2 0 1 3 0 0", 3, 122, true},
		{"cpu  10 1 5 100 2 0 1", 0, 0, false}, // no steal column
		{"cpu0 10 1 5 100 2 0 1 3 0 0", 0, 0, false},
		{"cpu  10 x 5 100 2 0 1 3", 0, 0, false},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			steal, total, ok := parseCPULine([]byte(tc.line))
			if steal != tc.steal || total != tc.total || ok != tc.ok {
				t.Errorf("got %d, %d, %v; want %d, %d, %v", steal, total, ok, tc.steal, tc.total, tc.ok)
			}
		})
	}
}

// TestSystemMeasures: the process's meter takes samples while it is held, and stops
// when the last holder lets go. It asserts no duration: any lateness is possible here.
func TestSystemMeasures(t *testing.T) {
	m := System()
	release := m.Acquire()
	defer release()
	from := time.Now()
	m.mu.Lock()
	n := m.n
	m.mu.Unlock()
	deadline := time.Now().Add(10 * time.Second)
	for {
		m.mu.Lock()
		grown := m.n >= n+2
		m.mu.Unlock()
		if grown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the meter took no sample")
		}
		time.Sleep(loadTick)
	}
	if l := m.Load(from, time.Now()); l.Late < 0 || l.Steal < 0 || l.Steal > 1 {
		t.Errorf("load %+v", l)
	}
	release()
	m.mu.Lock()
	users := m.users
	m.mu.Unlock()
	if users != 0 {
		t.Errorf("%d users after release", users)
	}
}

// TestWatch: a watch returns a load, whatever it is, once the meter has a sample after
// its end, and releases the meter.
func TestWatch(t *testing.T) {
	stop := Watch()
	l := stop()
	if l.Late < 0 || l.Steal < 0 || l.Steal > 1 {
		t.Errorf("load %+v", l)
	}
	m := System()
	m.mu.Lock()
	users := m.users
	m.mu.Unlock()
	if users != 0 {
		t.Errorf("%d users after the watch", users)
	}
}
