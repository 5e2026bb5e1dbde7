package runtime

import "strings"

// newRunState creates the run's formatter state (its intrinsics, which the
// console, the web globals and run.inspector share) and keeps it in the run.
func (r *run) newRunState() *intrinsics {
	x := newIntrinsics(r.vm)
	for _, l := range r.source {
		if strings.Contains(l, "inspect.custom") {
			x.userInspect = true
			break
		}
	}
	r.state = x
	return x
}

// runState returns the run's shared intrinsics, or nil before
// installGlobals.
func (r *run) runState() *intrinsics { return r.state }
