package runtime

import (
	"crypto/rand"
	mrand "math/rand/v2"
	"time"
)

// MaxClockReadings bounds the clock readings a run records: a run that
// read the clock more often keeps running, but its Sources are marked
// Overflowed, and it cannot be replayed (a durable run that needs to
// pause says so).
const MaxClockReadings = 1 << 16

// Sources are what a run reads that changes from one run to the next: the
// clock (Date.now, new Date(), performance.now and timeOrigin,
// process.hrtime and uptime all read the one clock, each reading taken in
// the order the snippet made them) and randomness (Math.random,
// crypto.randomUUID and crypto.getRandomValues all draw from one ChaCha8
// stream of Seed). Every run records its own in Result.Sources; a run
// given the Sources of an earlier run of the same source
// (Options.Sources) reads the same values in the same order, and past the
// recorded readings a clock that never goes back. Sources hold the seed
// of the run's randomness: whoever holds them can compute every random
// value the run drew, so treat them as that run's secret.
type Sources struct {
	// Seed seeds the run's randomness.
	Seed [32]byte `json:"seed"`
	// Clock holds the clock's readings in the order they were taken, as
	// Unix nanoseconds.
	Clock []int64 `json:"clock,omitempty"`
	// Overflowed says the run read the clock more than MaxClockReadings
	// times: Clock holds the first readings only.
	Overflowed bool `json:"overflowed,omitempty"`
}

// sources gives a run its clock and randomness, replaying given Sources
// and recording what it gives. It is used on the run's loop goroutine
// only.
type sources struct {
	replay []int64 // readings to give again
	rec    Sources // what the run read
	last   int64
	rng    *mrand.ChaCha8
}

// newSources returns the sources of a run that replays from (nil for a
// fresh run).
func newSources(from *Sources) *sources {
	s := &sources{}
	if from != nil {
		s.rec.Seed, s.replay = from.Seed, from.Clock
	} else {
		_, _ = rand.Read(s.rec.Seed[:])
	}
	s.rng = mrand.NewChaCha8(s.rec.Seed)
	return s
}

// now reads the clock.
func (s *sources) now() time.Time {
	var t int64
	if n := len(s.rec.Clock); n < len(s.replay) {
		t = s.replay[n]
	} else {
		t = max(time.Now().UnixNano(), s.last)
	}
	s.last = t
	if len(s.rec.Clock) < MaxClockReadings {
		s.rec.Clock = append(s.rec.Clock, t)
	} else {
		s.rec.Overflowed = true
	}
	return time.Unix(0, t)
}

// float64 is Math.random's next value.
func (s *sources) float64() float64 { return float64(s.rng.Uint64()>>11) / (1 << 53) }

// Read fills p with the stream's next bytes; it never fails.
func (s *sources) Read(p []byte) (int, error) { return s.rng.Read(p) }

// recorded returns what the run read, to keep in its Result.
func (s *sources) recorded() *Sources { return &s.rec }
