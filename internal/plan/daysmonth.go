package plan

import (
	"fmt"
	"math"
)

// MaxDaysPerMonth is the most days a month has: --days-per-month turns a
// day's figures into a month's, so a value above it (365, a year's days)
// is no month's. Fewer days are allowed: a fleet whose traffic runs on
// working days only has about 22 in a month.
const MaxDaysPerMonth = 31

// CheckDaysPerMonth refuses a days-per-month value no month has: not a
// positive number, or more than MaxDaysPerMonth. name is what the error
// calls the value ("--days-per-month" on the command line). --days-per-month 365 was
// printed as "365 days/month", a year's cost labelled a month's.
func CheckDaysPerMonth(name string, d float64) error {
	if !(d > 0) || math.IsInf(d, 0) {
		return fmt.Errorf("%s %v: want a positive number", name, d)
	}
	if d > MaxDaysPerMonth {
		return fmt.Errorf("%s %v: a month has at most %d days (30.44 on average, 365.25/12; fewer to count only the days with traffic, e.g. 22 working days): type 30, and multiply the month by 12 for a year", name, d, MaxDaysPerMonth)
	}
	return nil
}
