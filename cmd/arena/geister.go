package main

// geisterDef describes Geister to arena. (Being written: issue 7.)
func geisterDef() *gameDef {
	return &gameDef{Name: "geister", Title: "Geister"}
}
