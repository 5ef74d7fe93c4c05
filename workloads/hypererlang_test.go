package workloads

import (
	"math"
	"strings"
	"testing"
)

func TestHyperErlangMoments(t *testing.T) {
	tests := []struct {
		name string
		h    HyperErlang
	}{
		{"exponential", HyperErlang{Order: 1, Rate1: 0.5, P: 1}},
		{"hyperexponential", HyperErlang{Order: 1, Rate1: 2, Rate2: 0.05, P: 0.7}},
		{"erlang order 3, p=1", HyperErlang{Order: 3, Rate1: 0.01, P: 1}},
		{"second branch only, p=0", HyperErlang{Order: 2, Rate2: 4, P: 0}},
		{"order 7", HyperErlang{Order: 7, Rate1: 7.0 / 10, Rate2: 7.0 / 900, P: 0.6}},
	}
	const n = 400_000
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.h.Validate(); err != nil {
				t.Fatalf("Validate() = %v; want nil", err)
			}
			r := NewStream(42, StreamExtra)
			var sum [4]float64
			for range n {
				x := tc.h.Sample(r)
				if !(x > 0) {
					t.Fatalf("Sample() = %v; want > 0", x)
				}
				sum[1] += x
				sum[2] += x * x
				sum[3] += x * x * x
			}
			for k := 1; k <= 3; k++ {
				got := sum[k] / n
				want := tc.h.Moment(k)
				// Five standard errors of a mean of n draws of X^k,
				// whose variance is E[X^2k] − E[X^k]², in closed form.
				tol := 5 * math.Sqrt((tc.h.Moment(2*k)-want*want)/n)
				if math.Abs(got-want) > tol {
					t.Errorf("E[X^%d]: got %.6g; want %.6g ± %.3g", k, got, want, tol)
				}
			}
		})
	}
}

func TestHyperErlangClosedForm(t *testing.T) {
	tests := []struct {
		name     string
		h        HyperErlang
		k        int
		want     float64
		wantMean float64
		wantCV   float64
	}{
		// Exponential of rate 2: E[X^k] = k!/2^k, CV 1.
		{name: "exponential third moment", h: HyperErlang{Order: 1, Rate1: 2, P: 1}, k: 3, want: 6.0 / 8, wantMean: 0.5, wantCV: 1},
		// Erlang(4, 1): E[X²] = 4·5, CV 1/2.
		{name: "erlang second moment", h: HyperErlang{Order: 4, Rate2: 1, P: 0}, k: 2, want: 20, wantMean: 4, wantCV: 0.5},
		{name: "zeroth moment", h: HyperErlang{Order: 7, Rate1: 1, Rate2: 3, P: 0.2}, k: 0, want: 1, wantMean: 7 * (0.2 + 0.8/3)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.h.Moment(tc.k); math.Abs(got-tc.want) > 1e-12*tc.want {
				t.Errorf("Moment(%d) = %v; want %v", tc.k, got, tc.want)
			}
			if got := tc.h.Mean(); math.Abs(got-tc.wantMean) > 1e-12 {
				t.Errorf("Mean() = %v; want %v", got, tc.wantMean)
			}
			if tc.wantCV != 0 {
				if got := tc.h.CV(); math.Abs(got-tc.wantCV) > 1e-12 {
					t.Errorf("CV() = %v; want %v", got, tc.wantCV)
				}
			}
		})
	}
}

func TestHyperErlangValidate(t *testing.T) {
	tests := []struct {
		name string
		h    HyperErlang
		want string // substring of the error; "" for valid
	}{
		{"valid", HyperErlang{Order: 2, Rate1: 1, Rate2: 2, P: 0.5}, ""},
		{"unused rate ignored", HyperErlang{Order: 1, Rate1: 1, Rate2: -1, P: 1}, ""},
		{"order zero", HyperErlang{Order: 0, Rate1: 1, Rate2: 1, P: 0.5}, "order 0 is outside 1..100"},
		{"order too high", HyperErlang{Order: 101, Rate1: 1, Rate2: 1, P: 0.5}, "order 101"},
		{"probability above one", HyperErlang{Order: 1, Rate1: 1, Rate2: 1, P: 1.5}, "branch probability 1.5"},
		{"probability NaN", HyperErlang{Order: 1, Rate1: 1, Rate2: 1, P: math.NaN()}, "branch probability NaN"},
		{"zero rate1", HyperErlang{Order: 1, Rate1: 0, Rate2: 1, P: 0.5}, "rate1 0 is not"},
		{"infinite rate2", HyperErlang{Order: 1, Rate1: 1, Rate2: math.Inf(1), P: 0.5}, "rate2 +Inf is not"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.h.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate() = %v; want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Validate() = %v; want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestFitHyperErlang(t *testing.T) {
	tests := []struct {
		name     string
		mean, cv float64
		order    int
	}{
		{"exponential", 100, 1, 1},
		{"bursty", 600, 3, 1},
		{"erlang limit", 50, 1 / math.Sqrt(4), 4},
		{"order 7", 11000, 0.8, 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := FitHyperErlang(tc.mean, tc.cv, tc.order)
			if err != nil {
				t.Fatalf("FitHyperErlang(%v, %v, %d) = %v", tc.mean, tc.cv, tc.order, err)
			}
			if err := h.Validate(); err != nil {
				t.Fatalf("fit %+v: Validate() = %v", h, err)
			}
			if got := h.Mean(); math.Abs(got-tc.mean) > 1e-9*tc.mean {
				t.Errorf("mean: got %v; want %v", got, tc.mean)
			}
			if got := h.CV(); math.Abs(got-tc.cv) > 1e-9 {
				t.Errorf("cv: got %v; want %v", got, tc.cv)
			}
			if b1, b2 := h.P/h.Rate1, (1-h.P)/h.Rate2; math.Abs(b1-b2) > 1e-9*b1 {
				t.Errorf("branch contributions %v and %v; want them equal", b1, b2)
			}
		})
	}
}

func TestFitHyperErlangErrors(t *testing.T) {
	tests := []struct {
		name     string
		mean, cv float64
		order    int
		want     string
	}{
		{"too regular", 10, 0.5, 3, "cv 0.5 is below 1/√3"},
		{"zero mean", 0, 1, 1, "mean 0 is not"},
		{"NaN cv", 1, math.NaN(), 1, "cv NaN is not"},
		{"order zero", 1, 1, 0, "order 0 is outside"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FitHyperErlang(tc.mean, tc.cv, tc.order)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("FitHyperErlang(%v, %v, %d) = %v; want an error containing %q", tc.mean, tc.cv, tc.order, err, tc.want)
			}
		})
	}
}

func TestHyperErlangSampleAllocs(t *testing.T) {
	h := HyperErlang{Order: 3, Rate1: 1, Rate2: 0.01, P: 0.5}
	r := NewStream(1, StreamExtra)
	if got := testing.AllocsPerRun(1000, func() { h.Sample(r) }); got != 0 {
		t.Errorf("Sample allocates %v times per call; want 0", got)
	}
}
