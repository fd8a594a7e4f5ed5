package config

import (
	"os"
	"strings"
)

// CredentialsVar names the folder where systemd hands a unit the files of
// its LoadCredential= lines. A secret's file setting (url_file, token_file,
// password_file, the mqtt.tls files) may name it, as
// ${CREDENTIALS_DIRECTORY}/NAME: the secret then never passes through the
// watchdog's environment, which a process of the same user can read in
// /proc before the watchdog makes itself non-dumpable.
const CredentialsVar = "CREDENTIALS_DIRECTORY"

// credentialFile expands ${CREDENTIALS_DIRECTORY} in a secret file's path
// p. Outside the unit (status, check from a shell) the variable is unset:
// p stays as written, and only a command that reads the file fails, naming
// it.
func credentialFile(p string) string {
	if !strings.Contains(p, "$") {
		return p
	}
	dir := os.Getenv(CredentialsVar)
	if dir == "" {
		return p
	}
	return os.Expand(p, func(name string) string {
		if name == CredentialsVar {
			return dir
		}
		return "${" + name + "}"
	})
}

// secretFiles are the config's settings that name a secret's file.
func (c *Config) secretFiles() []*string {
	m := &c.MQTT
	files := []*string{&c.HTTP.TokenFile, &c.Healthcheck.URLFile, &m.PasswordFile, &m.TLS.CAFile, &m.TLS.CertFile, &m.TLS.KeyFile}
	for i := range c.Alerts.Notify {
		files = append(files, &c.Alerts.Notify[i].URLFile)
	}
	return files
}
