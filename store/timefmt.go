package store

import (
	"database/sql"
	"fmt"
	"time"
)

// timeLayout is how times are stored: UTC, fixed width, so that string order is
// time order. Precision is one microsecond.
const timeLayout = "2006-01-02T15:04:05.000000Z"

// fmtTime is t as stored: t.UTC().Format(timeLayout), written digit by digit for the
// years the layout writes in four digits (time.Format reads its layout anew at every
// call, and a mail's rows store four or five times: issue 24 item 7).
func fmtTime(t time.Time) string {
	u := t.UTC()
	year, month, day := u.Date()
	if year < 0 || year > 9999 {
		return u.Format(timeLayout)
	}
	hour, minute, sec := u.Clock()
	var b [len(timeLayout)]byte
	digits(b[0:4], year)
	b[4] = '-'
	digits(b[5:7], int(month))
	b[7] = '-'
	digits(b[8:10], day)
	b[10] = 'T'
	digits(b[11:13], hour)
	b[13] = ':'
	digits(b[14:16], minute)
	b[16] = ':'
	digits(b[17:19], sec)
	b[19] = '.'
	digits(b[20:26], u.Nanosecond()/1000)
	b[26] = 'Z'
	return string(b[:])
}

// digits writes n in decimal into b, zero-padded to fill it.
func digits(b []byte, n int) {
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte('0' + n%10)
		n /= 10
	}
}

// nullTime stores the zero time as NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return fmtTime(t)
}

func parseTime(s string) (time.Time, error) {
	t, err := time.Parse(timeLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("store: bad time %q in database: %w", s, err)
	}
	return t, nil
}

func parseNullTime(s sql.NullString) (time.Time, error) {
	if !s.Valid || s.String == "" {
		return time.Time{}, nil
	}
	return parseTime(s.String)
}

// nullID stores 0 as NULL (for optional references).
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// nullJSON stores nil or empty JSON as NULL.
func nullJSON(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// needTime refuses a zero time: the store never reads the clock, so a zero
// time is a caller that forgot to pass one.
func needTime(what, field string, t time.Time) error {
	if t.IsZero() {
		return fmt.Errorf("store: %s: no %s time given", what, field)
	}
	return nil
}

// asStored is AsStored without formatting and parsing t, where that gives the same
// (a year the layout writes in four digits): UTC, without a monotonic reading, cut to the
// microsecond (the zero time is on a microsecond, so Truncate cuts the digits the
// layout drops). A batch returns every mail it stores so (InboxInsert).
func asStored(t time.Time) time.Time {
	u := t.UTC()
	if y := u.Year(); y < 1 || y > 9999 {
		return AsStored(t)
	}
	return u.Truncate(time.Microsecond)
}

// AsStored is t as the store keeps it and gives it back (UTC, to the microsecond): a
// caller that compares a time it stored with times read back compares this.
func AsStored(t time.Time) time.Time {
	s, err := parseTime(fmtTime(t))
	if err != nil {
		return t
	}
	return s
}
