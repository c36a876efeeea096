package kernel_test

import (
	"github.com/proflens/proflens/kernel/commands"
	"github.com/proflens/proflens/kernel/kerneltest"
)

// lang is the language the engine's tests run: the commands of
// kernel/commands, and those a test adds (kerneltest.Language.Add).
var lang = &kerneltest.Language{Base: commands.All}
