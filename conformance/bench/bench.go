// Package bench measures two implementations of the session-reference contract side by
// side over the adapter protocol (spec/protocol.md): the same deterministic workloads sent
// to both, each run timed several times, with the adapters' own processing time (the
// optional elapsedNs) told apart from the protocol's transport.
//
// It exists to show whether a port has the original's trap: a retention loop that
// re-serializes every retained message after each dropped one, so that a snapshot of a long
// session costs time in the square of its length.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/sessionref-kit/sessionref-kit/conformance/adapter"
	"github.com/sessionref-kit/sessionref-kit/conformance/compare"
	"github.com/sessionref-kit/sessionref-kit/conformance/protocol"
	"github.com/sessionref-kit/sessionref-kit/conformance/wire"
)

// Defaults of Config.
const (
	DefaultRepeat = 5
	DefaultOps    = 2000
	DefaultSlow   = 20 * time.Second
	DefaultSeed   = 1
)

// Side is one implementation under measurement.
type Side struct {
	// Name labels the side in the report: its command line, or "reference (in-process)".
	Name   string
	Caller adapter.Caller
}

// Pipeliner is a Caller that can send a batch of requests before reading their answers
// (adapter.Process).
type Pipeliner interface {
	CallPipelined(ctx context.Context, reqs []protocol.Request) ([]protocol.Response, error)
}

// Config configures a bench run. The zero value runs the default workloads with the
// defaults below.
type Config struct {
	// Workloads to run; nil means Select("").
	Workloads []Workload
	// Repeat is the number of timed runs per workload and side; 0 means DefaultRepeat.
	Repeat int
	// Ops is the number of requests of a small-op run; 0 means DefaultOps.
	Ops int
	// Seed makes the workloads; 0 means DefaultSeed.
	Seed uint64
	// Slow caps a side's time on one workload: after a run slower than Slow, that side is
	// not run again on it (its median is then over fewer runs, which the report shows).
	// Without it, five runs of the original's 3x10k prepare would take many minutes. 0
	// means DefaultSlow; negative means no cap.
	Slow time.Duration
	// Pipeline, above 1, sends the calls of multi-call runs in batches of that size without
	// waiting for each answer, to sides that declare pipelining and can (Pipeliner).
	Pipeline int
	// NoWorldCache sends every world inline, even to sides that declare world-cache.
	NoWorldCache bool
	// Log, when set, receives a line per workload and side as the bench goes.
	Log io.Writer
}

func (c Config) normalized() (Config, error) {
	var err error
	if c.Workloads == nil {
		if c.Workloads, err = Select(""); err != nil {
			return c, err
		}
	}
	if c.Repeat == 0 {
		c.Repeat = DefaultRepeat
	}
	if c.Ops == 0 {
		c.Ops = DefaultOps
	}
	if c.Seed == 0 {
		c.Seed = DefaultSeed
	}
	if c.Slow == 0 {
		c.Slow = DefaultSlow
	}
	if c.Repeat < 0 || c.Ops < 0 {
		return c, errors.New("repeat and ops must be positive")
	}
	return c, nil
}

// Status says how a side fared on a workload.
type Status string

// The statuses.
const (
	OK          Status = "ok"
	Unsupported Status = "unsupported" // the side answered ADAPTER_UNSUPPORTED
	Failed      Status = "failed"      // the side answered an error the workload does not expect
	Broken      Status = "error"       // transport failure: crash, hang past --timeout, garbage
	// TooLarge: a request line would exceed the protocol's line limit (adapter.MaxLine), as
	// the 3x100k world does; the side is not measured. In-process sides have no limit.
	TooLarge Status = "too-large"
)

// Measure is one side's timings of one workload.
type Measure struct {
	Status  Status `json:"status"`
	Message string `json:"message,omitempty"`
	// Runs are the wall times of the timed runs, as the client saw them: request encoding,
	// transport and the adapter's work.
	Runs []time.Duration `json:"runsNs"`
	// Own are the adapter-reported times (the sum of a run's elapsedNs), when every response
	// of the run reported one.
	Own    []time.Duration `json:"ownNs,omitempty"`
	Median time.Duration   `json:"medianNs"`
	Min    time.Duration   `json:"minNs"`
	// OwnMedian is the median of Own; 0 when not reported.
	OwnMedian time.Duration `json:"ownMedianNs,omitempty"`
	// Capped is set when the side was not run Repeat times because a run was slower than
	// Config.Slow.
	Capped bool `json:"capped,omitempty"`
	// Cached says the world was defined once (world.define) rather than sent with each call;
	// Define is how long that took (not part of Runs).
	Cached bool          `json:"cached,omitempty"`
	Define time.Duration `json:"defineNs,omitempty"`
	// RequestBytes is the size of one run's request lines.
	RequestBytes int `json:"requestBytes"`
	// OpsPerSec is calls per second of wall time, at the median.
	OpsPerSec float64 `json:"opsPerSec,omitempty"`
}

// Result is one workload measured on both sides.
type Result struct {
	Workload string  `json:"workload"`
	Doc      string  `json:"doc"`
	Calls    int     `json:"calls"`
	A        Measure `json:"a"`
	B        Measure `json:"b"`
	// Ratio is A's median over B's; 0 when either side has no measurement.
	Ratio float64 `json:"ratio,omitempty"`
	// OwnRatio is A's own median over B's, when both reported one.
	OwnRatio float64 `json:"ownRatio,omitempty"`
	// Same says whether both sides gave equal answers (compared as the runner compares);
	// nil when they were not compared. Diff is the first difference.
	Same *bool  `json:"same,omitempty"`
	Diff string `json:"diff,omitempty"`
}

// Report is a whole bench run.
type Report struct {
	A        SideInfo      `json:"a"`
	B        SideInfo      `json:"b"`
	Repeat   int           `json:"repeat"`
	Ops      int           `json:"ops"`
	Seed     uint64        `json:"seed"`
	Pipeline int           `json:"pipeline,omitempty"`
	Results  []Result      `json:"results"`
	Elapsed  time.Duration `json:"elapsedNs"`
}

// SideInfo names a side and what it said in its hello.
type SideInfo struct {
	Name   string        `json:"name"`
	Hello  adapter.Hello `json:"hello"`
	client *adapter.Client
	pipe   Pipeliner
	nextID int64
}

// Run measures every workload of cfg on a and b, a first then b for each workload.
func Run(ctx context.Context, cfg Config, a, b Side) (*Report, error) {
	cfg, err := cfg.normalized()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	rep := &Report{Repeat: cfg.Repeat, Ops: cfg.Ops, Seed: cfg.Seed, Pipeline: cfg.Pipeline}
	for _, s := range []struct {
		side Side
		info *SideInfo
	}{{a, &rep.A}, {b, &rep.B}} {
		cl, err := adapter.Connect(ctx, s.side.Caller)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.side.Name, err)
		}
		*s.info = SideInfo{Name: s.side.Name, Hello: cl.Hello, client: cl, nextID: 1 << 32}
		if p, ok := s.side.Caller.(Pipeliner); ok && cl.Supports(protocol.FeaturePipelining) {
			s.info.pipe = p
		}
	}
	for _, w := range cfg.Workloads {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		inst := w.Build(cfg.Seed, cfg.Ops)
		res := Result{Workload: w.Name, Doc: w.Doc, Calls: len(inst.Calls(nil))}
		var answersA, answersB []protocol.Response
		res.A, answersA = measure(ctx, cfg, &rep.A, inst)
		logf(cfg.Log, "%-22s A %s", w.Name, res.A.summary())
		res.B, answersB = measure(ctx, cfg, &rep.B, inst)
		logf(cfg.Log, "%-22s B %s", w.Name, res.B.summary())
		if res.A.Median > 0 && res.B.Median > 0 {
			res.Ratio = float64(res.A.Median) / float64(res.B.Median)
		}
		if res.A.OwnMedian > 0 && res.B.OwnMedian > 0 {
			res.OwnRatio = float64(res.A.OwnMedian) / float64(res.B.OwnMedian)
		}
		// A side that does not support the workload's op has nothing to compare ("n/a"):
		// its ADAPTER_UNSUPPORTED is not a disagreement.
		if len(answersA) > 0 && len(answersA) == len(answersB) && res.A.Status != Unsupported && res.B.Status != Unsupported {
			same := true
			for i := range answersA {
				if d := compare.Diff(answersB[i], answersA[i]); d != "" {
					same, res.Diff = false, clip(fmt.Sprintf("call %d (-B +A):\n%s", i, d), 2000)
					break
				}
			}
			res.Same = &same
		}
		rep.Results = append(rep.Results, res)
	}
	rep.Elapsed = time.Since(start)
	return rep, nil
}

func logf(w io.Writer, format string, args ...any) {
	if w != nil {
		fmt.Fprintf(w, format+"\n", args...)
	}
}

func (m Measure) summary() string {
	if m.Status != OK {
		return fmt.Sprintf("%s: %s", m.Status, m.Message)
	}
	s := fmt.Sprintf("median %s over %d run(s)", FormatDuration(m.Median), len(m.Runs))
	if m.OwnMedian > 0 {
		s += fmt.Sprintf(", own %s", FormatDuration(m.OwnMedian))
	}
	return s
}

// worldKey is the one world.define key the bench uses: redefining it for each workload
// replaces the previous world, so an adapter holds one bench world at a time.
const worldKey = "bench"

// measure runs one workload on one side: the world defined first when the side caches
// worlds, then Repeat timed runs. It returns the first run's answers for the cross-check.
func measure(ctx context.Context, cfg Config, s *SideInfo, inst Instance) (Measure, []protocol.Response) {
	var m Measure
	var world any
	_, inProcess := s.client.Caller.(adapter.InProcess)
	tooLarge := func(size int) bool { return !inProcess && size > adapter.MaxLine }
	if inst.World != nil {
		world = inst.World
		if !cfg.NoWorldCache && s.client.Supports(protocol.FeatureWorldCache) {
			args := wire.NewObject().Set("key", worldKey).Set("world", inst.World)
			if n := len(protocol.Request{Op: protocol.OpWorldDefine, Args: args}.Line()); tooLarge(n) {
				return Measure{Status: TooLarge, Message: fmt.Sprintf("world.define would be a %d MiB line; the protocol allows %d MiB", n>>20, adapter.MaxLine>>20)}, nil
			}
			t0 := time.Now()
			resp, err := s.client.Do(ctx, protocol.OpWorldDefine, args)
			m.Define = time.Since(t0)
			if err != nil {
				return Measure{Status: Broken, Message: "world.define: " + err.Error()}, nil
			}
			if !resp.OK {
				return Measure{Status: Failed, Message: "world.define: " + resp.Err.Error()}, nil
			}
			world, m.Cached = protocol.WorldRef(worldKey), true
		}
	}
	calls := inst.Calls(world)
	for _, c := range calls {
		n := len(protocol.Request{ID: 1, Op: c.Op, Args: c.Args}.Line())
		if tooLarge(n) {
			return Measure{Status: TooLarge, Message: fmt.Sprintf("a %s request would be a %d MiB line; the protocol allows %d MiB", c.Op, n>>20, adapter.MaxLine>>20)}, nil
		}
		m.RequestBytes += n + 1
	}
	var first []protocol.Response
	for r := 0; r < cfg.Repeat; r++ {
		wall, own, answers, err := s.run(ctx, cfg, calls)
		if err != nil {
			m.Status, m.Message = Broken, err.Error()
			break
		}
		if r == 0 {
			first = answers
			for _, a := range answers {
				if adapter.Unsupported(a) {
					m.Status, m.Message = Unsupported, a.Err.Error()
				} else if !a.OK {
					m.Status, m.Message = Failed, "answered an error: "+a.Err.Error()
				}
				if m.Status != "" {
					return m, first
				}
			}
		}
		m.Runs = append(m.Runs, wall)
		if own > 0 {
			m.Own = append(m.Own, own)
		}
		if cfg.Slow > 0 && wall > cfg.Slow && r+1 < cfg.Repeat {
			m.Capped = true
			break
		}
	}
	if len(m.Runs) == 0 {
		if m.Status == "" {
			m.Status = Broken
		}
		return m, nil
	}
	if m.Status == "" {
		m.Status = OK
	}
	m.Median, m.Min = median(m.Runs), slices.Min(m.Runs)
	if len(m.Own) == len(m.Runs) {
		m.OwnMedian = median(m.Own)
	}
	m.OpsPerSec = float64(len(calls)) / m.Median.Seconds()
	return m, first
}

// run sends one run's calls and returns its wall time and the sum of the reported elapsedNs
// (0 unless every answer reported one).
func (s *SideInfo) run(ctx context.Context, cfg Config, calls []Call) (wall, own time.Duration, answers []protocol.Response, err error) {
	reqs := make([]protocol.Request, len(calls))
	for i, c := range calls {
		s.nextID++
		reqs[i] = protocol.Request{ID: s.nextID, Op: c.Op, Args: c.Args}
	}
	answers = make([]protocol.Response, 0, len(calls))
	start := time.Now()
	if cfg.Pipeline > 1 && s.pipe != nil && len(reqs) > 1 {
		for i := 0; i < len(reqs); i += cfg.Pipeline {
			batch, err := s.pipe.CallPipelined(ctx, reqs[i:min(i+cfg.Pipeline, len(reqs))])
			if err != nil {
				return 0, 0, nil, err
			}
			answers = append(answers, batch...)
		}
	} else {
		for _, req := range reqs {
			resp, err := s.client.Caller.Call(ctx, req)
			if err != nil {
				return 0, 0, nil, err
			}
			answers = append(answers, resp)
		}
	}
	wall = time.Since(start)
	for _, a := range answers {
		if a.Elapsed <= 0 {
			return wall, 0, answers, nil
		}
		own += a.Elapsed
	}
	return wall, own, answers, nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
