package js

import "github.com/dop251/goja"

// NewLazyObject returns an object whose properties called names (in that
// key order) are created by make on first read; make may return nil for a
// name it cannot provide. Assigned and deleted properties behave as on a
// plain object. It saves creating what a snippet never reads, such as
// console methods and web globals.
func NewLazyObject(vm *goja.Runtime, names []string, make func(name string) goja.Value) *goja.Object {
	return vm.NewDynamicObject(&lazyObject{names: names, make: make})
}

// lazyObject is the goja.DynamicObject behind NewLazyObject.
type lazyObject struct {
	names   []string // properties make provides, in key order
	make    func(name string) goja.Value
	vals    map[string]goja.Value
	deleted map[string]bool
	extra   []string // assigned keys that make does not provide, in order
}

func (o *lazyObject) provides(key string) bool {
	for _, n := range o.names {
		if n == key {
			return true
		}
	}
	return false
}

func (o *lazyObject) Get(key string) goja.Value {
	if v, ok := o.vals[key]; ok {
		return v
	}
	if o.deleted[key] || !o.provides(key) {
		return nil
	}
	v := o.make(key)
	if v == nil {
		return nil
	}
	if o.vals == nil {
		o.vals = map[string]goja.Value{}
	}
	o.vals[key] = v
	return v
}

func (o *lazyObject) Set(key string, val goja.Value) bool {
	if o.vals == nil {
		o.vals = map[string]goja.Value{}
	}
	if _, ok := o.vals[key]; !ok && !o.provides(key) {
		o.extra = append(o.extra, key)
	}
	delete(o.deleted, key)
	o.vals[key] = val
	return true
}

func (o *lazyObject) Has(key string) bool {
	if _, ok := o.vals[key]; ok {
		return true
	}
	return !o.deleted[key] && o.provides(key)
}

func (o *lazyObject) Delete(key string) bool {
	delete(o.vals, key)
	if o.deleted == nil {
		o.deleted = map[string]bool{}
	}
	o.deleted[key] = true
	for i, k := range o.extra {
		if k == key {
			o.extra = append(o.extra[:i], o.extra[i+1:]...)
			delete(o.deleted, key)
			break
		}
	}
	return true
}

func (o *lazyObject) Keys() []string {
	var keys []string
	for _, n := range o.names {
		if !o.deleted[n] {
			keys = append(keys, n)
		}
	}
	return append(keys, o.extra...)
}
