package record_test

import (
	"os"
	"path/filepath"
)

// The golden fixtures, byte for byte (canonical: LF, 10 lines),
// and the course's example stepLog.txt example (圖六, 92 bytes).
var (
	pddF1Chess     = pddGolden("F1/chess.txt")
	pddF1Bridge    = pddGolden("F1/bridge.txt")
	pddF2Chess     = pddGolden("F2/chess.txt")
	pddF2Bridge    = pddGolden("F2/bridge.txt")
	pddS1Chess     = pddGolden("S1/chess.txt")
	pddS1Bridge    = pddGolden("S1/bridge.txt")
	pddS3Chess     = pddGolden("S3/chess.txt")
	pddS3Bridge    = pddGolden("S3/bridge.txt")
	pddM1Chess     = pddGolden("M1/chess.txt")
	pddM1Bridge    = pddGolden("M1/bridge.txt")
	pddSeedStepLog = pddGolden("seed-stepLog.txt")
)

// pddGolden returns the file name of the golden fixtures, kept
// once for every package's tests in pdd/testdata/fixtures. A missing file
// reads as text that no PDD reader accepts, so the tests using it fail.
func pddGolden(name string) string {
	b, err := os.ReadFile(filepath.Join("..", "pdd", "testdata", "fixtures", filepath.FromSlash(name)))
	if err != nil {
		return "missing fixture: " + err.Error()
	}
	return string(b)
}
