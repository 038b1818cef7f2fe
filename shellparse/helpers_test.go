package shellparse

import (
	"os"
	"sync"
	"testing"

	"github.com/open-policy-agent/opa/v1/util"
)

var defaultCatalogue = sync.OnceValues(func() (*Catalogue, error) {
	bs, err := os.ReadFile("../policies/gate/catalogue/data.yaml")
	if err != nil {
		return nil, err
	}
	var c Catalogue
	if err := util.Unmarshal(bs, &c); err != nil {
		return nil, err
	}
	return &c, c.Validate()
})

// testParser returns a parser with the default catalogue and home /home/u.
func testParser(tb testing.TB) *Parser {
	tb.Helper()
	c, err := defaultCatalogue()
	if err != nil {
		tb.Fatal(err)
	}
	return NewParser(c, WithHome("/home/u"))
}
