package registry

// Exported for the external tests of package registry_test.
var (
	NamePatternForTest       = namePattern
	NamespacedPatternForTest = namespacedPattern
	ValidNameForTest         = validName
)
