// Package avid implements AVID, the architectural visualization of
// dynamics of Chan, Holmes, Murphy and Ying (seed 001, DESIGN.md §6): a
// program's execution shown in terms of entities the developer names, over
// time, and sampled.
//
// The paper's terms, and where they are:
//   - A mapping (Mapping, mapping.go) names the entities: each line
//     `ENTITY class PATTERN` puts the classes (frames) whose qualified name
//     matches PATTERN into ENTITY; the first line that matches wins, and
//     frames no line matches fall to the entity Other. Applied to a
//     profile's frames it gives an EntityMap; PackageMap is the mapping
//     without lines, one entity per top-level name element. A mapping is
//     also a granularity: EntityMap.ElementNames names every frame by its
//     entity, so compacted views and phase vectors can be by entity.
//   - The architectural view (Entities, entities.go) is one box per
//     entity with its values (self, total, allocations where the profile
//     counts them) and arcs between entities labelled with the calls made
//     from frames of one to frames of the other. A call inside one entity
//     is no arc. Under each entity, the paper's bars (Objects, memory.go)
//     count the objects of its classes allocated and freed, from the
//     profile's memory events (analysis.MemoryEvents): an object counts to
//     the entity of its class, or of its allocating frame where the
//     recording names no class.
//   - Cels (Cels, cels.go) cut the execution into steps, by entries or by
//     time (CelStep); each cel shows the calls made in it and up to its
//     end on every arc, the call stack at its end as entities, the
//     paper's hyperarc, and each entity's value and objects up to its end
//     (cels_values.go).
//   - The samplings (Sampling, sampling.go; Thin, thin.go) thin a
//     recording as the paper's C-1 (every x-th entry or exit event,
//     replayed), C-2 (a snapshot of the stack of every x-th event's
//     thread), C-3 (a snapshot of every thread's stack every x
//     nanoseconds), M-1 (every x-th memory event), M-2 (the first memory
//     event at or after every x nanoseconds) and M-3 (either, with a
//     snapshot of the stack at each memory event kept). A Control
//     (control.go) applies them by ranges of the recording's time, traced
//     between, as the paper's control file does. RecordSize measures a
//     recording as the paper's tables do; Settings and MemorySettings
//     (settings.go) propose the paper's x of Tables 1 and 2 scaled to a
//     recording. CompareArcs and CompareObjects (sampling_compare.go) say
//     how much of the full recording a thinned one recovers, and how many
//     of its calls sit on the wrong arc.
//   - Features (features.go, features_judge.go) state what a case study
//     looks for as conditions on arcs and allocations at a point of the
//     run; Judge says whether each is evident, partial or not evident in a
//     recording, thinned or not: the paper's Tables 1 and 2.
//
// Where calls come from. Arcs and cels count entries into frames, read from
// the steps of a recording (analysis.Steps): exact for an evented
// recording (analysis.CountEvents), recovered for samples in time order by
// diffing each thread's consecutive stacks (analysis.CountStackDiffs, a
// lower bound: a frame that stays on the stack across samples is one
// entry). The steps and the entries they give (analysis.EntryCounts,
// analysis.FirstEntries) stay in the model because the Profiling Blueprint
// (package blueprint) reads them too; this package and blueprint both
// import the model, so neither imports the other for them. Every result
// carries its CountSource, so that what is shown says how it was counted.
//
// Pipeline stage: it consumes an analysis.Profile and its Tree, and
// produces Entities, Cels and thinned Profiles, which plotting draws and
// the commands print.
//
// Invariants: every frame belongs to exactly one entity (Other when no
// line matches); an entity's Total counts each sample once, however many
// of its frames the stack holds; an arc counts the entries into a frame
// whose caller is of another entity; a cel's cumulative counts end, at the
// last cel, as the recording's arcs, and its objects as the recording's;
// CompareArcs of a recording with itself recovers all and invents nothing;
// a thinned recording is stack snapshots in time order (its calls are
// recovered by stack diffs) and the memory events kept. The tests check
// the views and the samplings against recordings worked out by hand, event
// by event, and the samplings against a literal transcription of the
// paper's definitions on random recordings and controls.
//
// Complexity: applying a mapping costs the frames times its lines at worst
// (a line's literal prefix rules most out; MaxMappingLines bounds it);
// Entities is linear in the call tree and the memory events; Cels are
// linear in the steps, entries, samples and memory events plus the cels
// times the arcs and entities; Thin is linear in the events of both kinds
// plus the snapshots' frames, and refuses a C-3 period that would take
// more snapshots than a profile may hold samples; Judge is linear in the
// steps and memory events times the features' points and conditions.
// Results are immutable once made.
package avid
