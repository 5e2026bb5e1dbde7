package signature

import "sync"

// sharedLimit bounds the signatures ParseShared keeps: one per distinct
// text, and a process registers a few tools each with its own signature.
const sharedLimit = 1024

// shared holds the signatures ParseShared parsed, by source text.
var shared struct {
	mu   sync.Mutex
	sigs map[string]*Signature
}

// ParseShared is Parse with a process-wide cache of the signatures that
// parsed: the same source text gives the same *Signature, which every
// caller shares and none may modify. A registry checks a tool's signature
// when the tool is registered and a binder parses it again for each VM it
// binds; this way the text is parsed once. Errors are not cached, and
// after sharedLimit distinct texts, new ones are parsed without being
// kept. Safe for concurrent use.
func ParseShared(src string) (*Signature, error) {
	shared.mu.Lock()
	sig, ok := shared.sigs[src]
	shared.mu.Unlock()
	if ok {
		return sig, nil
	}
	sig, err := Parse(src)
	if err != nil {
		return nil, err
	}
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if kept, ok := shared.sigs[src]; ok {
		return kept, nil
	}
	if shared.sigs == nil {
		shared.sigs = map[string]*Signature{}
	}
	if len(shared.sigs) < sharedLimit {
		shared.sigs[src] = sig
	}
	return sig, nil
}
