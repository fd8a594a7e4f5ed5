//go:build !unix

package state

// oNonblock is unix's; elsewhere a FIFO cannot take a file's name.
const oNonblock = 0
