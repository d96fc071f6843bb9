package calibrate

import "fmt"

// group is the sessions of one recorded model.
type group struct {
	key  string // modelKey of the recorded model
	name string // the recorded model (as first seen)
	fit  int    // sessions fitted on
	held int    // sessions held out
}

// scanGroups reads the sessions once, groups them by recorded model (in
// order of first appearance) and checks that no held-out session is also
// fitted on.
func scanGroups(d *Data) ([]group, int, error) {
	var out []group
	at := map[string]int{}
	fitIDs := map[string]bool{}
	var leaked []string
	var heldTest []string
	for it, err := range d.source("", true)() {
		if err != nil {
			return nil, 0, err
		}
		i, ok := at[it.Group]
		if !ok {
			i = len(out)
			at[it.Group] = i
			name := ""
			if st := it.Session.Start(); st != nil {
				name = st.Model
			}
			out = append(out, group{key: it.Group, name: name})
		}
		switch it.Role {
		case FitRole:
			out[i].fit++
			fitIDs[it.Session.ID] = true
		case HeldOut:
			out[i].held++
			heldTest = append(heldTest, it.Session.ID)
		}
	}
	for _, id := range heldTest {
		if fitIDs[id] {
			leaked = append(leaked, id)
		}
	}
	if len(leaked) > 0 {
		return nil, 0, fmt.Errorf("%d held-out session(s) are also fitted on (first: %q): held-out sessions must not be used for fitting", len(leaked), leaked[0])
	}
	if len(out) == 0 {
		return nil, 0, fmt.Errorf("no session in the traces")
	}
	return out, len(heldTest), nil
}
