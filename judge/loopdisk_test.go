package judge

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// loopDisk is an ext4 file system in an image file under t.TempDir(), on a loop device,
// mounted with errors=remount-ro as most Linux systems mount their disks. It is how a
// test makes a disk fail under a running judge without touching the machine's own:
//
//   - readOnly is the read-only remount a judge meets in service: the kernel's, when
//     ext4 finds an error. `mount -o remount,ro` cannot do it under the judge: it
//     refuses with "mount point is busy" while a file is open for writing, and the
//     database is (tried on tmpfs and ext4).
//   - ioErrors makes every read and write of the file system fail with EIO, as a disk
//     that went away does (the shutdown ioctl ext4 and XFS share, which xfstests uses
//     for it). This kernel has no device mapper (dmsetup finds no driver), so no
//     dm-error or dm-flakey target.
//
// Both hold until the file system is unmounted, checked and mounted again (repair): a
// judge cannot be kept running through them, and the operator restarts it.
type loopDisk struct {
	t   *testing.T
	dev string // /dev/loopN
	dir string // where it is mounted
}

// newLoopDisk makes and mounts a file system of size bytes, or skips the test where
// that is not allowed (not root, no loop device or mkfs.ext4).
func newLoopDisk(t *testing.T, size int64) *loopDisk {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a loop device (.ci/run runs as root)")
	}
	base := t.TempDir()
	img := filepath.Join(base, "disk.img")
	f, err := os.Create(img)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	out, err := exec.Command("losetup", "-f", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("no loop device: %v %s", err, out)
	}
	d := &loopDisk{t: t, dev: strings.TrimSpace(string(out)), dir: filepath.Join(base, "disk")}
	t.Cleanup(func() {
		if out, err := exec.Command("losetup", "-d", d.dev).CombinedOutput(); err != nil {
			t.Errorf("losetup -d %s: %v %s", d.dev, err, out)
		}
	})
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", d.dev).CombinedOutput(); err != nil {
		t.Skipf("mkfs.ext4: %v %s", err, out)
	}
	if err := os.Mkdir(d.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	d.mount()
	t.Cleanup(func() {
		out, err := exec.Command("umount", d.dir).CombinedOutput()
		if err == nil || strings.Contains(string(out), "not mounted") {
			return
		}
		// still busy: detach it now, the kernel lets go of it with the last open file
		t.Logf("umount %s: %v %s; unmounting lazily", d.dir, err, out)
		if out, err := exec.Command("umount", "-l", d.dir).CombinedOutput(); err != nil {
			t.Errorf("umount -l %s: %v %s", d.dir, err, out)
		}
	})
	return d
}

func (d *loopDisk) mount() {
	d.t.Helper()
	if out, err := exec.Command("mount", "-o", "errors=remount-ro", d.dev, d.dir).CombinedOutput(); err != nil {
		d.t.Fatalf("mount %s: %v %s", d.dev, err, out)
	}
}

// readOnly has the kernel remount the file system read-only, as it does on an error
// it finds (ext4's trigger_fs_error, with errors=remount-ro).
func (d *loopDisk) readOnly() {
	d.t.Helper()
	trigger := filepath.Join("/sys/fs/ext4", filepath.Base(d.dev), "trigger_fs_error")
	if err := os.WriteFile(trigger, []byte("1"), 0); err != nil {
		d.t.Skipf("cannot make ext4 remount read-only: %v", err)
	}
	if f, err := os.Create(filepath.Join(d.dir, "probe")); err == nil || !strings.Contains(err.Error(), "read-only") {
		if f != nil {
			f.Close()
		}
		d.t.Fatalf("the file system is still writable after an error (%v)", err)
	}
}

// ioErrors makes every I/O of the file system fail with EIO from now on, without
// flushing its journal first (EXT4_IOC_SHUTDOWN, EXT4_GOING_FLAGS_NOLOGFLUSH): what
// was not on the disk is lost, as when a disk fails.
func (d *loopDisk) ioErrors() {
	d.t.Helper()
	f, err := os.Open(d.dir)
	if err != nil {
		d.t.Fatal(err)
	}
	defer f.Close()
	const shutdown = 0x8004587d // _IOR('X', 125, __u32)
	flags := uint32(2)          // no log flush
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), shutdown, uintptr(unsafe.Pointer(&flags))); e != 0 {
		d.t.Skipf("cannot shut the file system down: %v", e)
	}
	if err := os.WriteFile(filepath.Join(d.dir, "probe"), []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), "input/output error") {
		d.t.Fatalf("the file system still writes after its shutdown (%v)", err)
	}
}

// repair is what the operator does after either: unmount, check, mount again.
func (d *loopDisk) repair() {
	d.t.Helper()
	if out, err := exec.Command("umount", d.dir).CombinedOutput(); err != nil {
		d.t.Fatalf("umount: %v %s", err, out)
	}
	out, err := exec.Command("e2fsck", "-fy", d.dev).CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() <= 2) { // 1, 2: errors corrected
		d.t.Fatalf("e2fsck: %v %s", err, out)
	}
	d.mount()
}

// fill writes a file until the disk is full, and returns its name.
func (d *loopDisk) fill() string {
	d.t.Helper()
	return fillDisk(d.t, d.dir)
}
