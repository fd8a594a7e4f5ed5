package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Load reads path over the defaults and validates the result. An empty path
// means no file: the defaults alone. Unknown keys and bad values are errors
// that name the key. Relative workspaces are taken from the file's folder.
func Load(path string) (*Config, error) {
	c := Defaults()
	if path == "" {
		if err := c.finish(""); err != nil {
			return nil, err
		}
		return &c, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	if err := c.parse(b); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	if err := c.finish(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return &c, nil
}

// Parse reads YAML text over the defaults and validates it; relative
// workspaces stay relative to the working directory.
func Parse(b []byte) (*Config, error) {
	c := Defaults()
	if err := c.parse(b); err != nil {
		return nil, err
	}
	if err := c.finish(""); err != nil {
		return nil, err
	}
	return &c, nil
}

// file is the document shape: the config plus the raw fleet entries, which
// are decoded one by one over the top-level values.
type file struct {
	*Config `yaml:",inline"`
	Agents  []yaml.Node `yaml:"agents"`
}

func (c *Config) parse(b []byte) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	f := file{Config: c}
	if err := strict(b, &f); err != nil {
		return err
	}
	for i, n := range f.Agents {
		a := c.AgentConfig
		a.Schedule.Extra = append([]ExtraWakeup(nil), a.Schedule.Extra...)
		a.Name, a.Workspace = "", ""
		raw, err := yaml.Marshal(&n)
		if err != nil {
			return fmt.Errorf("agents[%d]: %w", i, err)
		}
		if err := strict(raw, &a); err != nil {
			return fmt.Errorf("agents[%d]: %w", i, err)
		}
		c.Agents = append(c.Agents, a)
	}
	return nil
}

// strict decodes with unknown keys refused.
func strict(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // only comments: no document
		}
		var de *durationError
		if errors.As(err, &de) {
			if key := keyAt(b, de.line, de.column); key != "" {
				return fmt.Errorf("%s: %w", key, err)
			}
		}
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s", strings.Join(te.Errors, "; "))
		}
		return err
	}
	return nil
}

// keyAt names the key (dotted, [i] for list items) whose value is at
// line:column of the YAML text b, or "".
func keyAt(b []byte, line, column int) string {
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil {
		return ""
	}
	var find func(n *yaml.Node, path string) string
	find = func(n *yaml.Node, path string) string {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				if k := find(c, path); k != "" {
					return k
				}
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p, v := n.Content[i].Value, n.Content[i+1]
				if path != "" {
					p = path + "." + p
				}
				if v.Line == line && v.Column == column {
					return p
				}
				if k := find(v, p); k != "" {
					return k
				}
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				if k := find(c, fmt.Sprintf("%s[%d]", path, i)); k != "" {
					return k
				}
			}
		}
		return ""
	}
	return find(&doc, "")
}

// finish resolves relative paths against base, applies derived defaults and
// validates, telling every bad key at once.
func (c *Config) finish(base string) error {
	var p problems
	loc, err := LoadLocation(c.Timezone)
	p.add(err)
	if err != nil {
		loc = time.Local // to check the rest; the config is refused anyway
	}
	c.loc = loc
	for _, f := range c.secretFiles() {
		*f = credentialFile(*f)
	}
	if base != "" {
		c.Workspace = absUnder(base, c.Workspace)
		c.Progress.Paths = absAll(base, c.Progress.Paths)
		for i := range c.Agents {
			c.Agents[i].Workspace = absUnder(base, c.Agents[i].Workspace)
			c.Agents[i].Progress.Paths = absAll(base, c.Agents[i].Progress.Paths)
		}
		if c.Alerts.File != "" {
			c.Alerts.File = absUnder(base, c.Alerts.File)
		}
		for _, f := range c.secretFiles() {
			if *f != "" && !strings.HasPrefix(*f, "$") { // an unset ${CREDENTIALS_DIRECTORY} stays as written
				*f = absUnder(base, *f)
			}
		}
	}
	c.FleetBudget.check("fleet_", &p)
	if c.FleetBudget.PerWakeupTokens != 0 {
		p.addf("fleet_budget.per_wakeup_tokens", "a run belongs to one agent: set budget.per_wakeup_tokens instead")
	}
	checkPrices(c.Prices, &p)
	c.AgentConfig.Prices = c.Prices
	c.AgentConfig.validate("", &p)
	p.add(c.resolveStateDirs(base))
	p.add(c.validateWindow())
	p.add(c.validateHealthcheck())
	p.add(c.validateMQTT())
	names, spaces := map[string]int{}, map[string]int{}
	for i := range c.Agents {
		a := &c.Agents[i]
		key := fmt.Sprintf("agents[%d].", i)
		if a.Workspace == "" {
			p.addf(key+"workspace", "required for each agent of a fleet")
		}
		a.Prices = c.Prices
		a.validate(key, &p)
		if j, dup := names[a.DisplayName()]; dup {
			p.addf(key+"name", "%q is also agents[%d]; give each agent its own name", a.DisplayName(), j)
		} else {
			names[a.DisplayName()] = i
		}
		if a.Workspace == "" {
			continue
		}
		ws, _ := filepath.Abs(a.Workspace)
		if j, dup := spaces[ws]; dup {
			p.addf(key+"workspace", "%q is also agents[%d]'s; agents share nothing", a.Workspace, j)
		} else {
			spaces[ws] = i
		}
	}
	return p.err()
}

// absAll is absUnder of each path, in a new slice.
func absAll(base string, ps []string) []string {
	if ps == nil {
		return nil
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = absUnder(base, p)
	}
	return out
}

func absUnder(base, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}
