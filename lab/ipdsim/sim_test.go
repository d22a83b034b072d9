package ipdsim

import (
	"bytes"
	"context"
	"encoding/csv"
	"testing"

	"github.com/arenaref/arena/games/ipd"
	"github.com/arenaref/arena/players/agents/ipdstrategies"
)

var (
	cc = ipd.Joint{ipd.C, ipd.C}
	cd = ipd.Joint{ipd.C, ipd.D}
	dc = ipd.Joint{ipd.D, ipd.C}
	dd = ipd.Joint{ipd.D, ipd.D}
)

func TestPeriod(t *testing.T) {
	for _, c := range []struct {
		name string
		seq  []ipd.Joint
		want int
	}{
		{"fixed pair", []ipd.Joint{cd, dd, cc, cc, cc}, 1},
		{"fixed pair too short", []ipd.Joint{cd, cc, cc}, 0},
		{"2-cycle", []ipd.Joint{cc, cd, dc, cd, dc, cd, dc}, 2},
		{"2-cycle, two periods only", []ipd.Joint{cc, cc, cd, dc, cd, dc}, 0},
		{"3-cycle", []ipd.Joint{dd, cc, dc, dd, cc, dc, dd, cc, dc}, 3},
		{"unsettled", []ipd.Joint{cc, cd, dd, cc, dc, dd, cd, cc, dd, dc}, 0},
	} {
		if got := Period(c.seq, 4, 3); got != c.want {
			t.Errorf("%s: period %d, want %d", c.name, got, c.want)
		}
	}
}

func TestName(t *testing.T) {
	for _, c := range []struct {
		cycle []ipd.Joint
		want  string
	}{
		{[]ipd.Joint{cc}, "CC"},
		{[]ipd.Joint{dc, cd}, "CD-DC"},
		{[]ipd.Joint{dd, cc, dc}, "CC-DC-DD"},
		{[]ipd.Joint{dd, dc, dd, cd}, "CD-DD-DC-DD"},
		{nil, Unsettled},
	} {
		if got := Name(c.cycle); got != c.want {
			t.Errorf("%v: %q, want %q", c.cycle, got, c.want)
		}
	}
}

func TestPlayClassics(t *testing.T) {
	for _, c := range []struct {
		a, b, want string
	}{
		{ipdstrategies.TitForTat, ipdstrategies.TitForTat, "CC"},
		{ipdstrategies.AlwaysDefect, ipdstrategies.TitForTat, "DD"},
		{ipdstrategies.AlwaysCooperate, ipdstrategies.AlwaysDefect, "CD"},
		{ipdstrategies.GrimTrigger, ipdstrategies.AlwaysDefect, "DD"},
		{ipdstrategies.TitForTwoTats, ipdstrategies.AlwaysDefect, "DD"},
	} {
		res, err := Play(Setup{Matrix: ipd.Standard, Agents: [2]string{c.a, c.b}}, DefaultDetect, false)
		if err != nil || res.Outcome != c.want {
			t.Errorf("%s v %s: %q (%v), want %q", c.a, c.b, res.Outcome, err, c.want)
		}
	}
	// Win-stay-lose-shift against always-defect alternates C and D: a 2-cycle.
	res, _ := Play(Setup{Matrix: ipd.Standard, Agents: [2]string{ipdstrategies.WinStayLoseShift, ipdstrategies.AlwaysDefect}}, DefaultDetect, false)
	if res.Outcome != "CD-DD" || res.Period != 2 {
		t.Errorf("wsls v always-defect: %q period %d", res.Outcome, res.Period)
	}
}

// The paper's Fig. 2 start against tit-for-tat, carried on until it settles.
func TestPlaySatisficerVersusTitForTat(t *testing.T) {
	s := Setup{Matrix: ipd.Fig1, Agents: [2]string{ipdstrategies.Satisficing, ipdstrategies.TitForTat},
		Sat: [2]Satisficing{{Lambda: 0.5, Aspiration: 4, Initial: ipd.C}}}
	res, err := Play(s, DefaultDetect, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []ipd.Joint{cc, dc, dd, cd}
	for i, j := range want {
		if res.History[i] != j {
			t.Fatalf("round %d: %v, want %v (history %v)", i, res.History[i], j, res.History[:4])
		}
	}
	if res.Outcome == Unsettled {
		t.Errorf("unsettled after %d rounds", res.Rounds)
	}
}

func TestSatisficersSettledForGood(t *testing.T) {
	// A settled trial, played on for many more rounds, must keep its cycle.
	e := Experiment{Agents: [2]string{ipdstrategies.Satisficing, ipdstrategies.Satisficing}, Trials: 200, Seed: 3,
		Params: ParamsTable1, Initial: InitialRandom, Detect: DefaultDetect}
	for i := range e.Trials {
		s := e.Setup(i)
		res, err := Play(s, DefaultDetect, false)
		if err != nil || res.Outcome == Unsettled {
			continue
		}
		long, _ := Play(s, Detect{MaxPeriod: 1, Repeats: 2, MaxRounds: res.Rounds + 2000}, true)
		h := long.History
		for k := res.Rounds; k < len(h); k++ {
			if h[k] != h[k-res.Period] {
				t.Fatalf("trial %d: settled on %s at round %d, but round %d breaks it", i, res.Outcome, res.Rounds, k)
			}
		}
	}
}

func TestExperimentReproducible(t *testing.T) {
	e := Experiment{Agents: [2]string{ipdstrategies.Satisficing, ipdstrategies.Satisficing}, Trials: 200, Seed: 7,
		Params: ParamsTable1, Initial: InitialRandom, Detect: DefaultDetect}
	a, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Run(context.Background())
	var ca, cb bytes.Buffer
	if err := WriteCSV(&ca, a); err != nil {
		t.Fatal(err)
	}
	WriteCSV(&cb, b)
	if !bytes.Equal(ca.Bytes(), cb.Bytes()) {
		t.Error("same seed, different trials")
	}
	recs, err := csv.NewReader(&ca).ReadAll()
	if err != nil || len(recs) != 201 || len(recs[0]) != len(CSVHeader) {
		t.Fatalf("csv: %d records, %v", len(recs), err)
	}
	counts := Tally(a)
	if counts[0].Outcome != MutualCooperation {
		t.Errorf("most frequent outcome %q, want CC (%v)", counts[0].Outcome, counts)
	}
	e.Seed = 8
	c, _ := e.Run(context.Background())
	var cc bytes.Buffer
	WriteCSV(&cc, c)
	if bytes.Equal(ca.Bytes(), cc.Bytes()) {
		t.Error("different seeds, same trials")
	}
}

func TestConvergenceConditions(t *testing.T) {
	for _, params := range []string{ParamsConvergence, ParamsConvergenceReject} {
		t.Run(params, func(t *testing.T) { testConvergenceConditions(t, params) })
	}
}

func testConvergenceConditions(t *testing.T, params string) {
	e := Experiment{Agents: [2]string{ipdstrategies.Satisficing, ipdstrategies.Satisficing}, Trials: 200, Seed: 1,
		Params: params, Initial: InitialRandom, Detect: DefaultDetect}
	trials, err := e.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, tr := range trials {
		s := tr.Setup
		sigma, delta := s.Matrix.R, s.Matrix.P
		if s.Sat[0].Initial != s.Sat[1].Initial || !(sigma-delta > 0.4) || !(s.Sat[0].Lambda > 0.8 && s.Sat[0].Lambda < 1) ||
			!(s.Sat[0].Aspiration > sigma && s.Sat[1].Aspiration > sigma) {
			t.Fatalf("trial %d breaks the conditions: %+v", tr.Index, s)
		}
		if tr.Result.Outcome == MutualCooperation {
			n++
		}
	}
	// The paper reports all trials; this simulator finds about 95%, or 98.5% with the
	// conditions enforced on Table 1 draws (docs/ipd.md).
	if n < 180 {
		t.Errorf("%d of 200 trials end in mutual cooperation", n)
	}
}

func TestExperimentCheck(t *testing.T) {
	good := Experiment{Agents: [2]string{ipdstrategies.Satisficing, ipdstrategies.TitForTat}, Trials: 1,
		Params: ParamsFixed, Initial: "CC", Matrix: ipd.Standard, Lambda: 0.5, Aspiration: [2]float64{5, 5}, Detect: DefaultDetect}
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]func(*Experiment){
		"agent":   func(e *Experiment) { e.Agents[1] = "random" },
		"trials":  func(e *Experiment) { e.Trials = 0 },
		"params":  func(e *Experiment) { e.Params = "table2" },
		"initial": func(e *Experiment) { e.Initial = "CX" },
		"unequal": func(e *Experiment) { e.Params, e.Initial = ParamsConvergence, "CD" },
		"lambda":  func(e *Experiment) { e.Lambda = 1.5 },
		"detect":  func(e *Experiment) { e.Detect.Repeats = 1 },
	} {
		e := good
		f(&e)
		if e.Check() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
