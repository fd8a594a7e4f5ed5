package tools

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/ai-heart/ai-heart/internal/humanize"
	"github.com/ai-heart/ai-heart/internal/workspace"
)

// A tool's input type is its parameters as a struct, the one place they are
// written. Each field is a parameter:
//
//	json        its name; omitempty makes it optional (mcp-go's rule)
//	jsonschema  its description, in English: the catalogue key of ja.go
//	args        the description's format arguments, comma-separated $names
//	pattern, minLength, maxLength, minItems, minimum, maximum
//	            the schema's bounds
//	enum        the allowed values, |-separated
//
// A value starting with $ is looked up in schemaVars; any other is literal.
// mcp-go generates the types and the required list from the struct
// (mcp.SchemaFor); it knows no bounds, and its descriptions could only be
// English, so those come from the tags here. The handlers still read the
// arguments through Args, whose coercions (a number sent as a string, one
// string for a list) a typed decode would refuse.

// schemaVars are the values input tags and tool descriptions name with $:
// bounds the code enforces and the thresholds the texts quote.
func (t *Tools) schemaVars() map[string]any {
	return map[string]any{
		"$maxPartLen":        workspace.MaxPartLen,
		"$maxThemeNameLen":   maxThemeNameLen,
		"$maxCheckpointLen":  maxCheckpointLen,
		"$minDescLen":        minDescLen,
		"$maxDescLen":        maxDescLen,
		"$maxStrictMinutes":  int(t.Thresholds.MaxStrictDeepWork.D() / time.Minute),
		"$maxNumLogs":        maxNumLogs,
		"$maxListLimit":      maxListLimit,
		"$defaultListLimit":  defaultListLimit,
		"$activityTypes":     activityTypeNames(),
		"$toolID":            toolIDRe.String(),
		"$inactivityWarning": humanize.Span(t.Thresholds.InactivityWarning.D()),
		"$inactivityError":   humanize.Span(t.Thresholds.InactivityError.D()),
		"$cooldown":          humanize.Span(t.restrictions().Cooldown.D()),
		"$lock":              humanize.Span(t.restrictions().Lock.D()),
	}
}

// inputFields are the parameters of input type typ in field order, the
// fields of embedded structs in their place (as encoding/json reads them).
func inputFields(typ reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for i := range typ.NumField() {
		f := typ.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, inputFields(f.Type)...)
			continue
		}
		if f.Tag.Get("json") != "" {
			out = append(out, f)
		}
	}
	return out
}

// paramName is a field's parameter name.
func paramName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// paramNames lists In's parameters in field order: the only names a call
// may pass.
func paramNames[In any]() []string {
	var names []string
	for _, f := range inputFields(reflect.TypeFor[In]()) {
		names = append(names, paramName(f))
	}
	return names
}

// checkParams refuses a parameter In does not declare.
func checkParams[In any](a Args) error { return a.checkKnown(paramNames[In]()...) }

// inputSchema is the input schema of typ in the agent's language: types and
// required list from base (mcp-go's schema of typ), descriptions and bounds
// from the tags.
func (t *Tools) inputSchema(typ reflect.Type, base map[string]any) mcp.ToolInputSchema {
	vars := t.schemaVars()
	generated, _ := base["properties"].(map[string]any)
	props := make(map[string]any, len(generated))
	for _, f := range inputFields(typ) {
		name := paramName(f)
		gen, ok := generated[name].(map[string]any)
		if !ok {
			panic(fmt.Sprintf("tools: %s.%s (%s) has no schema from mcp-go", typ, f.Name, name))
		}
		p := map[string]any{"type": gen["type"]}
		// mcp-go reads a slice as nullable; a parameter is a list or absent.
		if types, ok := gen["type"].([]any); ok && len(types) == 2 && types[0] == "null" {
			p["type"] = types[1]
		}
		if items, ok := gen["items"]; ok {
			p["items"] = items
		}
		desc := f.Tag.Get("jsonschema")
		if args := f.Tag.Get("args"); args != "" {
			p["description"] = t.trf(desc, lookupAll(vars, args, typ, f)...)
		} else {
			p["description"] = t.tr(desc)
		}
		for _, k := range []string{"pattern", "minLength", "maxLength", "minItems", "minimum", "maximum"} {
			if v, ok := f.Tag.Lookup(k); ok {
				p[k] = tagValue(vars, v, k != "pattern", typ, f)
			}
		}
		if v, ok := f.Tag.Lookup("enum"); ok {
			if strings.HasPrefix(v, "$") {
				p["enum"] = lookup(vars, v, typ, f)
			} else {
				p["enum"] = strings.Split(v, "|")
			}
		}
		props[name] = p
	}
	s := mcp.ToolInputSchema{Type: "object", Properties: props}
	if req, ok := base["required"].([]any); ok {
		for _, r := range req {
			s.Required = append(s.Required, r.(string))
		}
	}
	return s
}

// tagValue is a bound's value: a $name's, or the literal, a number when
// numeric.
func tagValue(vars map[string]any, v string, numeric bool, typ reflect.Type, f reflect.StructField) any {
	if strings.HasPrefix(v, "$") {
		return lookup(vars, v, typ, f)
	}
	if !numeric {
		return v
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(fmt.Sprintf("tools: %s.%s: bound %q is not a whole number", typ, f.Name, v))
	}
	return n
}

// lookupAll resolves comma-separated $names.
func lookupAll(vars map[string]any, names string, typ reflect.Type, f reflect.StructField) []any {
	var out []any
	for n := range strings.SplitSeq(names, ",") {
		out = append(out, lookup(vars, strings.TrimSpace(n), typ, f))
	}
	return out
}

// lookup resolves one $name; a name schemaVars lacks is a bug in a tag,
// found by the first test that builds the tools.
func lookup(vars map[string]any, name string, typ reflect.Type, f reflect.StructField) any {
	v, ok := vars[name]
	if !ok {
		panic(fmt.Sprintf("tools: %v.%s names %s, which schemaVars lacks", typ, f.Name, name))
	}
	return v
}
