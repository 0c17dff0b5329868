package vfs

// WrapFS is FS with every file it creates or opens passed through File:
// the shape of a file system that changes what its files do (count or
// delay their syncs, say) and nothing else. A File that adds nothing to
// writes should also have an Unwrap() File method (see OSFile).
type WrapFS struct {
	FS
	File func(File) File
}

func (w WrapFS) wrap(f File, err error) (File, error) {
	if err != nil {
		return nil, err
	}
	return w.File(f), nil
}

func (w WrapFS) Create(name string) (File, error)     { return w.wrap(w.FS.Create(name)) }
func (w WrapFS) CreateNew(name string) (File, error)  { return w.wrap(w.FS.CreateNew(name)) }
func (w WrapFS) Open(name string) (File, error)       { return w.wrap(w.FS.Open(name)) }
func (w WrapFS) OpenAppend(name string) (File, error) { return w.wrap(w.FS.OpenAppend(name)) }
