package permove

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// Reading the program's age from /proc.
const (
	// userHZ is the unit of the start time in /proc/self/stat: Linux
	// reports it in ticks of 1/100 s on every architecture.
	userHZ = 100
	// procTick is the resolution of /proc/self/stat's start time and of
	// /proc/uptime; processAge adds it, so that its age is never less than
	// the true one.
	procTick = time.Second / userHZ
	// maxProcFile bounds what processAge reads of a /proc file.
	maxProcFile = 4096
	// startTimeField is the index of starttime among the fields of
	// /proc/self/stat after the command name: field 22, counting pid and
	// comm as fields 1 and 2.
	startTimeField = 22 - 3
)

// processAge returns how long ago the program started, as the kernel tells
// it (the start time of /proc/self/stat against /proc/uptime, rounded up
// to their resolution of 10 ms), and false when it cannot tell.
func processAge() (time.Duration, bool) {
	stat, ok := readProc("/proc/self/stat")
	if !ok {
		return 0, false
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// the fields start after the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) <= startTimeField {
		return 0, false
	}
	ticks, err := strconv.ParseUint(string(fields[startTimeField]), 10, 63)
	if err != nil {
		return 0, false
	}
	up, ok := readProc("/proc/uptime")
	if !ok {
		return 0, false
	}
	f := bytes.Fields(up)
	if len(f) == 0 {
		return 0, false
	}
	secs, err := strconv.ParseFloat(string(f[0]), 64)
	if err != nil || secs < 0 || secs > 1e9 {
		return 0, false
	}
	uptime := time.Duration(secs * float64(time.Second))
	age := uptime - time.Duration(ticks)*procTick + procTick
	if age < 0 || age > time.Hour {
		return 0, false
	}
	return age, true
}

// readProc reads up to maxProcFile bytes of the /proc file path.
func readProc(path string) ([]byte, bool) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	b := make([]byte, maxProcFile)
	n, _ := f.Read(b)
	return b[:n], n > 0
}
