package train

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseOpponents(t *testing.T) {
	rw := func(pool string, n int) []Opponent { return RandomWeightsPool(pool, n) }
	tests := []struct {
		name    string
		list    string
		pool    string
		want    []Opponent
		wantErr string
	}{
		{name: "empty", list: " ", pool: PoolTrain},
		{name: "names", list: "hp1,self", want: []Opponent{{Name: "hp1", Agent: "hp1"}, {Name: "self", Agent: "self"}}},
		{name: "configured", list: "d2=minimax:depth=2",
			want: []Opponent{{Name: "d2", Agent: "minimax", Params: map[string]string{"depth": "2"}}}},
		{name: "train pool", list: "random-weights:2,hp1", pool: PoolTrain,
			want: append(rw(PoolTrain, 2), Opponent{Name: "hp1", Agent: "hp1"})},
		{name: "test pool", list: "random-weights:1", pool: PoolTest, want: rw(PoolTest, 1)},
		{name: "pool after a name", list: "hp1,random-weights:1", pool: PoolTrain,
			want: append(rw(PoolTrain, 1), Opponent{Name: "hp1", Agent: "hp1"})},
		{name: "no pool", list: "random-weights:3", wantErr: "give the player a name"},
		{name: "zero", list: "random-weights:0", pool: PoolTrain, wantErr: "N from 1 to 10000"},
		{name: "too many", list: "random-weights:10001", pool: PoolTrain, wantErr: "N from 1 to 10000"},
		{name: "not a number", list: "random-weights:x", pool: PoolTrain, wantErr: "N from 1 to 10000"},
		{name: "two pools", list: "random-weights:1,random-weights:2", pool: PoolTrain, wantErr: "one random-weights pool per list"},
		{name: "bad setting", list: "d2=minimax:depth", wantErr: "not key=value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseOpponents(tt.list, tt.pool)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}
