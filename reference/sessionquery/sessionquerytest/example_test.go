package sessionquerytest_test

import (
	"context"
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/reference/service"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery"
	"github.com/sessionref-kit/sessionref-kit/reference/sessionquery/sessionquerytest"
)

// A World stands in for the harness's session query; a Recorder around it shows the calls
// the service makes.
func ExampleWorld() {
	repo, title, down := "/repo", "Release plan", "title store down"
	w := &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{
		{Header: sessionquery.Header{ID: "me", CWD: &repo, CreatedAt: 3}},
		{Header: sessionquery.Header{ID: "plan-1", CWD: &repo, CreatedAt: 2}, Title: &title},
		{Header: sessionquery.Header{ID: "notes", CreatedAt: 1}, TitleError: &down},
	}}
	q := &sessionquerytest.Recorder{Querier: w}
	svc, err := service.New(q, service.DefaultConfig)
	if err != nil {
		panic(err)
	}
	cands, err := svc.ListCandidates(context.Background(), service.Agent{ID: "me", CWD: &repo}, "", 0)
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
	gone := "gone"
	w := &sessionquerytest.World{Sessions: []sessionquerytest.WorldSession{
		{Header: sessionquery.Header{ID: "a", CreatedAt: 1}, ReadError: &gone},
	}}
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
