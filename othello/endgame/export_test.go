package endgame

// ReadOBF is readOBF for the tests of package endgame_test.
var ReadOBF = readOBF

// Problem is problem for the tests of package endgame_test.
type Problem = problem

// BenchFFO is benchFFO for the benchmarks of package endgame_test.
var BenchFFO = benchFFO

// FFOProblems is ffoProblemsB for the tests of package endgame_test.
var FFOProblems = ffoProblemsB

// CheckFFO is checkFFO for the tests of package endgame_test.
var CheckFFO = checkFFO

// CheckListed is checkListed for the benchmarks of package endgame_test.
var CheckListed = checkListed

// CheckListedResumable is checkListedResumable for the benchmarks of
// package endgame_test.
var CheckListedResumable = checkListedResumable
