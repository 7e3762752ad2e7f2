package longtest

import "testing"

func TestSwitch(t *testing.T) {
	t.Setenv(EnvVar, "")
	if Enabled() || Pick(1, 2) != 1 {
		t.Errorf("without %s: Enabled %v, Pick(1, 2) = %d; want false, 1", EnvVar, Enabled(), Pick(1, 2))
	}
	t.Setenv(EnvVar, "1")
	if !Enabled() || Pick(1, 2) != 2 {
		t.Errorf("with %s=1: Enabled %v, Pick(1, 2) = %d; want true, 2", EnvVar, Enabled(), Pick(1, 2))
	}
	t.Run("skips", func(t *testing.T) {
		t.Setenv(EnvVar, "0")
		Skip(t, "a test of the switch")
		t.Error("Skip did not skip with " + EnvVar + "=0")
	})
}
