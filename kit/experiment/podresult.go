package experiment

import (
	"context"
	"encoding/json"
	"errors"
)

// Decode reads the conductor's result file into v, and says why it cannot be read:
// "" when it was read, or when the conductor left none (the run's Failure says why,
// if anything does).
func (r PodResult) Decode(v any) (failure string) {
	if r.Result == nil {
		return ""
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		return "unreadable result: " + err.Error()
	}
	return ""
}

// Refused says whether err is the engine refusing to create the container of role (a
// logging driver or options it does not take), and not an interrupt: bad input of the
// plan, which a pod tried before the matrix says in one line.
func Refused(ctx context.Context, err error, role string) bool {
	var refused CreateError
	return errors.As(err, &refused) && ctx.Err() == nil && refused.Role == role
}
