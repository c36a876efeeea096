package kernel

// commands is every command of the language, like pprof's command table. A
// command is one file, cmd_NAME.go, holding its Command value and its run
// function, which use only the shared helpers (options.go, filter.go,
// view.go, picture.go, exports.go, summary.go, phases.go, phaseshow.go, avid.go,
// writefile.go, output.go, display.go, live.go, liveshow.go); it is added here and registered from here. Help lists them by name.
var commands = []*Command{
	// Profiles in the session.
	loadCommand, profilesCommand, infoCommand, filterCommand, exportCommand,
	// Reading the call tree, as pprof does.
	topCommand, treeCommand, threadsCommand,
	// ProfVis: granularity, the compacted tree and its pictures.
	levelCommand, expandCommand, compactCommand, viewCommand, showCommand, flameCommand,
	// Profiling Blueprint: boxes sized by time and calls, and their patterns.
	blueprintCommand, patternsCommand,
	// JIVE: phases over time.
	phasesCommand, labelCommand, similarityCommand, timelineCommand,
	// DYPER: live profiles within an overhead budget.
	attachCommand, detachCommand,
	// AVID: architectural views of calls between entities, over time, and sampled.
	mappingCommand, entitiesCommand, celsCommand, sampleCommand, compareSamplingCommand,
	// Comparing and navigating.
	diffCommand, sandwichCommand, collapseRecursionCommand, fitCommand,
	// The session itself.
	helpCommand, setCommand, echoCommand, versionCommand, clearCommand, sleepCommand,
}

func init() {
	for _, c := range commands {
		Register(c)
	}
}
