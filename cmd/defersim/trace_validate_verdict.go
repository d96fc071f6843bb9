package main

import (
	"fmt"

	"github.com/defersim/defersim/internal/nouns"
)

// The verdicts of a validation (validateReport.Verdict).
const (
	// verdictValid: every file is well-formed and resolves, and run would
	// replay them (or, under --no-catalogs, tool names were not checked).
	verdictValid = "valid"
	// verdictInvalid: some file has problems or cannot be read.
	verdictInvalid = "invalid"
	// verdictRunWouldStop: every file is well-formed, but run would stop
	// on them (runPrediction.Stops: the scenario, a file without a
	// catalog, or calls a scenario upgrade leaves unresolved past the
	// limit); the summary line and run.reason say why.
	verdictRunWouldStop = "run_would_stop"
)

// setVerdict sets rep.Verdict from its files and its prediction of run.
func (rep *validateReport) setVerdict() {
	switch {
	case !rep.Valid:
		rep.Verdict = verdictInvalid
	case rep.Run != nil && rep.Run.Stops:
		rep.Verdict = verdictRunWouldStop
	default:
		rep.Verdict = verdictValid
	}
}

// exit returns the command's outcome as an exit status.
func (rep validateReport) exit() error {
	invalid, unreadable, uncataloged := 0, 0, 0
	for _, f := range rep.Files {
		switch {
		case f.Error != "":
			unreadable++
		case !f.Valid:
			invalid++
		}
		if f.stop != "" {
			uncataloged++
		}
	}
	switch {
	case unreadable > 0:
		return exitError{code: 2, msg: fmt.Sprintf("%d of %s could not be read", unreadable, nouns.Count(len(rep.Files), "trace file"))}
	case invalid > 0:
		return exitError{code: 1, msg: fmt.Sprintf("%s in %d of %s", nouns.Count(rep.Problems, "problem"), invalid, nouns.Count(len(rep.Files), "trace file"))}
	case rep.Scenario != nil && rep.Scenario.stop != "":
		return exitError{code: 2, msg: "run would stop on the scenario (said above)"}
	case uncataloged > 0:
		// Run stops on them: a check of their format alone is asked for
		// with --no-catalogs.
		return exitError{code: 2, msg: fmt.Sprintf("%d of %s %s no catalog, so %s tool names were not checked and run would stop (said above): pass --catalogs, or --no-catalogs to check the format alone",
			uncataloged, nouns.Count(len(rep.Files), "trace file"), nouns.Form(uncataloged, "has", "have"), nouns.Form(uncataloged, "its", "their"))}
	case rep.Run != nil && rep.Run.Stops:
		// Well-formed traces that run would stop on all the same: with
		// --scenario, calls its upgrades leave unresolved past the limit.
		return exitError{code: 2, msg: "the traces are well-formed, but run would stop on them (said above)"}
	}
	return nil
}
