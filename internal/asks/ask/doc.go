// Package ask is the asks socket's protocol and the hook's side of it:
// what a client's hook sends when its client waits on a person (a
// permission request), what the watchdog answers, and Hold, which asks and
// waits. It links the standard library alone, and not its net package
// (which would make heart-hook a dynamically linked program, some 0.7 ms
// slower at every start): the connection is a raw Unix socket.
// The watchdog's side is package asks.
package ask
