package endgame

// ReadOBF is readOBF for the tests of package endgame_test.
var ReadOBF = readOBF

// Problem is problem for the tests of package endgame_test.
type Problem = problem
