// Command startfloor is the floor of `codeexec run`'s start: a program that
// links only what a run requires by design, goja to run a snippet and
// esbuild to strip its types, and runs a file's JavaScript in goja with
// nothing else (no registry, sessions, MCP, metrics or tracing), in process
// or in a child process of itself, as `codeexec run --isolation none` and
// `--isolation process` do. bench/nodecompare builds it statically and
// measures its start beside codeexec's and a static hello world's: what it
// takes is what no change to codeexec alone can take off.
//
//	startfloor [-process] [-ts] FILE
//
// -ts strips types with esbuild first; without it the source runs as it is,
// as codeexec's fast path runs plain JavaScript (esbuild is linked, and
// initialized at start, either way).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-child" {
		// The worker: a source on stdin, its value on stdout.
		src, err := io.ReadAll(os.Stdin)
		if err == nil {
			err = run(string(src), os.Stdout)
		}
		exit(err)
	}
	process := flag.Bool("process", false, "run in a child process of this program")
	ts := flag.Bool("ts", false, "strip types with esbuild first")
	flag.Parse()
	if flag.NArg() != 1 {
		exit(errors.New("usage: startfloor [-process] [-ts] FILE"))
	}
	var child *exec.Cmd
	var in io.WriteCloser
	var out io.Reader
	if *process {
		// Started first, as codeexec starts its worker while it initializes.
		self, err := os.Executable()
		if err != nil {
			exit(err)
		}
		child = exec.Command(self, "-child")
		child.Stderr = os.Stderr
		if in, err = child.StdinPipe(); err == nil {
			out, err = child.StdoutPipe()
		}
		if err == nil {
			err = child.Start()
		}
		if err != nil {
			exit(err)
		}
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		exit(err)
	}
	src := string(b)
	if *ts {
		r := api.Transform(src, api.TransformOptions{Loader: api.LoaderTS})
		if len(r.Errors) > 0 {
			exit(fmt.Errorf("%s: %s", flag.Arg(0), r.Errors[0].Text))
		}
		src = string(r.Code)
	}
	if child == nil {
		exit(run(src, os.Stdout))
	}
	if _, err := io.WriteString(in, src); err != nil {
		exit(err)
	}
	_ = in.Close()
	if _, err := io.Copy(os.Stdout, out); err != nil {
		exit(err)
	}
	exit(child.Wait())
}

// run runs src as the body of an async function, as codeexec runs a
// snippet, and writes the value it returns.
func run(src string, w io.Writer) error {
	vm := goja.New()
	v, err := vm.RunString("(async () => {\n" + src + "\n})()")
	if err != nil {
		return err
	}
	p, ok := v.Export().(*goja.Promise)
	switch {
	case ok && p.State() == goja.PromiseStateRejected:
		return fmt.Errorf("the snippet threw %v", p.Result())
	case !ok || p.State() != goja.PromiseStateFulfilled:
		return errors.New("the snippet did not return at once")
	}
	_, err = fmt.Fprintln(w, p.Result())
	return err
}

func exit(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "startfloor:", err)
		os.Exit(1)
	}
	os.Exit(0)
}
