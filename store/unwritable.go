package store

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"time"
)

// ErrUnwritable marks a database that cannot be written though its pages may be sound:
// a full disk (SQLITE_FULL, ENOSPC, EDQUOT, EFBIG), an I/O error (SQLITE_IOERR, EIO), a
// file or file system made read-only (SQLITE_READONLY, EROFS), a file that cannot be
// opened (SQLITE_CANTOPEN). Unlike damaged pages (ErrCorrupt) it may pass: space freed,
// the file system remounted.
var ErrUnwritable = errors.New("the database cannot be written")

// IsUnwritable reports whether err says the database cannot be written (ErrUnwritable).
func IsUnwritable(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrUnwritable) {
		return true
	}
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG, syscall.EIO, syscall.EROFS} {
		if errors.Is(err, e) {
			return true
		}
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		switch coded.Code() & 0xff {
		case 8, 10, 13, 14: // SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN
			return true
		}
	}
	msg := err.Error()
	for _, s := range []string{"database or disk is full", "disk I/O error", "readonly database", "read-only file system",
		"no space left on device", "unable to open database file"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// IsIOError reports whether err is an I/O error (SQLITE_IOERR, EIO): the disk failed
// the read or write. Pages read after one may look damaged though the disk, once
// checked and mounted again, holds them whole.
func IsIOError(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, syscall.EIO) {
		return true
	}
	var coded interface{ Code() int }
	if errors.As(err, &coded) && coded.Code()&0xff == 10 { // SQLITE_IOERR
		return true
	}
	return strings.Contains(err.Error(), "disk I/O error") || strings.Contains(err.Error(), "input/output error")
}

// IsBroken reports whether err means the database is damaged or cannot be written
// (IsCorrupt or IsUnwritable): a judge that goes on taking mail would flag as done mail
// it could not record.
func IsBroken(err error) bool { return IsCorrupt(err) || IsUnwritable(err) }

// Writable checks, after the database could not be written, whether it can be again:
// its pages are sound (PRAGMA quick_check) and a write commits (an audit entry saying
// so, with note). It returns the error that still stands, or nil.
func (s *Store) Writable(ctx context.Context, now time.Time, note string) error {
	return s.checkWrite(ctx, now, "writable", note)
}
