package main

// darkchessDef describes Dark chess to arena. (Being written: issue 7.)
func darkchessDef() *gameDef {
	return &gameDef{Name: "darkchess", Title: "Dark chess"}
}
