package main

// pddDef describes Ponte del Diavolo to arena. (Being written: issue 7.)
func pddDef() *gameDef {
	return &gameDef{Name: "pdd", Title: "Ponte del Diavolo"}
}
