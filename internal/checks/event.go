package checks

// Event reports whether check's notice tells of something that happened
// (the watchdog renamed a declaration) rather than a condition that holds.
// Such a check is back to ok a pulse later, often before any wakeup: its
// notice is kept until the agent has read it or acted on it.
func Event(check string) bool {
	return check == DeepWorkExpired || check == InvalidDeclaration
}
