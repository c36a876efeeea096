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
//     is no arc.
//   - Cels (Cels, cels.go) cut the execution into steps, by entries or by
//     time (CelStep); each cel shows the calls made in it and up to its
//     end on every arc, and the call stack at its end as entities, the
//     paper's hyperarc.
//   - The samplings (Sampling, Thin, sampling.go) thin an evented
//     recording as the paper's C-1 (every x-th entry or exit event,
//     replayed), C-2 (a snapshot of the stack of every x-th event's thread)
//     and C-3 (a snapshot of every thread's stack every x nanoseconds).
//     RecordSize measures a recording as the paper's table does, and
//     Settings proposes the paper's x scaled to a recording. CompareArcs
//     (sampling_compare.go) says how much of the full recording's arcs a
//     thinned one recovers, and how much it invents.
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
// last cel, as the recording's arcs; CompareArcs of a recording with itself
// recovers all and invents nothing. The tests check the views and the
// samplings against recordings worked out by hand, event by event.
//
// Complexity: applying a mapping costs the frames times its lines at worst
// (a line's literal prefix rules most out; MaxMappingLines bounds it);
// Entities is linear in the call tree; Cels are linear in the steps and
// entries plus the cels times the arcs; Thin is linear in the events plus
// the snapshots' frames, and refuses a C-3 period that would take more
// snapshots than a profile may hold samples. Results are immutable once
// made.
package avid
