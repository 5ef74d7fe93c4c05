package results_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/schedsweep/schedsweep/results"
)

func TestValueString(t *testing.T) {
	tests := []struct {
		v    results.Value
		want string
	}{
		{results.StringValue("easy"), "easy"},
		{results.IntValue(-3), "-3"},
		{results.FloatValue(0.8), "0.8"},
		{results.FloatValue(1), "1"},
		{results.FloatValue(1e21), "1e+21"},
		{results.BoolValue(true), "true"},
		{results.Value{}, "%!(kind(0))"},
	}
	for _, tc := range tests {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("%+v.String() = %q; want %q", tc.v, got, tc.want)
		}
	}
}

func TestValueJSONErrors(t *testing.T) {
	for _, in := range []string{`{}`, `{"int":1,"float":1}`, `{"int":1.5}`, `"easy"`} {
		var v results.Value
		if err := json.Unmarshal([]byte(in), &v); err == nil {
			t.Errorf("unmarshal %s: got %+v; want an error", in, v)
		}
	}
	for _, v := range []results.Value{{}, results.FloatValue(math.NaN())} {
		if b, err := json.Marshal(v); err == nil {
			t.Errorf("marshal %+v: got %s; want an error", v, b)
		}
	}
}

func TestPartitionDir(t *testing.T) {
	tests := []struct {
		name string
		axes []results.Param
		want string
	}{
		{"sweep", []results.Param{
			{Name: "workload", Value: results.StringValue("lublin")},
			{Name: "policy", Value: results.StringValue("easy")},
			{Name: "load_factor", Value: results.FloatValue(0.8)},
			{Name: "replicate", Value: results.IntValue(1)},
		}, "workload=lublin/policy=easy/load_factor=0.8/replicate=1"},
		{"none", nil, ""},
		{"canonical floats", []results.Param{
			{Name: "a", Value: results.FloatValue(1)},
			{Name: "b", Value: results.FloatValue(1e21)},
			{Name: "c", Value: results.FloatValue(-0.25)},
		}, "a=1/b=1e%2B21/c=-0.25"},
		{"unsafe bytes", []results.Param{
			{Name: "workload", Value: results.StringValue("a/b=c%d e+f:g")},
			{Name: "w", Value: results.StringValue("é~x_y.z-")},
		}, "workload=a%2Fb%3Dc%25d%20e%2Bf%3Ag/w=%C3%A9~x_y.z-"},
		{"empty and bool", []results.Param{
			{Name: "s", Value: results.StringValue("")},
			{Name: "on", Value: results.BoolValue(true)},
		}, "s=/on=true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := results.PartitionDir(tc.axes); got != tc.want {
				t.Errorf("PartitionDir(%v) = %q; want %q", tc.axes, got, tc.want)
			}
		})
	}
}
