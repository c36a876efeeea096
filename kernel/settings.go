package kernel

// Settings are the session's choices of how outputs are made, and the
// parameters of a write-up (the set command; expand.go).
type Settings struct {
	Pictures  string            // how pictures are sent: PicturesHTML, PicturesSVG or PicturesBoth
	MaxOutput int64             // the most bytes of a cell's bundles together (budget.go)
	Params    map[string]string // set NAME VALUE; $NAME in any command
	// Interactive shows pictures that can be explored as views that answer
	// clicks (set interactive=true; explore.go).
	Interactive bool
}

// DefaultMaxOutput is the default budget of a cell's outputs: 2 MiB, so a
// notebook of a few dozen cells stays a file people can share.
const DefaultMaxOutput = 2 << 20

// defaultSettings are a new session's settings.
func defaultSettings() Settings {
	return Settings{Pictures: PicturesHTML, MaxOutput: DefaultMaxOutput, Params: map[string]string{}}
}
