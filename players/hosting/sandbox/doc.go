// Package sandbox runs untrusted programs, the engines students submit, in bubblewrap
// (bwrap) sandboxes: no network, a read-only system, only the engine's own files, a
// private temporary directory, and limits on CPU time, memory, processes and file size.
//
// A submitted engine comes as a directory (Config.Dir) with a build command and a run
// command. Build runs the build command in a sandbox that works in a scratch copy of the
// directory, a tmpfs of Limits.BuildSize bytes, and copies its result back (only regular
// files and directories, at most BuildSize bytes in all); Command turns the run command into the command line of a sandbox that may only read
// it, to be started by the engine bridge (players/engine), which speaks to it over
// standard input and output as to any engine:
//
//	if err := sandbox.Prepare(dir, 0); err != nil { ... } // hand dir to its sandbox user
//	log, err := sandbox.Build(ctx, sandbox.Config{Dir: dir}, "cc -O2 -o engine engine.c", time.Minute)
//	argv, err := sandbox.Command(sandbox.Config{Dir: dir}, []string{"./engine"})
//	p, err := engine.Start(ctx, argv, engine.Options{})
//
// # What the program sees
//
// The directory is mounted at /engine, its working directory: read-only, or read-write
// (Config.Writable); for Build, /engine is the scratch copy, and the directory itself is
// read-only at /engine-source. Besides it the program sees the system's /usr read-only
// (with the /bin, /lib, /lib64 and /sbin links or directories as the system has them),
// the few files of /etc that programs need to start (the dynamic linker's cache,
// /etc/passwd and /etc/group, /etc/alternatives through which Debian's cc goes), a /proc
// of its own pid namespace, a minimal /dev, and two private tmpfs of Limits.TmpSize
// bytes each, /tmp and /dev/shm. Everything else is read-only or absent: the root
// directory, /dev, and every file of the host outside /usr and those few of /etc, the
// engine's neighbours in particular. Its environment is PATH, HOME=/tmp, TMPDIR=/tmp and
// LANG=C.UTF-8, plus Config.Env, and nothing else: the command line starts with env -i,
// so that bwrap, and its init that is pid 1 of the sandbox, start with that environment
// too, not the caller's (the sandbox can read theirs in /proc/1/environ).
//
// It runs in namespaces of its own (user, mount, pid, network, IPC, UTS, cgroup): it has
// only a loopback interface of its own, so it reaches nothing on the host or beyond; it
// sees only its own processes; it may not make further user namespaces; and it leads a
// session of its own, so it cannot push input into the terminal of whoever started it.
// The sandbox dies with its parent (bwrap --die-with-parent), and when its first process
// ends the kernel kills everything it left running (its pid namespace goes).
//
// # Limits
//
// The limits are resource limits (setrlimit), set by a small /bin/sh wrapper inside the
// sandbox just before it runs the program, and inherited by everything the program
// starts: RLIMIT_CPU, RLIMIT_AS, RLIMIT_NPROC and RLIMIT_FSIZE, and no core files. The
// wrapper also raises the program's OOM score to the most (oom_score_adj 1000), so that
// when the machine runs short of memory the kernel kills a sandboxed program before
// anything else. Limits bound each process, not the sandbox as a whole, except the
// process count, and RLIMIT_NPROC is not enforced for uid 0: so a caller running as root
// runs each sandbox as an unprivileged uid of its own (see Config.UID and Prepare).
// Config.Cgroup (Host.Cgroups for builds) puts the whole sandbox in a cgroup of its own
// (package cgroup), joined before bwrap starts, which bounds its memory, CPU and
// processes together. docs/security.md, "Sandboxes for submitted engines", says what each
// limit does and does not contain, with the measurements behind DefaultLimits.
//
// Linux only: bwrap (Debian package bubblewrap) must be installed and the kernel must
// allow unprivileged user namespaces; Available says whether it can work here. A caller
// running as root also needs setpriv (util-linux).
package sandbox
