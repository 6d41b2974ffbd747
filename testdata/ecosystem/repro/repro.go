// Package repro is the smallest module that crashed the standalone command
// with a stack overflow: it only imports Prometheus's model, whose
// SampleValue.String writes strconv.FormatFloat(float64(v), ...).
package repro

import "github.com/prometheus/common/model"

var _ model.LabelSet
