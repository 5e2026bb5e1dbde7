package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/codeexec/codeexec/mcp"
)

// The deploy/ directory and what else its tests read, from this package.
const (
	deployDir = "../../deploy"
	makefile  = "../../Makefile"
	goMod     = "../../go.mod"
)

// object is one Kubernetes object of the manifests, its spec left for the
// decoding its kind needs.
type object struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	} `yaml:"metadata"`
	Spec yaml.Node `yaml:"spec"`
	file string
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type workloadSpec struct {
	Replicas *int          `yaml:"replicas"`
	Selector labelSelector `yaml:"selector"`
	Template struct {
		Metadata struct {
			Labels map[string]string `yaml:"labels"`
		} `yaml:"metadata"`
		Spec podSpec `yaml:"spec"`
	} `yaml:"template"`
}

type podSpec struct {
	TerminationGracePeriodSeconds *int `yaml:"terminationGracePeriodSeconds"`
	SecurityContext               struct {
		RunAsNonRoot *bool `yaml:"runAsNonRoot"`
		RunAsUser    *int  `yaml:"runAsUser"`
	} `yaml:"securityContext"`
	Containers []container `yaml:"containers"`
}

type container struct {
	Name  string   `yaml:"name"`
	Image string   `yaml:"image"`
	Args  []string `yaml:"args"`
	Env   []struct {
		Name      string `yaml:"name"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	Ports []struct {
		Name          string `yaml:"name"`
		ContainerPort int    `yaml:"containerPort"`
	} `yaml:"ports"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
	Resources      struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	SecurityContext struct {
		AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
		ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
	} `yaml:"securityContext"`
}

type probe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
	TimeoutSeconds int `yaml:"timeoutSeconds"`
}

type serviceSpec struct {
	Selector map[string]string `yaml:"selector"`
	Ports    []struct {
		Name       string `yaml:"name"`
		Port       int    `yaml:"port"`
		TargetPort string `yaml:"targetPort"`
	} `yaml:"ports"`
}

// port is the number of c's port named name, or 0.
func (c container) port(name string) int {
	for _, p := range c.Ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	return 0
}

// secretEnv is the Secret and key c's variable name comes from, or "".
func (c container) secretEnv(name string) string {
	for _, e := range c.Env {
		if e.Name == name && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			return e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
		}
	}
	return ""
}

// manifests decodes every object of deploy/*.yaml but the kustomization,
// by "Kind/name", and returns the kustomization's namespace and
// resources.
func manifests(t *testing.T) (objs map[string]object, namespace string, resources []string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(deployDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in %s: %v", deployDir, err)
	}
	objs = map[string]object{}
	var onDisk []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Base(f) == "kustomization.yaml" {
			var k struct {
				Namespace string   `yaml:"namespace"`
				Resources []string `yaml:"resources"`
			}
			if err := yaml.Unmarshal(b, &k); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			namespace, resources = k.Namespace, k.Resources
			continue
		}
		onDisk = append(onDisk, filepath.Base(f))
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var o object
			err := dec.Decode(&o)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if o.Kind == "" || o.APIVersion == "" || o.Metadata.Name == "" {
				t.Errorf("%s: an object without a kind, an apiVersion or a name: %+v", f, o)
				continue
			}
			key := o.Kind + "/" + o.Metadata.Name
			if _, dup := objs[key]; dup {
				t.Errorf("%s: %s twice", f, key)
			}
			o.file = filepath.Base(f)
			objs[key] = o
		}
	}
	slices.Sort(onDisk)
	if got := slices.Sorted(slices.Values(resources)); !slices.Equal(got, onDisk) {
		t.Errorf("kustomization.yaml lists %v, deploy/ holds %v", got, onDisk)
	}
	return objs, namespace, resources
}

// decodeSpec decodes the spec of the object key into v.
func decodeSpec(t *testing.T, objs map[string]object, key string, v any) {
	t.Helper()
	o, ok := objs[key]
	if !ok {
		t.Fatalf("deploy/ has no %s", key)
	}
	if err := o.Spec.Decode(v); err != nil {
		t.Fatalf("%s (%s): %v", key, o.file, err)
	}
}

// selects reports whether selector picks the pods labelled labels.
func selects(selector, labels map[string]string) bool {
	if len(selector) == 0 {
		return false
	}
	for k, v := range selector {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// mcpFlags are the flag names `codeexec mcp --help` lists.
func mcpFlags(t *testing.T) map[string]bool {
	t.Helper()
	var out bytes.Buffer
	if code := (&app{stdin: strings.NewReader(""), stdout: &out, stderr: &out}).main(context.Background(), []string{"mcp", "--help"}); code != 0 {
		t.Fatalf("mcp --help: exit %d\n%s", code, out.String())
	}
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s+(?:-\w, )?--([a-z][a-z0-9-]*)`).FindAllStringSubmatch(out.String(), -1) {
		flags[m[1]] = true
	}
	if !flags["http"] || !flags["drain-grace"] {
		t.Fatalf("mcp --help lists no --http or --drain-grace:\n%s", out.String())
	}
	return flags
}

// TestDeployManifests checks deploy/ against the binary it deploys: the
// Deployment's arguments are flags codeexec mcp has (its help lists
// them), and with them (the addresses moved to loopback, the store to
// memory:) it serves the
// probes' paths without a token to a probe that names the pod by its
// address, and stops at SIGTERM; the termination grace covers the drain;
// the token and the state key come from one Secret; the store URL names
// the Redis Service, which selects the Redis pods; the Services, the
// PodDisruptionBudget and the NetworkPolicy select the pods they mean.
func TestDeployManifests(t *testing.T) {
	t.Parallel()
	objs, namespace, _ := manifests(t)

	var dep workloadSpec
	decodeSpec(t, objs, "Deployment/codeexec", &dep)
	pod := dep.Template.Spec
	if len(pod.Containers) != 1 {
		t.Fatalf("the codeexec pod has %d containers, want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	if len(c.Args) == 0 || c.Args[0] != "mcp" {
		t.Fatalf("the container's args do not start with mcp: %q", c.Args)
	}

	// Each argument is --NAME=VALUE (or a bare boolean --NAME) of a flag
	// that mcp has.
	known := mcpFlags(t)
	values := map[string]string{}
	local := []string{"mcp"} // the arguments as this test runs them
	for _, arg := range c.Args[1:] {
		name, value, _ := strings.Cut(strings.TrimPrefix(arg, "--"), "=")
		if !strings.HasPrefix(arg, "--") {
			t.Errorf("argument %q is not a --flag", arg)
			continue
		}
		if !known[name] {
			t.Errorf("--%s is not a flag of codeexec mcp", name)
		}
		values[name] = value
		switch name {
		case "http", "metrics-addr":
			local = append(local, "--"+name+"=127.0.0.1:0")
		case "store":
			local = append(local, "--store=memory:")
		default:
			local = append(local, arg)
		}
	}
	timeout, err1 := time.ParseDuration(values["timeout"])
	grace, err2 := time.ParseDuration(values["drain-grace"])
	if err1 != nil || err2 != nil {
		t.Fatalf("the manifest must state --timeout and --drain-grace: %v, %v", err1, err2)
	}

	// Serving: the probes reach their paths on the --http port, with no
	// token and the pod's address as the host, as the kubelet sends them.
	_, httpPort, _ := net.SplitHostPort(values["http"])
	for _, p := range []struct {
		name  string
		probe *probe
		path  string
	}{{"liveness", c.LivenessProbe, mcp.HealthzPath}, {"readiness", c.ReadinessProbe, mcp.ReadyzPath}} {
		if p.probe == nil || p.probe.HTTPGet == nil {
			t.Fatalf("no HTTP %s probe", p.name)
		}
		if p.probe.HTTPGet.Path != p.path {
			t.Errorf("the %s probe gets %s, want %s", p.name, p.probe.HTTPGet.Path, p.path)
		}
		if strconv.Itoa(c.port(p.probe.HTTPGet.Port)) != httpPort {
			t.Errorf("the %s probe's port %q is not the --http port %s", p.name, p.probe.HTTPGet.Port, httpPort)
		}
	}
	if got := time.Duration(c.ReadinessProbe.TimeoutSeconds) * time.Second; got <= mcp.ReadyTimeout {
		t.Errorf("the readiness probe's timeout %v is not above a check's bound %v", got, mcp.ReadyTimeout)
	}
	serveAsDeployed(t, local, c.LivenessProbe.HTTPGet.Path, c.ReadinessProbe.HTTPGet.Path)

	// Termination: the kubelet's SIGKILL comes after codeexec stopped by
	// itself.
	if pod.TerminationGracePeriodSeconds == nil {
		t.Fatal("no terminationGracePeriodSeconds")
	}
	period := time.Duration(*pod.TerminationGracePeriodSeconds) * time.Second
	if stop := drainTime(grace) + defaultSignalGrace; period < stop || period < grace+timeout {
		t.Errorf("terminationGracePeriodSeconds %v is below the drain's bound %v or --drain-grace + --timeout %v", period, stop, grace+timeout)
	}

	// Secrets: the token and the state key, from one Secret.
	token, key := c.secretEnv(mcp.TokenEnv), c.secretEnv(stateKeyEnv)
	if token == "" || key == "" || token == key || strings.Split(token, "/")[0] != strings.Split(key, "/")[0] {
		t.Errorf("$%s from %q and $%s from %q: want two keys of one Secret", mcp.TokenEnv, token, stateKeyEnv, key)
	}

	// The pod: non-root as the image's user, bounded, locked down.
	sc := pod.SecurityContext
	if sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Errorf("the pod does not run as a non-root user: %+v", sc)
	} else if uid, _ := dockerfileUser(t); *sc.RunAsUser != uid {
		t.Errorf("the pod runs as %d, the image as %d", *sc.RunAsUser, uid)
	}
	if c.Resources.Requests["cpu"] == "" || c.Resources.Requests["memory"] == "" || c.Resources.Limits["memory"] == "" {
		t.Errorf("resources: %+v, want cpu and memory requests and a memory limit", c.Resources)
	}
	if csc := c.SecurityContext; csc.AllowPrivilegeEscalation == nil || *csc.AllowPrivilegeEscalation || csc.ReadOnlyRootFilesystem == nil || !*csc.ReadOnlyRootFilesystem {
		t.Errorf("the container's securityContext: %+v", csc)
	}
	if !selects(dep.Selector.MatchLabels, dep.Template.Metadata.Labels) {
		t.Errorf("the Deployment's selector %v does not select its pods %v", dep.Selector.MatchLabels, dep.Template.Metadata.Labels)
	}

	// The Service: its names are allowed hosts, and it reaches --http.
	var svc serviceSpec
	decodeSpec(t, objs, "Service/codeexec", &svc)
	if !selects(svc.Selector, dep.Template.Metadata.Labels) || len(svc.Ports) != 1 || strconv.Itoa(c.port(svc.Ports[0].TargetPort)) != httpPort {
		t.Errorf("Service/codeexec does not reach the pods' --http port: %+v", svc)
	}
	hosts := strings.Split(values["allowed-hosts"], ",")
	for _, h := range []string{"codeexec", "codeexec." + namespace, "codeexec." + namespace + ".svc", "codeexec." + namespace + ".svc.cluster.local"} {
		if !slices.Contains(hosts, h) {
			t.Errorf("--allowed-hosts %v lacks the Service's name %s", hosts, h)
		}
	}

	// The disruption budget.
	var pdb struct {
		MaxUnavailable *int          `yaml:"maxUnavailable"`
		Selector       labelSelector `yaml:"selector"`
	}
	decodeSpec(t, objs, "PodDisruptionBudget/codeexec", &pdb)
	if !selects(pdb.Selector.MatchLabels, dep.Template.Metadata.Labels) || pdb.MaxUnavailable == nil || dep.Replicas == nil || *pdb.MaxUnavailable >= *dep.Replicas {
		t.Errorf("the PodDisruptionBudget %+v does not keep some of the %v replicas", pdb, dep.Replicas)
	}

	// The store: --store names the Redis Service, which reaches Redis.
	u, err := url.Parse(values["store"])
	if err != nil || u.Scheme != "redis" {
		t.Fatalf("--store %q is not a redis:// URL: %v", values["store"], err)
	}
	var rsvc serviceSpec
	decodeSpec(t, objs, "Service/"+u.Hostname(), &rsvc)
	var redis workloadSpec
	decodeSpec(t, objs, "StatefulSet/redis", &redis)
	rpod := redis.Template.Spec
	if len(rpod.Containers) != 1 || len(rsvc.Ports) != 1 || strconv.Itoa(rsvc.Ports[0].Port) != u.Port() ||
		rpod.Containers[0].port(rsvc.Ports[0].TargetPort) == 0 || !selects(rsvc.Selector, redis.Template.Metadata.Labels) {
		t.Errorf("--store %s does not reach the Redis pods through Service/%s: %+v", values["store"], u.Hostname(), rsvc)
	}
	if redis.Replicas == nil || *redis.Replicas != 1 {
		t.Errorf("Redis runs %v replicas; the store speaks to one server", redis.Replicas)
	}
	var np struct {
		PodSelector labelSelector `yaml:"podSelector"`
		Ingress     []struct {
			From []struct {
				PodSelector labelSelector `yaml:"podSelector"`
			} `yaml:"from"`
		} `yaml:"ingress"`
	}
	decodeSpec(t, objs, "NetworkPolicy/redis", &np)
	if !selects(np.PodSelector.MatchLabels, redis.Template.Metadata.Labels) || len(np.Ingress) != 1 || len(np.Ingress[0].From) != 1 ||
		!selects(np.Ingress[0].From[0].PodSelector.MatchLabels, dep.Template.Metadata.Labels) {
		t.Errorf("NetworkPolicy/redis does not let the codeexec pods, and only them, reach Redis: %+v", np)
	}
}

// serveAsDeployed runs `codeexec mcp` in process with args, gets the
// probes' paths as the kubelet does (no token, the pod's address as the
// host), and stops it with SIGTERM: it must exit 0.
func serveAsDeployed(t *testing.T, args []string, liveness, readiness string) {
	t.Helper()
	pr, pw := io.Pipe()
	interrupts := make(chan os.Signal, 1)
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: pw, interrupts: interrupts}
	// The token the Secret gives: the probes must not need it.
	args = append(args, "--token=from-the-secret")
	done := make(chan int, 1)
	go func() {
		done <- a.main(context.Background(), args)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	urlRE := regexp.MustCompile(`http://([0-9.]+:[0-9]+)/mcp`)
	var addr string
	var log []string
	for addr == "" && sc.Scan() {
		log = append(log, sc.Text())
		if m := urlRE.FindStringSubmatch(sc.Text()); m != nil {
			addr = m[1]
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	if addr == "" {
		t.Fatalf("codeexec %q did not serve (exit %d):\n%s", args, <-done, strings.Join(log, "\n"))
	}
	for _, path := range []string{liveness, readiness} {
		req, _ := http.NewRequest("GET", "http://"+addr+path, nil)
		req.Host = "10.244.1.7:8080"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(b) != "ok\n" {
			t.Errorf("GET %s as the kubelet does: %d %q, want 200 ok", path, resp.StatusCode, b)
		}
	}
	interrupts <- syscall.SIGTERM
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after SIGTERM, want 0", code)
	}
	http.DefaultClient.CloseIdleConnections()
}

// dockerfile is deploy/Dockerfile's instructions, continuation lines
// joined, comments left out.
func dockerfile(t *testing.T) [][2]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(deployDir, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][2]string
	var cur strings.Builder
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		if cur.Len() == 0 && (line == "" || strings.HasPrefix(line, "#")) {
			continue
		}
		if more, ok := strings.CutSuffix(line, `\`); ok {
			cur.WriteString(more + " ")
			continue
		}
		cur.WriteString(line)
		op, arg, _ := strings.Cut(cur.String(), " ")
		out = append(out, [2]string{strings.ToUpper(op), strings.TrimSpace(arg)})
		cur.Reset()
	}
	return out
}

// dockerfileUser is the numeric uid and gid of the Dockerfile's last
// USER.
func dockerfileUser(t *testing.T) (uid, gid int) {
	t.Helper()
	user := ""
	for _, in := range dockerfile(t) {
		if in[0] == "USER" {
			user = in[1]
		}
	}
	u, g, _ := strings.Cut(user, ":")
	uid, err1 := strconv.Atoi(u)
	gid, err2 := strconv.Atoi(g)
	if err1 != nil || err2 != nil {
		t.Fatalf("the Dockerfile's USER %q is not UID:GID in numbers", user)
	}
	return uid, gid
}

// shellWords splits a shell command into words, as sh would without
// expansions: quotes group and are removed.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// goBuild is a `go build` command line: its environment assignments, its
// flags (with their values) and its package.
type goBuild struct {
	env   []string
	flags map[string]string
	pkg   string
}

// parseGoBuild finds `go build` in words (the Go command named goCmd) and
// parses it.
func parseGoBuild(t *testing.T, words []string, goCmd string) goBuild {
	t.Helper()
	i := slices.Index(words, goCmd)
	if i < 0 || i+1 >= len(words) || words[i+1] != "build" {
		t.Fatalf("no %s build in %q", goCmd, words)
	}
	b := goBuild{flags: map[string]string{}}
	for _, w := range words[:i] {
		if strings.Contains(w, "=") && !strings.HasPrefix(w, "--") {
			b.env = append(b.env, w)
		}
	}
	rest := words[i+2:]
	for j := 0; j < len(rest); j++ {
		switch w := rest[j]; {
		case w == "-o" || w == "-ldflags" || w == "-tags":
			if j+1 < len(rest) {
				b.flags[w] = rest[j+1]
				j++
			}
		case strings.HasPrefix(w, "-"):
			b.flags[w] = ""
		default:
			b.pkg = w
		}
	}
	return b
}

// TestDockerfile checks that deploy/Dockerfile builds what `make build`
// builds (a static binary of ./cmd/codeexec: the same environment, the
// Makefile's flags, and only flags that change no behaviour besides), with
// the Go that go.mod asks for, and runs it alone on a distroless static
// (or empty) image as a numeric non-root user.
func TestDockerfile(t *testing.T) {
	t.Parallel()
	mk, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	var recipe string
	if _, after, ok := strings.Cut(string(mk), "\nbuild:\n"); ok {
		for line := range strings.Lines(after) {
			if !strings.HasPrefix(line, "\t") {
				break
			}
			recipe += strings.TrimSpace(line) + " "
		}
	}
	if recipe == "" {
		t.Fatal("the Makefile has no build target")
	}
	want := parseGoBuild(t, shellWords(recipe), "$(GO)")

	var (
		build                  goBuild
		goImage, final, goVers string
		copied, entrypoint     string
	)
	args := map[string]string{}
	for _, in := range dockerfile(t) {
		switch in[0] {
		case "ARG":
			k, v, _ := strings.Cut(in[1], "=")
			args[k] = v
		case "FROM":
			image, _, _ := strings.Cut(in[1], " ")
			if strings.HasPrefix(image, "golang:") {
				goImage = image
				goVers = strings.TrimPrefix(image, "golang:")
				goVers = strings.ReplaceAll(goVers, "${GO_VERSION}", args["GO_VERSION"])
			}
			final = image
		case "RUN":
			if words := shellWords(in[1]); slices.Contains(words, "build") && slices.Contains(words, "go") {
				build = parseGoBuild(t, words, "go")
			}
		case "COPY":
			if f := strings.Fields(in[1]); len(f) == 3 && strings.HasPrefix(f[0], "--from=") {
				if f[1] != build.flags["-o"] {
					t.Errorf("the final stage copies %s, the build writes %s", f[1], build.flags["-o"])
				}
				copied = f[2]
			}
		case "ENTRYPOINT":
			entrypoint = in[1]
		}
	}
	if goImage == "" || build.pkg == "" {
		t.Fatal("the Dockerfile has no golang build stage with a go build")
	}

	if !slices.Equal(slices.Sorted(slices.Values(build.env)), slices.Sorted(slices.Values(want.env))) || build.pkg != want.pkg {
		t.Errorf("the Dockerfile builds %s with %v, the Makefile %s with %v", build.pkg, build.env, want.pkg, want.env)
	}
	for f := range want.flags {
		if _, ok := build.flags[f]; !ok {
			t.Errorf("the Dockerfile's go build lacks the Makefile's %s", f)
		}
	}
	for f, v := range build.flags {
		switch {
		case f == "-o" || f == "-trimpath":
		case f == "-ldflags" && regexp.MustCompile(`^(-X main\.version=\S+ ?)+$`).MatchString(v):
			_ = version // the variable -X sets
		default:
			if _, ok := want.flags[f]; !ok {
				t.Errorf("the Dockerfile's go build adds %s %s, which the Makefile's does not have", f, v)
			}
		}
	}

	mod, err := os.ReadFile(goMod)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod)
	if m == nil || !strings.HasPrefix(goVers, string(m[1])) {
		t.Errorf("the build stage's Go %q is not go.mod's %s", goVers, m)
	}

	if final != "scratch" && !strings.HasPrefix(final, "gcr.io/distroless/static") {
		t.Errorf("the final stage is %s, not distroless/static or scratch", final)
	}
	if uid, gid := dockerfileUser(t); uid == 0 || gid == 0 {
		t.Errorf("the image runs as %d:%d, root", uid, gid)
	}
	if entrypoint != `["`+copied+`"]` {
		t.Errorf("ENTRYPOINT %s is not the binary copied to %s", entrypoint, copied)
	}
}
