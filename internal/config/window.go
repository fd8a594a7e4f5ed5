package config

import (
	"fmt"
	"net"
	"time"
)

// validateWindow checks the http and alerts.notify sections: the status
// page's listener and where notifications go.
func (c *Config) validateWindow() error {
	if l := c.HTTP.Listen; l != "" {
		if _, _, err := net.SplitHostPort(l); err != nil {
			return fmt.Errorf("http.listen: %q is not host:port: %v", l, err)
		}
	}
	if err := checkPublicURL(c.HTTP.PublicURL); err != nil {
		return err
	}
	if c.HTTP.MaxConnections < 0 {
		return fmt.Errorf("http.max_connections: %d is negative (0 = the default, 64)", c.HTTP.MaxConnections)
	}
	for i := range c.Alerts.Notify {
		n := &c.Alerts.Notify[i]
		key := fmt.Sprintf("alerts.notify[%d].", i)
		switch {
		case (n.URL == "") == (n.URLFile == ""):
			return fmt.Errorf("%surl: give exactly one of url and url_file", key)
		case n.MinInterval < 0:
			return fmt.Errorf("%smin_interval: must not be negative", key)
		}
		switch n.MinLevel {
		case "":
			n.MinLevel = "warning"
		case "info", "warning", "error":
		default:
			return fmt.Errorf("%smin_level: %q is not info, warning or error", key, n.MinLevel)
		}
		if n.MinInterval == 0 {
			n.MinInterval = Duration(5 * time.Minute)
		}
	}
	return nil
}
