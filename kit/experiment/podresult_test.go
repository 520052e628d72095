package experiment_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/logbench/logbench/kit/experiment"
)

// TestAResultDecodesOrSaysWhy: a result file decodes, or its failure says it is
// unreadable; a pod that left none has no failure of its own to say.
func TestAResultDecodesOrSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		result []byte
		want   string
		n      int
	}{
		{"read", []byte(`{"n": 3}`), "", 3},
		{"none left", nil, "", 0},
		{"unreadable", []byte(`{"n": `), "unreadable result: unexpected end of JSON input", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v struct{ N int }
			if have := (experiment.PodResult{Result: tc.result}).Decode(&v); have != tc.want || v.N != tc.n {
				t.Errorf("Decode = %q, n %d; want %q, n %d", have, v.N, tc.want, tc.n)
			}
		})
	}
}

// TestARefusalIsTheEnginesOfThatRole: only the engine's refusal to create the role's
// container, wrapped or not, is one; another role's, another error, or an interrupted
// context's is not.
func TestARefusalIsTheEnginesOfThatRole(t *testing.T) {
	refused := experiment.CreateError{Role: "api", Err: errors.New("unknown log opt")}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		role string
		want bool
	}{
		{"refused", context.Background(), refused, "api", true},
		{"wrapped", context.Background(), fmt.Errorf("pod: %w", refused), "api", true},
		{"another role", context.Background(), refused, "loadgen", false},
		{"another error", context.Background(), errors.New("engine gone"), "api", false},
		{"interrupted", cancelled, refused, "api", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if have := experiment.Refused(tc.ctx, tc.err, tc.role); have != tc.want {
				t.Errorf("Refused = %v, want %v", have, tc.want)
			}
		})
	}
}
