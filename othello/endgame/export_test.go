package endgame

// ReadOBF is readOBF for the tests of package endgame_test.
var ReadOBF = readOBF
