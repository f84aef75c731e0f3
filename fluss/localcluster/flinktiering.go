package localcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// TieringPollInterval is how often the local tiering service asks the coordinator for a
// table to tier (the tiering source's 'tiering.poll.table.interval', 30 s by default): short,
// so that a table whose 'table.datalake.freshness' has passed is tiered within seconds.
const TieringPollInterval = "1s"

// TieringRestartStrategy is the Flink configuration the tiering job is submitted with (the
// jar run request's flinkConfiguration, which applies to that job alone): restart after a
// failure, every TieringRestartDelay, without limit. Without it the job has no restart
// strategy (it does not enable checkpointing), so one failure — a TaskManager heartbeat
// timeout on a loaded machine, a lake commit that failed once — ended tiering for good and
// the tests waiting for tiering hung.
var TieringRestartStrategy = map[string]string{
	"restart-strategy.type":                 "fixed-delay",
	"restart-strategy.fixed-delay.attempts": "2147483647",
	"restart-strategy.fixed-delay.delay":    TieringRestartDelay,
}

// TieringRestartDelay is the wait before the tiering job restarts after a failure.
const TieringRestartDelay = "2 s"

// TieringArgs returns the program arguments of the tiering job for the cluster at bootstrap
// with the lake options lake (LakeOptions): --fluss.bootstrap.servers, each 'datalake.*'
// option as --key value (the tiering entry point wants the same ones as server.yaml), and
// --fluss.tiering.poll.table.interval TieringPollInterval.
func TieringArgs(bootstrap string, lake map[string]string) []string {
	args := []string{"--fluss.bootstrap.servers", bootstrap, "--fluss.tiering.poll.table.interval", TieringPollInterval}
	keys := make([]string, 0, len(lake))
	for k := range lake {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "--"+k, lake[k])
	}
	return args
}

// StartTiering submits Fluss's tiering service (fluss-flink-tiering, main class
// TieringEntryClass) as a job to this Flink through the JobManager's REST API — POST
// /jars/upload, then POST /jars/{id}/run with the entry class and TieringArgs — (and TieringRestartStrategy as the job's configuration) and waits
// until every task of the job runs. The Flink must have been started with the lake's jars
// on its classpath (FlinkOptions.ExtraJars = LakeJars.Flink): the job loads the lake plugin
// from there. It records the job id in TieringJobID and returns it.
func (f *Flink) StartTiering(ctx context.Context, bootstrap string, lake map[string]string) (string, error) {
	format := LakeFormat(lake["datalake.format"])
	jars, err := EnsureLakeJars(ctx, format)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	base := "http://" + f.RESTAddress
	jarID, err := uploadJar(ctx, base, jars.Tiering)
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]any{
		"entryClass":         TieringEntryClass,
		"programArgsList":    TieringArgs(bootstrap, lake),
		"flinkConfiguration": TieringRestartStrategy,
	})
	var run struct {
		JobID  string   `json:"jobid"`
		Errors []string `json:"errors"`
	}
	if err := restJSON(ctx, http.MethodPost, base+"/jars/"+jarID+"/run", body, &run); err != nil {
		return "", fmt.Errorf("localcluster: starting the tiering service on Flink: %w", err)
	}
	if run.JobID == "" {
		return "", fmt.Errorf("localcluster: Flink ran the tiering jar but named no job: %v", run.Errors)
	}
	f.TieringJobID = run.JobID
	f.TieringFormat = format
	if err := f.waitJobRunning(ctx, run.JobID); err != nil {
		return run.JobID, err
	}
	return run.JobID, nil
}

// uploadJar posts the jar to /jars/upload and returns the id Flink gives it.
func uploadJar(ctx context.Context, base, jar string) (string, error) {
	data, err := os.ReadFile(jar)
	if err != nil {
		return "", fmt.Errorf("localcluster: %w", err)
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	part, err := mw.CreateFormFile("jarfile", filepath.Base(jar))
	if err != nil {
		return "", err
	}
	if _, err := part.Write(data); err != nil {
		return "", err
	}
	if err := mw.Close(); err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/jars/upload", &buf)
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	var up struct {
		Filename string `json:"filename"`
		Status   string `json:"status"`
	}
	if err := doJSON(req, &up); err != nil {
		return "", fmt.Errorf("localcluster: uploading %s to Flink: %w", filepath.Base(jar), err)
	}
	if up.Status != "success" || up.Filename == "" {
		return "", fmt.Errorf("localcluster: Flink did not take %s: status %q", filepath.Base(jar), up.Status)
	}
	return filepath.Base(up.Filename), nil
}

// restJSON sends body (JSON, or nothing) to url and decodes the JSON answer into out.
func restJSON(ctx context.Context, method, url string, body []byte, out any) error {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return doJSON(req, out)
}

func doJSON(req *http.Request, out any) error {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: HTTP %d: %s", req.Method, req.URL.Path, resp.StatusCode, tail(string(b), 3000))
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("%s %s: %w: %s", req.Method, req.URL.Path, err, tail(string(b), 500))
	}
	return nil
}

// JobState returns the state of a Flink job (RUNNING, FAILED, …) and the states of its
// tasks (vertices).
func (f *Flink) JobState(ctx context.Context, jobID string) (string, []string, error) {
	var job struct {
		State    string `json:"state"`
		Vertices []struct {
			Status string `json:"status"`
		} `json:"vertices"`
	}
	if err := restJSON(ctx, http.MethodGet, "http://"+f.RESTAddress+"/jobs/"+jobID, nil, &job); err != nil {
		return "", nil, err
	}
	tasks := make([]string, len(job.Vertices))
	for i, v := range job.Vertices {
		tasks[i] = v.Status
	}
	return job.State, tasks, nil
}

// waitJobRunning polls the job until it and all its tasks run, failing when it ends.
func (f *Flink) waitJobRunning(ctx context.Context, jobID string) error {
	var last string
	for {
		state, tasks, err := f.JobState(ctx, jobID)
		if err == nil {
			last = fmt.Sprintf("job %s, tasks %v", state, tasks)
			switch state {
			case "FAILED", "CANCELED", "FINISHED", "SUSPENDED":
				return fmt.Errorf("localcluster: the tiering job %s ended (%s) instead of running; see %s", jobID, state, filepath.Join(f.Dir, "log"))
			case "RUNNING":
				running := len(tasks) > 0
				for _, t := range tasks {
					running = running && t == "RUNNING"
				}
				if running {
					return nil
				}
			}
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("localcluster: the tiering job %s did not start running (last: %s): %w", jobID, last, ctx.Err())
		case <-time.After(300 * time.Millisecond):
		}
	}
}
