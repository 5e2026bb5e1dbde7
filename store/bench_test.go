package store

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkStore measures one round trip of each call per backend, with a
// 1 KiB value: go test -run '^$' -bench . ./store
func BenchmarkStore(b *testing.B) {
	ctx := context.Background()
	value := make([]byte, 1024)
	for _, bk := range []struct {
		name string
		open func(b *testing.B) Store
	}{
		{"memory", func(b *testing.B) Store { return mustOpen(b, "memory:", Options{}) }},
		{"file", func(b *testing.B) Store {
			return mustOpen(b, "file:"+filepath.Join(b.TempDir(), "store.db"), Options{})
		}},
		{"redis", func(b *testing.B) Store { return mustOpen(b, redisURL(b), redisOptions(Options{})) }},
	} {
		b.Run(bk.name+"/Get", func(b *testing.B) {
			s := bk.open(b)
			if _, err := s.Put(ctx, "k", value, 0, 0); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Get(ctx, "k"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(bk.name+"/Put", func(b *testing.B) {
			s := bk.open(b)
			var v uint64
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if v, err = s.Put(ctx, "k", value, v, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
