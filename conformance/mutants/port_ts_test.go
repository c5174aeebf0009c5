package mutants

// tsMutants are the mistakes found by porting the contract to TypeScript from the spec
// alone: each passed every fixed check before the cases that now kill it were added.
func tsMutants() []mutant {
	return append(jsObjectMutants(),
		mutant{name: "trap/ts-trim-blank-message", mistake: "TypeScript projection skips a message when !text.trim(): messages of blanks only are dropped", handler: &blankSkipped{}},
	)
}
