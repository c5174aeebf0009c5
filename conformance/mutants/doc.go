// Package mutants measures the kit's power to catch wrong ports by mutation testing: its
// tests certify ports that each carry one plausible porting mistake and require the kit to
// fail every one of them (TestKitKillsEveryMutant, on the fixed checks testdata/kills.txt
// records as killing each; -fixed on every fixed check), and certify the same port without a
// mistake to show that what kills a mutant is its mistake (TestUnmutatedPortIsConformant).
// Most mutants are goport.Ports, certified through conformancetest.Handler as any Go port is;
// the few whose mistake Go's types cannot carry are protocol handlers over the reference.
// The package has no code outside its tests.
package mutants
