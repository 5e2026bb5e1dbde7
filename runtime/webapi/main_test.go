package webapi_test

import (
	"testing"

	"github.com/codeexec/codeexec/runtime/internal/runtest"
)

func TestMain(m *testing.M) { runtest.Main(m) }
