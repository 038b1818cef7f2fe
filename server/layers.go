package server

import (
	"errors"

	"github.com/gate-dev/gate/engine"
	"github.com/gate-dev/gate/layers"
)

// enforcementError turns a runner's refusal to run without a required
// enforcement layer (or without an exec decider) into
// enforcement_unavailable; nil for any other error.
func enforcementError(err error) *engine.Error {
	var me *layers.MissingError
	if errors.As(err, &me) {
		return &engine.Error{Code: engine.CodeEnforcementUnavailable, Message: me.Error()}
	}
	return nil
}
