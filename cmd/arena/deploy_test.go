package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deployDir is deploy/ from this package's directory.
var deployDir = filepath.Join("..", "..", "deploy")

// arenaOnPath makes a directory whose "arena" is this test binary (which
// runs as arena in a child: see TestMain) and returns a PATH with it first.
func arenaOnPath(t *testing.T) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "arena")); err != nil {
		t.Fatal(err)
	}
	return bin + string(os.PathListSeparator) + os.Getenv("PATH")
}

// shellScript runs script with sh in dir, with env added to this process's
// environment, and returns its combined output.
func shellScript(t *testing.T, dir, script string, env ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// smallTournament is a tournament for the deployment tests: quick, and
// the same games from the same seed.
const smallTournament = "TOURNAMENT=othello random greedy r2=random -games 2 -time none -j 1"

// checkMerged checks that dir is a merged run of games games with a table.
func checkMerged(t *testing.T, dir string, games int, out string) {
	t.Helper()
	stored, err := readResults(dir)
	if err != nil || len(stored) != games {
		t.Errorf("%s: %d games (%v), want %d\n%s", dir, len(stored), err, games, out)
	}
	if rec, err := readRunRecord(dir); err != nil || rec.Flags["shard"] != "" {
		t.Errorf("%s: run.json %+v, %v", dir, rec, err)
	}
	if !strings.Contains(runSummary(t, dir), "\nRank ") {
		t.Errorf("%s: results.txt without a table", dir)
	}
}

// TestDeployShellLoop runs the shell loop of deploy/README.md as it is
// written there: three shards of a tournament side by side, then arena
// merge.
func TestDeployShellLoop(t *testing.T) {
	readme := string(mustRead(t, filepath.Join(deployDir, "README.md")))
	_, rest, ok := strings.Cut(readme, "<!-- shell-loop -->\n```sh\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("deploy/README.md has no ```sh block after <!-- shell-loop -->")
	}
	dir := t.TempDir()
	out, err := shellScript(t, dir, block, "PATH="+arenaOnPath(t), smallTournament, "SEED=5", "N=3", "OUT=results")
	if err != nil {
		t.Fatalf("the loop: %v\n%s", err, out)
	}
	matchAll(t, out, `(?m)^Merged from 3 shards: results/shard-0/, results/shard-1/, results/shard-2/$`, `(?m)^Rank `)
	checkMerged(t, filepath.Join(dir, "results", "merged"), 6, out)
}

// TestDeployFiles parses deploy/kubernetes's manifests (with python3's
// yaml module: the test is skipped without it), checks that the Indexed Job,
// its volume and the merge Job fit together, and runs the pods' scripts as
// Kubernetes would (each with its JOB_COMPLETION_INDEX, then the merge, then
// a pod run again, which resumes its shard); and runs
// deploy/slurm/tournament.sbatch as a Slurm array's tasks would.
func TestDeployFiles(t *testing.T) {
	path := arenaOnPath(t)
	t.Run("slurm", func(t *testing.T) {
		dir := t.TempDir()
		script, err := filepath.Abs(filepath.Join(deployDir, "slurm", "tournament.sbatch"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			out, err := shellScript(t, dir, "sh "+script, "PATH="+path, smallTournament, "SEED=5", "OUT=results",
				fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=1")
			if err != nil || !strings.Contains(out, fmt.Sprintf("Shard %d/2 ", i)) {
				t.Fatalf("task %d: %v\n%s", i, err, out)
			}
		}
		out, err := shellScript(t, dir, "arena merge -out results/merged results/shard-*/", "PATH="+path)
		if err != nil {
			t.Fatalf("merge: %v\n%s", err, out)
		}
		checkMerged(t, filepath.Join(dir, "results", "merged"), 6, out)
		out, err = shellScript(t, dir, "sh "+script, "PATH="+path, "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_TASK_COUNT=2", "SLURM_ARRAY_TASK_MIN=1")
		if err == nil || !strings.Contains(out, "number the array's tasks 0, 1, ..., N-1 (--array=0-1)") {
			t.Errorf("an array from 1: %v\n%s", err, out)
		}
	})

	t.Run("kubernetes", func(t *testing.T) {
		docs := yamlDocs(t, filepath.Join(deployDir, "kubernetes", "tournament-job.yaml"), filepath.Join(deployDir, "kubernetes", "merge-job.yaml"))
		if len(docs[0]) != 2 || len(docs[1]) != 1 {
			t.Fatalf("documents: %d and %d, want 2 and 1", len(docs[0]), len(docs[1]))
		}
		pvc, job, merge := docs[0][0], docs[0][1], docs[1][0]
		if pvc.Kind != "PersistentVolumeClaim" || !slices.Contains(pvc.Spec.AccessModes, "ReadWriteMany") {
			t.Errorf("the volume: %+v", pvc)
		}
		if job.Kind != "Job" || job.Spec.CompletionMode != "Indexed" || job.Spec.Completions < 1 || job.Spec.Parallelism > job.Spec.Completions {
			t.Errorf("the tournament job: %+v", job.Spec)
		}
		if merge.Kind != "Job" || merge.Spec.CompletionMode == "Indexed" {
			t.Errorf("the merge job: %+v", merge.Spec)
		}
		env := func(m manifest) map[string]string {
			out := map[string]string{}
			for _, e := range m.container(t).Env {
				out[e.Name] = e.Value
			}
			return out
		}
		jobEnv, mergeEnv := env(job), env(merge)
		if jobEnv["SHARDS"] != fmt.Sprint(job.Spec.Completions) {
			t.Errorf("SHARDS %q, completions %d: they must be equal", jobEnv["SHARDS"], job.Spec.Completions)
		}
		for _, m := range []manifest{job, merge} {
			c := m.container(t)
			vols := m.Spec.Template.Spec.Volumes
			if len(vols) != 1 || vols[0].PersistentVolumeClaim.ClaimName != pvc.Metadata.Name || len(c.VolumeMounts) != 1 ||
				c.VolumeMounts[0].Name != vols[0].Name || c.VolumeMounts[0].MountPath != env(m)["OUT"] {
				t.Errorf("%s: volumes %+v, mounts %+v, OUT %q: want the claim %s mounted at OUT", m.Metadata.Name, vols, c.VolumeMounts, env(m)["OUT"], pvc.Metadata.Name)
			}
			if m.Spec.Template.Spec.RestartPolicy != "Never" && m.Spec.Template.Spec.RestartPolicy != "OnFailure" {
				t.Errorf("%s: restartPolicy %q", m.Metadata.Name, m.Spec.Template.Spec.RestartPolicy)
			}
		}
		if !strings.Contains(mergeEnv["OUT"], jobEnv["OUT"]) {
			t.Errorf("OUT %q in the merge, %q in the tournament", mergeEnv["OUT"], jobEnv["OUT"])
		}

		// The pods' scripts, with a small tournament in a directory of
		// the test's: the variables the test sets are the manifests'.
		dir := t.TempDir()
		for _, name := range []string{"TOURNAMENT", "SEED", "SHARDS", "OUT", "JOBS"} {
			if _, ok := jobEnv[name]; !ok {
				t.Fatalf("the tournament job sets no %s", name)
			}
		}
		podEnv := func(m manifest, extra ...string) []string {
			var e []string
			for k, v := range env(m) {
				e = append(e, k+"="+v)
			}
			return append(e, append([]string{"PATH=" + path, "OUT=" + filepath.Join(dir, "results"), "SHARDS=2", "JOBS=1", smallTournament}, extra...)...)
		}
		script := func(m manifest) string {
			c := m.container(t)
			if !slices.Equal(c.Command, []string{"/bin/sh", "-c"}) || len(c.Args) != 1 {
				t.Fatalf("%s: command %q, args %q", m.Metadata.Name, c.Command, c.Args)
			}
			return c.Args[0]
		}
		for i := range 2 {
			out, err := shellScript(t, dir, script(job), podEnv(job, fmt.Sprintf("JOB_COMPLETION_INDEX=%d", i))...)
			if err != nil || !strings.Contains(out, fmt.Sprintf("Shard %d/2 ", i)) {
				t.Fatalf("pod %d: %v\n%s", i, err, out)
			}
		}
		out, err := shellScript(t, dir, script(merge), podEnv(merge)...)
		if err != nil {
			t.Fatalf("the merge pod: %v\n%s", err, out)
		}
		checkMerged(t, filepath.Join(dir, "results", "merged"), 6, out)
		out, err = shellScript(t, dir, script(job), podEnv(job, "JOB_COMPLETION_INDEX=1")...)
		if err != nil || !strings.Contains(out, "Resumed: 2 of 2 games were played before") {
			t.Errorf("pod 1 again: %v\n%s", err, out)
		}
	})
}

// manifest is what TestDeployFiles reads of a Kubernetes object.
type manifest struct {
	Kind     string
	Metadata struct{ Name string }
	Spec     struct {
		AccessModes    []string `json:"accessModes"`
		CompletionMode string   `json:"completionMode"`
		Completions    int
		Parallelism    int
		Template       struct {
			Spec struct {
				RestartPolicy string `json:"restartPolicy"`
				Containers    []podContainer
				Volumes       []struct {
					Name                  string
					PersistentVolumeClaim struct {
						ClaimName string `json:"claimName"`
					} `json:"persistentVolumeClaim"`
				}
			}
		}
	}
}

// podContainer is what TestDeployFiles reads of a pod's container.
type podContainer struct {
	Command      []string
	Args         []string
	Env          []struct{ Name, Value string }
	VolumeMounts []struct {
		Name      string
		MountPath string `json:"mountPath"`
	} `json:"volumeMounts"`
}

// container is the object's pod's one container.
func (m manifest) container(t *testing.T) *podContainer {
	t.Helper()
	cs := m.Spec.Template.Spec.Containers
	if len(cs) != 1 {
		t.Fatalf("%s: %d containers, want 1", m.Metadata.Name, len(cs))
	}
	return &cs[0]
}

// yamlDocs reads the YAML documents of each file with python3's yaml
// module, skipping the test when there is none.
func yamlDocs(t *testing.T, files ...string) [][]manifest {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to parse YAML with")
	}
	if exec.Command(py, "-c", "import yaml").Run() != nil {
		t.Skip("python3 has no yaml module")
	}
	out, err := exec.Command(py, append([]string{"-c", "import json, sys, yaml\nprint(json.dumps([list(yaml.safe_load_all(open(f))) for f in sys.argv[1:]]))"}, files...)...).Output()
	if err != nil {
		t.Fatalf("python3 yaml: %v", err)
	}
	var docs [][]manifest
	if err := json.Unmarshal(out, &docs); err != nil {
		t.Fatal(err)
	}
	return docs
}
