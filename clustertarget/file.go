package clustertarget

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/BurntSushi/toml"
)

// FileName is the file a module gives its target in, read the way
// staticcheck reads staticcheck.conf: the nearest one in a package's
// directory or its parents applies to it. It is TOML:
//
//	# the cluster runs Valkey 9.0 with cluster-databases 16
//	target = "valkey:9.0:db16"
const FileName = "crossslot.conf"

// A File is one crossslot.conf.
type File struct {
	Path   string
	Target Target
}

// Find reads the crossslot.conf nearest to dir: in dir, else in its
// parents. ok is false when there is none. A file that cannot be read or
// parsed, a key it does not know and a bad target are errors naming the
// file.
func Find(dir string) (f File, ok bool, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		path := filepath.Join(d, FileName)
		data, err := os.ReadFile(path)
		switch {
		case err == nil:
			f, err := Read(path, data)
			return f, err == nil, err
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.ENOTDIR):
			return File{}, false, fmt.Errorf("%s: %v", path, err)
		}
		if filepath.Dir(d) == d {
			return File{}, false, nil
		}
	}
}

// Read parses a crossslot.conf's contents.
func Read(path string, data []byte) (File, error) {
	var conf struct {
		Target *string `toml:"target"`
	}
	md, err := toml.Decode(string(data), &conf)
	if err != nil {
		return File{}, fmt.Errorf("%s: %v", path, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return File{}, fmt.Errorf("%s: unknown setting %q (known: target)", path, undecoded[0].String())
	}
	f := File{Path: path, Target: Latest}
	if conf.Target != nil {
		t, err := Parse(*conf.Target)
		if err != nil {
			return File{}, fmt.Errorf("%s: target: %v", path, err)
		}
		f.Target = t
	}
	return f, nil
}

// A Setting is a target as a front end takes it: given (by a flag, a
// golangci-lint setting, a guard's option) or, when not, read from the
// crossslot.conf nearest to each package. It is a flag.Value.
type Setting struct {
	Target Target
	Given  bool
}

func (s *Setting) String() string {
	if s == nil {
		return Latest.String()
	}
	return s.Target.String()
}

func (s *Setting) Set(v string) error {
	t, err := Parse(v)
	if err != nil {
		return err
	}
	s.Target, s.Given = t, true
	return nil
}

// For is the target of the code in dir: the given one, else the nearest
// crossslot.conf's, else Latest.
func (s *Setting) For(dir string) (Target, error) {
	if s != nil && s.Given {
		return s.Target, nil
	}
	f, ok, err := Find(dir)
	switch {
	case err != nil:
		return Target{}, err
	case ok:
		return f.Target, nil
	}
	return Latest, nil
}
