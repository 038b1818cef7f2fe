package metrics

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// NonZero gathers from g without the counter series still at 0, which gate
// exports for every known label value: what remains is what was counted.
func NonZero(g prometheus.Gatherer) prometheus.Gatherer {
	return prometheus.GathererFunc(func() ([]*dto.MetricFamily, error) {
		mfs, err := g.Gather()
		out := mfs[:0]
		for _, mf := range mfs {
			if mf.GetType() == dto.MetricType_COUNTER {
				kept := mf.Metric[:0]
				for _, m := range mf.Metric {
					if m.GetCounter().GetValue() != 0 {
						kept = append(kept, m)
					}
				}
				if mf.Metric = kept; len(kept) == 0 {
					continue
				}
			}
			out = append(out, mf)
		}
		return out, err
	})
}
