package policies

// ForgetMauiMemo makes m scan its profile for every job at every pass, as
// if it remembered nothing between passes, for tests that check the memo
// changes no schedule.
func ForgetMauiMemo(m *Maui) { m.nomemo = true }
