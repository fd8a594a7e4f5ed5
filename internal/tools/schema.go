package tools

import (
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// describe runs In's validate in describe mode: the rules state each
// field's bounds and enums, and check nothing.
func describe[In any, PIn interface {
	*In
	input
}](t *Tools) *checker {
	in := new(In)
	c := newChecker(t, in)
	c.describe = true
	PIn(in).validate(c)
	return c
}

// inputSchema is an input's schema in the agent's language: types and
// required list from base (mcp-go's schema of the input type), each
// description from its field's jsonschema tag (English, the catalogue key), bounds and enums from the
// rules of validate (c, in describe mode).
func (t *Tools) inputSchema(c *checker, base map[string]any) mcp.ToolInputSchema {
	generated, _ := base["properties"].(map[string]any)
	props := make(map[string]any, len(c.params))
	for _, p := range c.params {
		gen, ok := generated[p.name].(map[string]any)
		if !ok {
			panic(fmt.Sprintf("tools: parameter %s has no schema from mcp-go", p.name))
		}
		s := map[string]any{"type": gen["type"]}
		// mcp-go reads a slice as nullable; a parameter is a list or absent.
		if types, ok := gen["type"].([]any); ok && len(types) == 2 && types[0] == "null" {
			s["type"] = types[1]
		}
		if items, ok := gen["items"]; ok {
			s["items"] = items
		}
		if len(p.descArgs) > 0 {
			s["description"] = t.trf(p.desc, p.descArgs...)
		} else {
			s["description"] = t.tr(p.desc)
		}
		for k, v := range p.schema {
			s[k] = v
		}
		props[p.name] = s
	}
	s := mcp.ToolInputSchema{Type: "object", Properties: props}
	if req, ok := base["required"].([]any); ok {
		for _, r := range req {
			s.Required = append(s.Required, r.(string))
		}
	}
	return s
}
