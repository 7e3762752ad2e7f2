package proc

// WithoutCgroup returns c set to contain the program without a cgroup, as
// on a machine that has none writable.
func WithoutCgroup(c Config) Config {
	c.noCgroup = true
	return c
}

// WithoutNamespace returns c set to contain the program without its own
// PID and user namespaces, as on a kernel that does not allow them.
func WithoutNamespace(c Config) Config {
	c.noNamespace = true
	return c
}

// CgroupDir returns the directory of the program's cgroup, or "" if it has
// none.
func (p *Process) CgroupDir() string {
	if p.ct.cg == nil {
		return ""
	}
	return p.ct.cg.dir
}
