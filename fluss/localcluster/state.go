package localcluster

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// state is what `cluster-up` leaves behind so that `cluster-down` stops exactly what it started.
type state struct {
	BootstrapServers string `json:"bootstrap_servers"`
	SASL             bool   `json:"sasl"`
	Authorizer       bool   `json:"authorizer,omitempty"`
	Version          string `json:"version"`
	Dir              string `json:"dir"`
	OwnDir           bool   `json:"own_dir"`
	Procs            []Proc `json:"procs"`
	LakeFormat       string `json:"lake_format,omitempty"`
	LakeWarehouse    string `json:"lake_warehouse,omitempty"`
}

// SaveState writes the cluster's address, run folder and PIDs to path.
func (c *Cluster) SaveState(path string) error {
	b, err := json.MarshalIndent(state{
		BootstrapServers: c.BootstrapServers, SASL: c.SASL, Authorizer: c.Authorizer, Version: c.Version,
		Dir: c.Dir, OwnDir: c.ownDir, Procs: c.Procs, LakeFormat: string(c.LakeFormat), LakeWarehouse: c.LakeWarehouse,
	}, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// LoadState reads a state file written by SaveState. The returned Cluster can be stopped.
func LoadState(path string) (*Cluster, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("localcluster: no state file %s: no cluster was started with cluster-up here", path)
		}
		return nil, err
	}
	var s state
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("localcluster: state file %s is damaged: %w", path, err)
	}
	return &Cluster{
		BootstrapServers: s.BootstrapServers, SASL: s.SASL, Authorizer: s.Authorizer, Version: s.Version,
		Dir: s.Dir, ownDir: s.OwnDir, Procs: s.Procs, logf: func(string, ...any) {},
		LakeFormat: LakeFormat(s.LakeFormat), LakeWarehouse: s.LakeWarehouse,
	}, nil
}

// Running reports whether every process of the cluster is still alive.
func (c *Cluster) Running() bool {
	if len(c.Procs) == 0 {
		return false
	}
	for _, p := range c.Procs {
		if !ours(p.PID, c.Dir) {
			return false
		}
	}
	return true
}
