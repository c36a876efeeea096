package commands

import "github.com/proflens/proflens/kernel"

// All is the language: every command, like pprof's command table, and
// the live attachments' hooks. A command is one file, cmd_NAME.go, holding
// its Command value and its run function, which use the engine and this
// package's shared helpers, never another command's file; it is added
// here. Help lists them by name.
var All = kernel.NewCommandTable(kernel.Hooks{Sync: syncLive, Close: closeLive},
	// Profiles in the session.
	loadCommand, profilesCommand, infoCommand, filterCommand, exportCommand,
	// Reading the call tree, as pprof does.
	topCommand, treeCommand, threadsCommand,
	// ProfVis: granularity, the compacted tree and its pictures.
	levelCommand, expandCommand, compactCommand, viewCommand, showCommand, flameCommand, clicksCommand,
	// Profiling Blueprint: boxes sized by time and calls, and their patterns.
	blueprintCommand, patternsCommand,
	// JIVE: phases over time.
	phasesCommand, labelCommand, similarityCommand, timelineCommand, intervalCommand,
	// DYPER: live profiles within an overhead budget.
	attachCommand, detachCommand, pauseCommand, resumeCommand, watchCommand,
	// AVID: architectural views of calls between entities, over time, and sampled.
	mappingCommand, entitiesCommand, callsCommand, celsCommand, sampleCommand, featuresCommand, compareSamplingCommand,
	// Comparing and navigating.
	diffCommand, sandwichCommand, collapseRecursionCommand, fitCommand,
	// The session itself.
	helpCommand, setCommand, echoCommand, versionCommand, clearCommand, sleepCommand,
)
