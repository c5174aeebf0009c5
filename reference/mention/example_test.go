package mention_test

import (
	"fmt"

	"github.com/sessionref-kit/sessionref-kit/reference/mention"
)

func ExampleFormat() {
	fmt.Println(mention.Format("a", `Plan [v2] \ draft`))
	// Output:
	// @[Plan [v2\] \\ draft](dsh-session:ImEi)
}

func ExampleParse() {
	p, err := mention.Parse(`Compare @[Plan [v2\]](dsh-session:ImEi) with dsh-session:ImIi.`)
	fmt.Println(p.Text, err)
	for _, r := range p.References {
		fmt.Printf("%q %q\n", r.SessionID, r.Label)
	}
	_, err = mention.Parse("@[x](dsh-session:IiI=)")
	fmt.Println(err)
	// Output:
	// Compare @Plan [v2] with @b. <nil>
	// "a" "Plan [v2]"
	// "b" "b"
	// invalid session reference URI "dsh-session:IiI="
}
