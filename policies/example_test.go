package policies_test

import (
	"errors"
	"fmt"

	"github.com/schedsweep/schedsweep/policies"
)

func ExampleLookup() {
	e, err := policies.Lookup("conservative")
	fmt.Println(e.Name, err)
	_, err = policies.Lookup("EASY-backfill")
	fmt.Println(errors.Is(err, policies.ErrUnknownPolicy))
	_, err = policies.Lookup("esay")
	fmt.Println(err)
	// Output:
	// conservative <nil>
	// true
	// unknown policy "esay" (did you mean "easy"?); known: fcfs, sjf, easy, conservative
}
