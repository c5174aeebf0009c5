package sessionquerytest_test

import (
	"context"
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// A World stands in for the harness's session query; a Recorder around it shows the calls
// the service makes.
func ExampleWorld() {
	w, err := sessionquerytest.ParseWorld(`{"sessions":[
	  {"header":{"id":"me","cwd":"/repo","createdAt":3}},
	  {"header":{"id":"plan-1","cwd":"/repo","createdAt":2},"title":"Release plan"},
	  {"header":{"id":"notes","createdAt":1},"titleError":"title store down"}]}`)
	if err != nil {
		panic(err)
	}
	q := &sessionquerytest.Recorder{Querier: w}
	svc, err := service.New(q, service.DefaultConfig)
	if err != nil {
		panic(err)
	}
	cwd := "/repo"
	cands, err := svc.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: &cwd}, "", 0)
	if err != nil {
		panic(err)
	}
	for _, c := range cands {
		fmt.Println(c.SessionID, c.Label)
	}
	fmt.Println(q.Lists(), q.TitleReads())
	// Output:
	// plan-1 Release plan
	// notes notes
	// 1 [plan-1 notes]
}

// A Recorder records the reads of any Querier, in call order.
func ExampleRecorder() {
	w, _ := sessionquerytest.ParseWorld(`{"sessions":[{"header":{"id":"a","createdAt":1},"readError":"gone"}]}`)
	q := &sessionquerytest.Recorder{Querier: w}
	_, err := q.ReadSurface(context.Background(), "a")
	fmt.Println(err)
	_, err = q.ReadSurface(context.Background(), "b")
	fmt.Println(err)
	fmt.Println(q.Reads())
	// Output:
	// gone
	// session "b" not found
	// [a b]
}
