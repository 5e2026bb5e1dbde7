package builtin

import (
	"context"
	"io/fs"
	"path"
	"strings"
)

// walkOptions configure Toolset.walk.
type walkOptions struct {
	// gitignore skips paths ignored by .gitignore files (the root's, those
	// of the directories down to the start, and those found while walking)
	// and by the root's .git/info/exclude.
	gitignore bool
	// maxDepth stops descending below this many levels under the start
	// (1: its direct entries only); 0 means no limit.
	maxDepth int
}

// walk calls fn for every entry below the directory start (not start itself),
// in lexical order per directory, with root-relative slash paths. It walks
// the root's fs.FS, so it never leaves the root and never follows symbolic
// links (a link is reported as an entry, not descended into). Directories
// named .git are skipped, and so are entries that cannot be read. It returns
// ctx's error when ctx is done, start's own error, or fn's error; fn may
// return fs.SkipDir for a directory.
func (t *Toolset) walk(ctx context.Context, start string, opt walkOptions, fn func(rel string, d fs.DirEntry) error) error {
	var ign *ignoreSet
	if opt.gitignore {
		ign = &ignoreSet{fsys: t.fsys, files: map[string][]*ignoreFile{}}
		dir := "."
		ign.load(dir)
		if start != "." {
			for _, part := range strings.Split(start, "/") {
				dir = path.Join(dir, part)
				ign.load(dir)
			}
		}
	}
	return fs.WalkDir(t.fsys, start, func(p string, d fs.DirEntry, err error) error {
		if cerr := ctx.Err(); cerr != nil {
			return cerr
		}
		if err != nil {
			if p == start {
				return err
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == start {
			return nil
		}
		isDir := d.IsDir()
		if d.Name() == ".git" {
			if isDir {
				return fs.SkipDir
			}
			return nil
		}
		if ign != nil && ign.ignored(p, isDir) {
			if isDir {
				return fs.SkipDir
			}
			return nil
		}
		if err := fn(p, d); err != nil {
			return err
		}
		if isDir {
			if opt.maxDepth > 0 && strings.Count(relTo(start, p), "/")+1 >= opt.maxDepth {
				return fs.SkipDir
			}
			if ign != nil {
				ign.load(p)
			}
		}
		return nil
	})
}

// relTo returns p, a root-relative path at or below dir, relative to dir.
func relTo(dir, p string) string {
	if dir == "." {
		return p
	}
	if p == dir {
		return "."
	}
	return strings.TrimPrefix(p, dir+"/")
}

// ignoreSet holds the ignore files met during a walk, by directory.
type ignoreSet struct {
	fsys  fs.FS
	files map[string][]*ignoreFile
}

// load reads dir's .gitignore (and, for the root, .git/info/exclude, which
// has lower priority) if present.
func (s *ignoreSet) load(dir string) {
	var files []*ignoreFile
	if data, err := fs.ReadFile(s.fsys, path.Join(dir, ".gitignore")); err == nil {
		files = append(files, parseIgnore(dir, data))
	}
	if dir == "." {
		if data, err := fs.ReadFile(s.fsys, ".git/info/exclude"); err == nil {
			files = append(files, parseIgnore(dir, data))
		}
	}
	if len(files) > 0 {
		s.files[dir] = files
	}
}

// ignored reports whether rel is ignored: the ignore file of the nearest
// directory with a matching rule decides, and within it the last matching rule.
func (s *ignoreSet) ignored(rel string, isDir bool) bool {
	for d := path.Dir(rel); ; d = path.Dir(d) {
		for _, f := range s.files[d] {
			if m, ign := f.match(rel, isDir); m {
				return ign
			}
		}
		if d == "." {
			return false
		}
	}
}
