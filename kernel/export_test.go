package kernel

// What the external tests (package kernel_test) read of the engine's
// insides.
var (
	OptionNote      = optionNote
	InlineHTML      = inlineHTML
	DefaultSettings = defaultSettings
	WithBudget      = withBudget
	BundleSize      = bundleSize
	ErrNotFinite    = errNotFinite
	Render          = render
)

// UndefinedName is the error of a parameter that is not set.
type UndefinedName = undefinedName

// Busy holds in as a running cell does, until the function it returns is
// called.
func Busy(in *Interp) func() {
	in.mu.Lock()
	return in.mu.Unlock
}

// DisplayPrefix starts every display id.
var DisplayPrefix = displayPrefix

// DisplayID returns d's display id.
func DisplayID(d *LiveDisplay) string { return d.id }
